// The usage reader decodes a few lines of each file; the scan decodes them all. Their token usage
// must be the same on every file: generated corpora, hand-written edge cases and real rollouts.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { foldRecords, parsePricing, sessionOfFile, usageReport } from "@crs/domain/rollout";
import { REAL_DIR, REAL_SKIP } from "../cli/test-support.js";
import { writeCorpus } from "../generate/index.js";
import { foldRolloutFile, HEAD_BYTES, readRolloutFile } from "../reader/index.js";
import { scanCorpus } from "../scan/index.js";
import { usageCorpus } from "./usage-corpus.js";
import { usageOfFile } from "./usage-file.js";

const at = (s: number): string => new Date(Date.UTC(2026, 2, 1, 23, 59, 50) + s * 1000).toISOString();
const line = (s: number | string, type: string, payload: unknown): string =>
  JSON.stringify({ timestamp: typeof s === "string" ? s : at(s), type, payload });
const figures = (input: number, cached: number, output: number, reasoning = 0) => ({
  input_tokens: input,
  cached_input_tokens: cached,
  output_tokens: output,
  reasoning_output_tokens: reasoning,
  total_tokens: input + output,
});
const tokens = (s: number | string, total: object | null, last: object | null, extra: object = {}): string =>
  line(s, "event_msg", {
    type: "token_count",
    info: total === null && last === null ? null : { total_token_usage: total ?? undefined, last_token_usage: last ?? undefined },
    rate_limits: null,
    ...extra,
  });
const context = (s: number, model: string, extra: object = {}): string => line(s, "turn_context", { model, ...extra });
const filler = (n: number): string => "z".repeat(n);

// Every case the usage fold distinguishes, and every layout the head test must not be fooled by.
const EDGE_CASES = [
  line(0, "session_meta", { id: "edge", cwd: "/w/edge" }),
  tokens(1, figures(100, 0, 10), figures(100, 0, 10)),
  context(2, "gpt-5", { instructions: filler(300) }),
  tokens(3, null, null),
  tokens(4, figures(1100, 800, 60, 20), figures(1000, 800, 50, 20)),
  tokens(5, figures(1100, 800, 60, 20), figures(1000, 800, 50, 20)),
  tokens(6, figures(1100, 800, 60, 20), figures(1000, 800, 50, 20)),
  line(7, "response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: filler(5000) }] }),
  line(8, "event_msg", { type: "agent_message", message: '"type":"token_count"' }),
  tokens(9, figures(400, 100, 30), figures(400, 100, 30)),
  tokens(10, null, figures(50, 10, 5)),
  context(11, ""),
  tokens(12, figures(900, 300, 90), figures(500, 200, 60)),
  context(13, "gpt-unpriced"),
  tokens(14, figures(1500, 700, 100, 40), figures(600, 400, 10, 40)),
  JSON.stringify({
    type: "event_msg",
    timestamp: at(15),
    payload: { info: { total_token_usage: figures(1600, 700, 110) }, type: "token_count" },
  }),
  `  ${tokens(16, figures(1700, 750, 120), null)}  `,
  `${tokens(17, figures(1800, 800, 130), null)}\r`,
  tokens("not a time", figures(1900, 850, 140), null),
  tokens(18, figures(2000, 900, 150), null).replace('"type":"token_count"', '"type":"token\\u005fcount"'),
  tokens(19, figures(2100, 950, 160), null).replace('"type":"event_msg"', '"type":"event\\u005fmsg"'),
  line(20, "session_meta", { id: "parent", cwd: "/w/parent" }),
  line(21, "compacted", { message: filler(2000) }),
  "",
  "   ",
  "{not json",
  context(22, "gpt-5-mini", { big: filler(HEAD_BYTES * 2) }),
  tokens(23, figures(2200, 1000, 170), null, { rate_limits: { note: filler(HEAD_BYTES * 2) } }),
  tokens(24, figures(2300, 1100, 180), null),
  // Heads that name a token_count, whose parsed members say otherwise: the members decide.
  `${tokens(26, figures(2500, 1200, 200), null).slice(0, -1)},"type":"response_item"}`,
  tokens(27, figures(2600, 1250, 210), null, { type: "agent_message" }).replace('"payload":{', '"payload":{"type":"token_count",'),
  tokens(25, figures(2400, 1150, 190), null).slice(0, 80),
].join("\n");

// Pre-wrapper rollouts: a bare meta, state markers and bare items; no usage, but a cwd.
const LEGACY = [
  JSON.stringify({ id: "legacy", timestamp: "2025-05-01T10:00:00Z", cwd: "/w/legacy" }),
  JSON.stringify({ record_type: "state" }),
  JSON.stringify({ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }),
].join("\n");

// A rollout without session_meta whose first record is a usage line, ending in a line feed.
const NO_META = `${[context(0, "gpt-5"), tokens(1, figures(10, 0, 1), figures(10, 0, 1))].join("\n")}\n`;

// A forked rollout behind a byte-order mark: its parent's history copied in one burst (replies
// 900 ms apart, an undated one among them), then its own replies: one naming its model, one
// quoting a figure, one with blanks between its tokens.
const FORKED_BOM = `\uFEFF${[
  line(0, "session_meta", { id: "child", cwd: "/w/child", forked_from_id: "edge" }),
  context(0, "gpt-5"),
  tokens(1, figures(100, 0, 10), figures(100, 0, 10)),
  tokens(1.9, figures(200, 0, 20), figures(100, 0, 10)),
  tokens("", figures(300, 0, 30), figures(100, 0, 10)),
  tokens(2.8, figures(400, 0, 40), figures(100, 0, 10)),
  tokens(9, figures(500, 0, 50), figures(100, 0, 10), { model: "gpt-5-mini" }),
  tokens(10, figures(600, 0, 60), { ...figures(100, 0, 10), input_tokens: "100" }),
  tokens(11, figures(700, 0, 70), figures(100, 0, 10))
    .replaceAll('":', '": ')
    .replaceAll(',"', ', "'),
].join("\n")}\n`;

async function writeEdgeStore(dir: string): Promise<void> {
  await mkdir(join(dir, "a"), { recursive: true });
  await mkdir(join(dir, "b"), { recursive: true });
  await writeFile(join(dir, "a", "rollout-edge.jsonl"), EDGE_CASES);
  // The same file name in two folders is one session, as the scan names sessions.
  await writeFile(join(dir, "b", "rollout-edge.jsonl"), EDGE_CASES.replace("/w/edge", "/w/other"));
  await writeFile(join(dir, "a", "rollout-legacy.jsonl"), LEGACY);
  await writeFile(join(dir, "b", "rollout-no-meta.jsonl"), NO_META);
  await writeFile(join(dir, "b", "rollout-empty.jsonl"), "");
  await writeFile(join(dir, "b", "rollout-forked.jsonl"), FORKED_BOM);
}

async function jsonlUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".jsonl"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

// Each file read both ways, at the default line limit and at one that makes lines oversized.
async function assertFilesAgree(dir: string): Promise<number> {
  const files = await jsonlUnder(dir);
  for (const maxLineBytes of [64 * 1024 * 1024, 4096]) {
    for (const path of files) {
      const session = sessionOfFile(path);
      const got = usageOfFile(path, maxLineBytes);
      // The scan folds records as they stream; a kept rollout folds them afterwards.
      const { census, fold, bytes } = await foldRolloutFile(path, { limits: { maxLineBytes } });
      const streamed = fold.finish({ meta: census.meta, fresh: false }).usage.result(session);
      assert.deepEqual(got, { usage: streamed, cwd: census.meta?.cwd ?? "", bytes }, `${path} at a ${maxLineBytes}-byte line limit`);
      const { rollout } = await readRolloutFile(path, { maxLineBytes });
      const kept = foldRecords({ meta: rollout.meta, records: rollout.records, fresh: false }).usage.result(session);
      assert.deepEqual(got.usage, kept, `${path} kept, at a ${maxLineBytes}-byte line limit`);
    }
  }
  return files.length;
}

test("the usage reader's figures equal the scan's on every edge case, file by file", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "usage-edge-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeEdgeStore(dir);
  assert.equal(await assertFilesAgree(dir), 6);
  const edge = usageOfFile(join(dir, "a", "rollout-edge.jsonl"), 64 * 1024 * 1024);
  const session = edge.usage.bySession["rollout-edge"];
  assert.deepEqual(Object.keys(session?.byModel ?? {}), ["gpt-5", "gpt-5-mini", "gpt-unpriced", "unknown"], "every model counted");
  assert.equal(edge.usage.repeats, 2, "two repeated totals skipped");
  assert.ok(edge.usage.byDay["undated"] !== undefined, "an undated reply is counted as undated");
  assert.equal(edge.cwd, "/w/edge", "the first session_meta names the cwd");
  // Read through the mark as a fork: the copied burst skipped, the rest under the model it names.
  const forked = usageOfFile(join(dir, "b", "rollout-forked.jsonl"), 64 * 1024 * 1024);
  assert.equal(forked.usage.replayed, 4, "the burst, the undated reply in it included, is the parent's");
  assert.deepEqual(forked.usage.bySession["rollout-forked"]?.byModel, {
    "gpt-5-mini": { input: 300, cachedInput: 0, output: 30, reasoning: 0, total: 330 },
  });
});

