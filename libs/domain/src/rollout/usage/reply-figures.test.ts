// What one token_count adds and under which model, where writers stray from the producer's layout.
import assert from "node:assert/strict";
import { test } from "node:test";
import { contextLine, records, tokenLine, u } from "../testing/usage-lines.js";
import { usageOfRecords } from "./fold.js";

const at = (s: number): string => new Date(Date.UTC(2026, 2, 1, 10, 0, s)).toISOString();
const usageOf = (lines: string[]) => usageOfRecords(records(lines), "s").bySession["s"]?.byModel ?? {};

test("replies given only their own figures are not counted again when cumulative totals first appear", () => {
  const lines = [
    contextLine(at(0), "gpt-5"),
    tokenLine(at(1), null, u(100, 10, 10)),
    // The first totals hold the reply before too: this reply added its own 200.
    tokenLine(at(2), u(300, 20, 30), u(200, 10, 20)),
    tokenLine(at(3), u(400, 20, 40), u(100, 0, 10)),
  ];
  assert.deepEqual(usageOf(lines)["gpt-5"], { input: 400, cachedInput: 20, output: 40, reasoning: 0, total: 440 });
  // With no figures of its own, the first totals are all there is.
  assert.equal(usageOf([contextLine(at(0), "gpt-5"), tokenLine(at(1), u(300, 20, 30), null)])["gpt-5"]?.input, 300);
});

test("totals that go down with no figures of the reply's own restart the count: the new totals count in full, a drop in any one figure being a restart (ccusage counts 0 for a figure that went down)", () => {
  const restart = (next: ReturnType<typeof u>) =>
    usageOf([
      contextLine(at(0), "gpt-5"),
      tokenLine(at(1), u(1000, 100, 50), null),
      tokenLine(at(2), next, null),
      tokenLine(at(3), { ...next, output_tokens: next.output_tokens + 5, total_tokens: next.total_tokens + 5 }, null),
    ])["gpt-5"];
  // Every figure went down: ccusage would count 1,000 input here, we count 1,000 + 300.
  assert.deepEqual(restart(u(300, 20, 10)), { input: 1300, cachedInput: 120, output: 65, reasoning: 0, total: 1365 });
  // Only cached input went down, input grew: still a restart, where ccusage adds 200 input.
  assert.deepEqual(restart(u(1200, 50, 80)), { input: 2200, cachedInput: 150, output: 135, reasoning: 0, total: 2335 });
});

test("a figure quoted as decimal digits counts as its number; other text, fractions and signs count 0", () => {
  const quoted = (input: unknown) => ({ ...u(0, 0, 10), input_tokens: input, total_tokens: 0 });
  const inputs = ["100", " 100 ", "+100", "007", "1e2", "100.5", "-5", "0x10", "", 12.5, -3].map(
    (v) => usageOf([tokenLine(at(1), null, quoted(v))])["unknown"]?.input,
  );
  assert.deepEqual(inputs, [100, 100, 100, 7, 0, 0, 0, 0, 0, 0, 0]);
});

test("a figure written 100.0 or 1e2 is the integer it denotes, where ccusage reads 0", () => {
  const line = tokenLine(at(1), null, u(100, 0, 10)).replace('"input_tokens":100', '"input_tokens":1e2');
  assert.equal(usageOf([line])["unknown"]?.input, 100);
  assert.equal(usageOf([line.replace("1e2", "100.0")])["unknown"]?.input, 100);
});

test("a figure past 2^53 - 1 counts 0, since no sum of such figures is exact (ccusage adds them)", () => {
  const huge = { ...u(0, 0, 10), input_tokens: 2 ** 60, total_tokens: 0 };
  const got = usageOf([tokenLine(at(1), null, huge)])["unknown"];
  assert.deepEqual(got, { input: 0, cachedInput: 0, output: 10, reasoning: 0, total: 10 });
});

test("a token_count that names its model counts under it, and so do the replies after it until a turn_context names another", () => {
  const lines = [
    contextLine(at(0), "gpt-5"),
    tokenLine(at(1), u(100, 0, 10), u(100, 0, 10), { info: { model: "gpt-5-mini" } }),
    tokenLine(at(2), u(200, 0, 20), u(100, 0, 10)),
    // The payload's name comes before its info's; `model_name` and `metadata.model` are read too.
    tokenLine(at(3), u(300, 0, 30), u(100, 0, 10), { payload: { model_name: " o3 " }, info: { model: "gpt-5-mini" } }),
    tokenLine(at(4), u(400, 0, 40), u(100, 0, 10), { payload: { metadata: { model: "o4-mini" } } }),
    contextLine(at(5), "gpt-5"),
    tokenLine(at(6), u(500, 0, 50), u(100, 0, 10)),
    // A count with no figures names no model for the replies after it.
    tokenLine(at(7), null, null, { payload: { model: "o3" } }),
    tokenLine(at(8), u(600, 0, 60), u(100, 0, 10)),
  ];
  const inputs = Object.fromEntries(Object.entries(usageOf(lines)).map(([model, f]) => [model, f.input]));
  assert.deepEqual(inputs, { "gpt-5": 200, "gpt-5-mini": 200, o3: 100, "o4-mini": 100 });
});

test("a turn's model is its turn_context's `model` as written, as session health reads it: no other member, no guessed model", () => {
  const lines = [
    contextLine(at(0), "gpt-5"),
    // ccusage takes these two for gpt-5-mini; the producer writes `model` only.
    contextLine(at(1), "", { model_name: "gpt-5-mini" }),
    contextLine(at(2), "", { metadata: { model: "gpt-5-mini" } }),
    tokenLine(at(3), u(100, 0, 10), u(100, 0, 10)),
    // ccusage bills this one as the model it guesses from the date.
    contextLine(at(4), "codex-auto-review"),
    tokenLine(at(5), u(200, 0, 20), u(100, 0, 10)),
  ];
  assert.deepEqual(Object.keys(usageOf(lines)), ["codex-auto-review", "gpt-5"]);
});

test("a line in the `codex exec --json` layout carrying `usage` adds nothing: only token_count events are replies (ccusage counts it)", () => {
  const exec = JSON.stringify({
    type: "turn.completed",
    timestamp: at(1),
    usage: { input_tokens: 100, cached_input_tokens: 20, output_tokens: 10 },
  });
  assert.deepEqual(usageOfRecords(records([contextLine(at(0), "gpt-5"), exec]), "s").bySession, {});
});
