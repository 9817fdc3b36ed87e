import assert from "node:assert/strict";
import { test } from "node:test";
import { collectRollout } from "../decode/collect.js";
import { analyzeRollout } from "../analytics/analyze.js";
import { UsageCollector } from "../usage/collect.js";
import { corpusRollouts, DEFAULT_CORPUS_FROM_MS, type CorpusOptions } from "./corpus.js";
import type { GeneratedRollout } from "./rollout.js";
import { PLANTED_SECRET_MARKER } from "./secrets.js";

const OPTIONS: CorpusOptions = { seed: 42, fromMs: DEFAULT_CORPUS_FROM_MS, spanDays: 30, plantSecrets: false, bigLineShare: 0 };

function take(options: CorpusOptions, n: number): GeneratedRollout[] {
  const out: GeneratedRollout[] = [];
  for (const r of corpusRollouts(options)) {
    out.push(r);
    if (out.length === n) break;
  }
  return out;
}

const sample = take(OPTIONS, 160);

test("a seed that does not fix the bytes would make benchmarks and pinned tests drift", () => {
  const again = take(OPTIONS, 20);
  assert.deepEqual(
    again.map((r) => r.text),
    sample.slice(0, 20).map((r) => r.text),
    "same seed, same files",
  );
  const other = take({ ...OPTIONS, seed: 43 }, 20);
  assert.notDeepEqual(
    other.map((r) => r.text),
    again.map((r) => r.text),
    "another seed, other files",
  );
});

test("files are laid out as the producer names them, dated by their session start", () => {
  for (const r of sample) {
    assert.match(
      r.relPath,
      /^\d{4}\/\d{2}\/\d{2}\/rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.jsonl$/,
      r.relPath,
    );
    assert.equal(r.relPath.slice(0, 10).replaceAll("/", "-"), r.relPath.slice(19, 29), `${r.relPath}: folder date is the file's date`);
  }
});

test("a corpus without every era and ending would leave the reader's edge cases untested", () => {
  const eras = new Set(sample.map((r) => r.era));
  assert.deepEqual([...eras].sort(), ["alias", "current", "early_keyed", "legacy", "unkeyed"], "every era appears");
  assert.ok(
    sample.some((r) => r.tornTail),
    "some file has a torn tail",
  );
  const outcomes = new Map<string, number>();
  const kinds = new Set<string>();
  let repeatedTotals = 0;
  for (const r of sample) {
    const lines = r.text.split("\n");
    const decoded = collectRollout(lines);
    assert.equal(decoded.tornTail, r.tornTail, `${r.relPath}: torn tail as generated`);
    for (const rec of decoded.records) kinds.add(rec.kind === "tool_call" ? `${rec.kind}:${rec.payloadKind}` : rec.kind);
    const analytics = analyzeRollout({ meta: decoded.meta, records: decoded.records, fresh: false });
    for (const t of analytics.tasks) outcomes.set(t.outcome, (outcomes.get(t.outcome) ?? 0) + 1);
    const totals = lines
      .filter((l) => l.includes('"total_token_usage"'))
      .map((l) => JSON.stringify(JSON.parse(l).payload.info.total_token_usage));
    repeatedTotals += totals.filter((t, i) => i > 0 && t === totals[i - 1]).length;
  }
  for (const outcome of ["complete", "aborted", "superseded", "process_death"])
    assert.ok((outcomes.get(outcome) ?? 0) > 0, `some task ends ${outcome}`);
  for (const kind of [
    "tool_call:function_call",
    "tool_call:custom_tool_call",
    "tool_call:local_shell_call",
    "tool_output",
    "token_count",
    "compacted",
    "turn_error",
    "user_message",
    "agent_message",
  ]) {
    assert.ok(kinds.has(kind), `some record is ${kind}`);
  }
  assert.ok(repeatedTotals > 0, "some token_count repeats the previous totals");
});