test("the usage reader's figures equal the scan's on a generated corpus with multi-megabyte lines", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "usage-generated-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const written = await writeCorpus({ dir, seed: 23, files: 40, bigLineShare: 0.1 });
  assert.ok(written.tornTails > 0 || written.files === 40, "the corpus was written");
  assert.equal(await assertFilesAgree(dir), 40);
});

test("the usage reader's figures equal the scan's on the real rollouts", { skip: REAL_SKIP }, async () => {
  assert.ok((await assertFilesAgree(REAL_DIR)) >= 4);
});

test("a usage read of a store equals the scan's usage, whatever the scope, limit, threads and cache", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "usage-store-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const store = join(dir, "sessions");
  await writeCorpus({ dir: store, seed: 5, files: 30, bigLineShare: 0 });
  await writeEdgeStore(join(store, "edge"));
  const pricing = parsePricing({ as_of: "2026-06-01", currency: "USD", models: { "gpt-5": { input: 1.25, output: 10 } } }, "pricing");
  const cases = [{}, { cwd: "/w/edge" }, { limit: 7 }, { workers: 2 }];
  for (const options of cases) {
    const scan = await scanCorpus({ root: store, now: Date.UTC(2026, 5, 1), cacheDir: false, workers: 1, ...options });
    const cacheDir = join(dir, `cache-${JSON.stringify(options)}`);
    for (const run of ["cold", "warm"]) {
      const got = await usageCorpus({ root: store, cacheDir, workers: 1, ...options });
      assert.deepEqual(got.usage, scan.partial.usage, `${run} ${JSON.stringify(options)}`);
      assert.equal(got.files.reused, run === "warm" ? got.files.scanned : 0, `${run} run reuse`);
      assert.deepEqual(
        [got.files.scanned, got.files.outOfScope, got.files.unreadable],
        [scan.files.scanned, scan.files.outOfScope, scan.files.unreadable],
        `file counts ${JSON.stringify(options)}`,
      );
      for (const by of ["day", "session"] as const) {
        assert.deepEqual(usageReport(got.usage, by, pricing), usageReport(scan.partial.usage, by, pricing));
      }
    }
  }
});
