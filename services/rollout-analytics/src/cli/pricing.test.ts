import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { runCli } from "./program.js";
import { loadPricing } from "./pricing.js";
import { captureIo, REAL_DIR, REAL_SKIP } from "./test-support.js";

test("the shipped price list is dated and carries the list prices", async () => {
  const pricing = await loadPricing(process.cwd(), undefined);
  assert.match(pricing.asOf, /^\d{4}-\d{2}-\d{2}$/);
  assert.equal(pricing.currency, "USD");
  assert.deepEqual(pricing.models["o4-mini"], { input: 1.1, cachedInput: 0.275, output: 4.4 });
  assert.deepEqual(pricing.models["codex-mini-latest"], { input: 1.5, cachedInput: 0.375, output: 6 });
  assert.deepEqual(pricing.models["gpt-5.3-codex"], { input: 1.75, cachedInput: 0.175, output: 14 });
});

test("--pricing replaces the shipped list, and a model it lacks is reported unpriced", { skip: REAL_SKIP }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-pricing-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, "prices.json");
  await writeFile(
    file,
    JSON.stringify({
      as_of: "2030-01-01",
      currency: "EUR",
      source: "test",
      models: { "gpt-5.5": { input: 1, cached_input: 1, output: 1 } },
    }),
  );
  const io = captureIo();
  assert.equal(await runCli(["usage", REAL_DIR, "--no-cache", "--workers", "1", "--pricing", file], io), 0, io.stderr);
  const report = JSON.parse(io.stdout) as {
    pricing: { as_of: string; currency: string };
    totals: { cost: number; unpriced_models: string[] };
  };
  assert.deepEqual(report.pricing, { as_of: "2030-01-01", currency: "EUR", source: "test" });
  assert.equal(report.totals.cost, 22_549 / 1e6, "gpt-5.5's tokens at one per million");
  assert.deepEqual(report.totals.unpriced_models, ["gpt-5.3-codex"]);
  await writeFile(file, JSON.stringify({ as_of: "2030-01-01", currency: "EUR", models: { "gpt-5.5": { input: "free", output: 1 } } }));
  const bad = captureIo();
  assert.equal(await runCli(["usage", REAL_DIR, "--no-cache", "--pricing", file], bad), 2);
  assert.match(bad.stderr, /--pricing\.models\.gpt-5\.5\.input/, bad.stderr);
});
