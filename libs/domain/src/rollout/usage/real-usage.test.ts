// Pins token usage on the real rollouts kept beside the project. Every figure below was checked
// equal to `ccusage codex daily --json --offline` 20.0.24 (TZ=UTC) on the same four files; its
// `inputTokens` is our input minus cached input, its `cacheReadTokens` our cached input.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { collectRollout } from "../decode/collect.js";
import { usageOfRecords } from "./fold.js";
import { emptyUsage, mergeUsage } from "./merge.js";
import { parsePricing } from "./pricing.js";
import { usageReport } from "./report.js";

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "pnpm-workspace.yaml")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

const DIR = process.env["CODEX_ROLLOUTS_DIR"] ?? resolve(repoRoot(), "..", "shared", "codex-rollouts-real");
const SKIP = existsSync(DIR) ? false : `real rollouts not found at ${DIR} (set CODEX_ROLLOUTS_DIR)`;

// The two models of these files at the shipped list prices.
const PRICING = parsePricing(
  {
    as_of: "2026-06-01",
    currency: "USD",
    models: { "gpt-5.3-codex": { input: 1.75, cached_input: 0.175, output: 14 }, "gpt-5.5": { input: 5, cached_input: 0.5, output: 30 } },
  },
  "pricing",
);

test("token usage of the real rollouts equals ccusage's, day by day and session by session", { skip: SKIP }, () => {
  let usage = emptyUsage();
  for (const name of readdirSync(DIR)
    .filter((n) => n.endsWith(".jsonl"))
    .sort()) {
    const decoded = collectRollout(readFileSync(join(DIR, name), "utf8").split("\n"));
    usage = mergeUsage(usage, usageOfRecords(decoded.records, basename(name, ".jsonl")));
  }
  const days = usageReport(usage, "day", PRICING);
  const pick = (r: (typeof days.rows)[number]) => [
    r.key,
    r.input_tokens,
    r.cached_input_tokens,
    r.output_tokens,
    r.reasoning_output_tokens,
    r.total_tokens,
    r.models,
  ];
  assert.deepEqual(days.rows.map(pick), [
    ["2026-02-23", 2_084_270, 1_894_272, 16_154, 5_040, 2_100_424, ["gpt-5.3-codex"]],
    ["2026-06-05", 22_539, 20_864, 10, 0, 22_549, ["gpt-5.5"]],
  ]);
  assert.ok(Math.abs((days.rows[0]?.cost ?? 0) - 0.8901501) < 1e-9, "ccusage's cost for 2026-02-23");
  assert.ok(Math.abs((days.rows[1]?.cost ?? 0) - 0.019107) < 1e-9, "ccusage's cost for 2026-06-05");
  assert.ok(Math.abs((days.totals.cost ?? 0) - 0.9092571) < 1e-9, "ccusage's total cost");
  assert.equal(days.totals.total_tokens, 2_122_973);
  const sessions = usageReport(usage, "session", PRICING);
  const unified = sessions.rows.find((r) => r.key.startsWith("localpush-rollout-2026-02-23T12-41-04"));
  assert.deepEqual(
    [unified?.input_tokens, unified?.cached_input_tokens, unified?.output_tokens, unified?.reasoning_output_tokens, unified?.total_tokens],
    [1_751_428, 1_651_968, 14_600, 4_293, 1_766_028],
  );
  assert.equal(unified?.last_at, "2026-02-23T11:46:43.614Z", "ccusage's lastActivity");
  assert.ok(days.repeated_token_counts > 0, "the real files do repeat totals, and they are skipped");
});