test("a corpus without forks, unknown line types, byte-order marks or CRLF endings would leave those reader paths untested", () => {
  const has = (pattern: RegExp): GeneratedRollout[] => sample.filter((r) => pattern.test(r.text));
  const forks = has(/"forked_from_id":/);
  const spawns = has(/"source":\{"subagent"/);
  assert.ok(forks.length > 0 && spawns.length > 0, `forks ${forks.length}, spawns ${spawns.length}`);
  assert.ok(has(/"type":"(world_state|thread_checkpoint)"/).length > 0, "some line has a top-level type the reader does not analyse");
  assert.ok(
    has(/"type":"(thread_goal_updated|item_completed|thread_settings_applied|ghost_snapshot)"/).length > 0,
    "some line has an unknown variant",
  );
  assert.ok(has(/^\uFEFF/).length > 0, "some file starts with a byte-order mark");
  assert.ok(has(/\r\n/).length > 0, "some file has CRLF line endings");
  for (const r of [...forks, ...spawns]) {
    // The parent's history comes first, in one burst; the child's usage is only what it added.
    const lines = r.text.split(/\r?\n/);
    const decoded = collectRollout(lines);
    assert.equal(decoded.tornTail, r.tornTail, `${r.relPath}: torn tail as generated`);
    const totals = lines.filter((l) => l.includes('"total_token_usage"') && l.endsWith("}}")).map((l) => JSON.parse(l).payload.info);
    const copied = totals.findIndex((info, i) => i > 0 && info.last_token_usage.total_tokens === info.total_token_usage.total_tokens);
    assert.equal(copied, -1, `${r.relPath}: the child's totals continue from its parent's`);
    const collector = new UsageCollector();
    for (const line of lines) collector.push(line);
    const { usage } = collector.result("child");
    assert.ok(usage.replayed >= 2, `${r.relPath}: the copied replies are replayed, not counted (${usage.replayed})`);
    const parentTotal = totals[usage.replayed - 1]?.total_token_usage.total_tokens ?? 0;
    const lastTotal = totals[totals.length - 1]?.total_token_usage.total_tokens ?? 0;
    const counted = Object.values(usage.byDay)
      .flatMap((byModel) => Object.values(byModel))
      .reduce((n, f) => n + f.total, 0);
    assert.equal(counted, lastTotal - parentTotal, `${r.relPath}: only the child's own tokens count`);
  }
});

test("a producer time to first token that is one constant would make every TTFT percentile the same", () => {
  const seen = new Set<number>();
  for (const r of sample)
    for (const line of r.text.split(/\r?\n/)) {
      if (!line.includes('"time_to_first_token_ms"')) continue;
      const { duration_ms: duration, time_to_first_token_ms: ttft } = JSON.parse(line).payload;
      assert.ok(ttft > 0 && ttft <= duration && ttft <= 60000, `${r.relPath}: ttft ${ttft} ms within the turn's ${duration} ms`);
      seen.add(ttft);
    }
  assert.ok(seen.size > 100, `${seen.size} distinct times to first token`);
});

test("cumulative token totals are the running sum of the per-reply figures", () => {
  for (const r of sample.slice(0, 40)) {
    let sum = 0;
    let previousTotal = -1;
    for (const line of r.text.split("\n")) {
      if (!line.includes('"total_token_usage"')) continue;
      const info = JSON.parse(line).payload.info;
      if (info.total_token_usage.total_tokens === previousTotal) continue;
      sum += info.last_token_usage.total_tokens;
      previousTotal = info.total_token_usage.total_tokens;
      assert.equal(previousTotal, sum, `${r.relPath}: total equals the sum of replies`);
    }
  }
});

test("planted secrets reach every body kind when asked, and never otherwise", () => {
  const planted = take({ ...OPTIONS, plantSecrets: true }, 40)
    .map((r) => r.text)
    .join("\n");
  for (const place of ["prompt", "argument", "output", "reasoning", "error", "agent_message", "patch", "instructions"]) {
    assert.ok(planted.includes(`${PLANTED_SECRET_MARKER}-${place}-`), `a secret is planted in ${place}`);
  }
  assert.ok(!sample.some((r) => r.text.includes(PLANTED_SECRET_MARKER)), "no secret without the flag");
});

test("a big-line share writes lines of megabytes", () => {
  const big = take({ ...OPTIONS, bigLineShare: 1 }, 3);
  for (const r of big) {
    const longest = Math.max(...r.text.split("\n").map((l) => l.length));
    assert.ok(longest >= 1_000_000, `${r.relPath}: longest line ${longest}`);
  }
});
