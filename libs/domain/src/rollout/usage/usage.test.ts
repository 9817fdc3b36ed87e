import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { sortedRecord } from "../corpus/order.js";
import { RolloutError } from "../errors.js";
import { contextLine, records, sessionMetaLine, tokenLine, type U, u } from "../testing/usage-lines.js";
import { UsageFold, usageOfRecords } from "./fold.js";
import { emptyUsage, mergeUsage, UsageSum } from "./merge.js";
import { parsePricing } from "./pricing.js";
import { usageReport } from "./report.js";
import { USAGE_VERSION, type UsagePartial } from "./types.js";

const PRICING = parsePricing(
  { as_of: "2026-06-01", currency: "USD", models: { "gpt-5": { input: 1.25, cached_input: 0.125, output: 10 } } },
  "pricing",
);

test("a token_count repeating the previous totals is not counted twice", () => {
  const lines = [
    contextLine("2026-03-01T10:00:00.000Z", "gpt-5"),
    tokenLine("2026-03-01T10:00:01.000Z", null, null),
    tokenLine("2026-03-01T10:00:02.000Z", u(1000, 800, 50, 20), u(1000, 800, 50, 20)),
    tokenLine("2026-03-01T10:00:03.000Z", u(1000, 800, 50, 20), u(1000, 800, 50, 20)),
    tokenLine("2026-03-01T10:00:09.000Z", u(3000, 2500, 80, 20), u(2000, 1700, 30, 0)),
  ];
  const usage = usageOfRecords(records(lines), "s1");
  assert.deepEqual(usage.byDay["2026-03-01"]?.["gpt-5"], { input: 3000, cachedInput: 2500, output: 80, reasoning: 20, total: 3080 });
  assert.equal(usage.repeats, 1, "one repeat skipped");
});

const SPAWNED = { subagent: { thread_spawn: { parent_thread_id: "parent-id", depth: 1, agent_role: "reviewer" } } };

// A child rollout's head as the generated bench corpus writes one: its own meta, its parent's copied
// meta, a rate-limit event, then its first reply (18,292 tokens), re-emitted `gapMs` later.
function childHead(extra: Record<string, unknown>, gapMs: number): string[] {
  const first = u(18057, 8961, 235);
  const at = Date.parse("2026-03-12T20:44:05.855Z");
  return [
    sessionMetaLine("2026-03-12T20:39:12.825Z", "child-id", extra),
    sessionMetaLine("2026-03-12T20:39:12.826Z", "parent-id", { source: "cli" }),
    tokenLine("2026-03-12T20:39:13.225Z", null, null),
    contextLine("2026-03-12T20:44:04.443Z", "gpt-5.5"),
    tokenLine(new Date(at).toISOString(), first, first),
    tokenLine(new Date(at + gapMs).toISOString(), first, first),
  ];
}

const SECOND_REPLY = tokenLine("2026-03-12T20:44:07.114Z", u(39930, 25481, 1387), u(21873, 16520, 1152));

test("a spawned or forked rollout's leading replies within a second of its first are its parent's copied history, not its usage", () => {
  for (const extra of [{ source: SPAWNED }, { source: "cli", forked_from_id: "parent-id" }]) {
    for (const gapMs of [22, 1000]) {
      const usage = usageOfRecords(records([...childHead(extra, gapMs), SECOND_REPLY]), "child");
      // Only the growth past the copy's last totals is the child's: 41,317 - 18,292 tokens.
      assert.deepEqual(
        usage.byDay["2026-03-12"]?.["gpt-5.5"],
        { input: 21873, cachedInput: 16520, output: 1152, reasoning: 0, total: 23025 },
        `${JSON.stringify(extra)}, ${gapMs} ms`,
      );
      assert.equal(usage.replayed, 2, "both copied replies are counted as replayed");
      assert.equal(usage.repeats, 0, "a copied reply is not a repeat");
    }
  }
});

test("a child rollout's first reply alone in its second is its own: a re-emit over a second later is a repeat", () => {
  const usage = usageOfRecords(records([...childHead({ source: SPAWNED }, 1001), SECOND_REPLY]), "child");
  assert.deepEqual(usage.byDay["2026-03-12"]?.["gpt-5.5"], { input: 39930, cachedInput: 25481, output: 1387, reasoning: 0, total: 41317 });
  assert.equal(usage.replayed, 0);
  assert.equal(usage.repeats, 1);
  // A rollout that ends on its lone first reply counts it too, under the model it was given with.
  const alone = usageOfRecords(records(childHead({ source: SPAWNED }, 1001).slice(0, 5)), "child");
  assert.equal(alone.bySession["child"]?.byModel["gpt-5.5"]?.total, 18292);
  assert.equal(alone.bySession["child"]?.firstMs, Date.parse("2026-03-12T20:44:05.855Z"));
});

test("a rollout that is no fork, or whose copy is all it holds, counts accordingly: all of it, or nothing", () => {
  // A review subagent names no parent, and a plain session none: the same head counts in full.
  for (const extra of [{ source: { subagent: "review" } }, { source: "cli" }]) {
    const usage = usageOfRecords(records([...childHead(extra, 22), SECOND_REPLY]), "s");
    assert.equal(usage.bySession["s"]?.byModel["gpt-5.5"]?.total, 41317, JSON.stringify(extra));
    assert.equal(usage.replayed, 0);
  }
  // Only the first session_meta names the rollout: a copied meta that names a parent changes nothing.
  const lines = childHead({ source: "cli" }, 22);
  lines[1] = sessionMetaLine("2026-03-12T20:39:12.826Z", "parent-id", { source: SPAWNED });
  assert.equal(usageOfRecords(records([...lines, SECOND_REPLY]), "s").replayed, 0);
  const copyOnly = usageOfRecords(records(childHead({ source: SPAWNED }, 22)), "child");
  assert.deepEqual(copyOnly.bySession, {}, "no usage of its own");
  assert.equal(copyOnly.replayed, 2);
});

test("deltas come from cumulative totals even when last_token_usage disagrees, and a restart falls back to the reply's own figures", () => {
  const lines = [
    contextLine("2026-03-01T10:00:00.000Z", "gpt-5"),
    tokenLine("2026-03-01T10:00:02.000Z", u(1000, 0, 10), u(1000, 0, 10)),
    tokenLine("2026-03-01T10:00:03.000Z", u(1500, 0, 20), u(1, 0, 1)),
    // The producer restarted: totals went down; the reply's last figures are its tokens.
    tokenLine("2026-03-02T10:00:04.000Z", u(700, 100, 5), u(650, 100, 4)),
    // No cumulative figures at all: the reply's figures are used.
    tokenLine("2026-03-02T10:00:05.000Z", null, u(300, 0, 3)),
  ];
  const usage = usageOfRecords(records(lines), "s1");
  assert.equal(usage.byDay["2026-03-01"]?.["gpt-5"]?.input, 1500);
  assert.equal(usage.byDay["2026-03-02"]?.["gpt-5"]?.input, 950);
});

test("a reply with neither figure set adds nothing and counts as a repeat, after any reply", () => {
  const fold = new UsageFold();
  fold.reply({ total: null, last: null }, 0);
  fold.reply({ total: null, last: { input: 5, cachedInput: 0, output: 1, reasoning: 0, total: 6 } }, 0);
  fold.reply({ total: null, last: null }, 0);
  const usage = fold.result("s1");
  assert.equal(usage.repeats, 2);
  assert.deepEqual(usage.bySession["s1"]?.byModel, { unknown: { input: 5, cachedInput: 0, output: 1, reasoning: 0, total: 6 } });
});

// The fold's rule stated plainly over figure objects: the model the in-place fold must answer as.
function modelFold(replies: readonly { total: U | null; last: U | null }[]): { sum: U; repeats: number } {
  const sum = u(0, 0, 0);
  const keys = Object.keys(sum) as (keyof U)[];
  let previous: U | null = null;
  let repeats = 0;
  for (const { total, last } of replies) {
    if (total === null && last === null) continue;
    let delta: U | null;
    if (total === null) delta = last;
    else if (previous === null) delta = last ?? total;
    else {
      const was: U = previous;
      const growth = Object.fromEntries(keys.map((k) => [k, total[k] - was[k]])) as U;
      if (keys.some((k) => growth[k] < 0)) delta = last ?? total;
      else delta = keys.every((k) => growth[k] === 0) ? null : growth;
    }
    if (total !== null) previous = total;
    if (delta === null) repeats += 1;
    else for (const k of keys) sum[k] += delta[k];
  }
  return { sum, repeats };
}

test("the fold adds what the plain rule adds over any run of replies: growth, repeats, restarts, missing totals", () => {
  // Small figures, so totals repeat, grow and go down often.
  const figures = fc.tuple(fc.nat(3), fc.nat(3), fc.nat(3), fc.nat(3)).map(([i, c, o, r]) => u(i, Math.min(c, i), o, Math.min(r, o)));
  const reply = fc.record({ total: fc.option(figures, { freq: 4 }), last: fc.option(figures, { freq: 4 }) });
  fc.assert(
    fc.property(fc.array(reply, { maxLength: 12 }), (replies) => {
      const lines = [
        contextLine("2026-03-01T10:00:00.000Z", "gpt-5"),
        ...replies.map((r) => tokenLine("2026-03-01T10:00:01.000Z", r.total, r.last)),
      ];
      const usage = usageOfRecords(records(lines), "s1");
      const want = modelFold(replies);
      // No reply added anything: no row at all, which reads as zeros.
      const got = usage.bySession["s1"]?.byModel["gpt-5"] ?? { input: 0, cachedInput: 0, output: 0, reasoning: 0, total: 0 };
      assert.deepEqual(got, {
        input: want.sum.input_tokens,
        cachedInput: want.sum.cached_input_tokens,
        output: want.sum.output_tokens,
        reasoning: want.sum.reasoning_output_tokens,
        total: want.sum.total_tokens,
      });
      assert.equal(usage.repeats, want.repeats);
    }),
    { numRuns: 3000 },
  );
});

test("usage follows the model of the latest turn_context, and a reply before any is of an unknown model", () => {
  const lines = [
    tokenLine("2026-03-01T10:00:01.000Z", u(100, 0, 1), u(100, 0, 1)),
    contextLine("2026-03-01T10:00:02.000Z", "gpt-5"),
    tokenLine("2026-03-01T10:00:03.000Z", u(300, 0, 2), u(200, 0, 1)),
    contextLine("2026-03-01T10:00:04.000Z", "o9-experimental"),
    tokenLine("2026-03-01T10:00:05.000Z", u(700, 0, 3), u(400, 0, 1)),
  ];
  const report = usageReport(usageOfRecords(records(lines), "s1"), "model", PRICING);
  assert.deepEqual(
    report.rows.map((r) => [r.key, r.input_tokens]),
    [
      ["o9-experimental", 400],
      ["gpt-5", 200],
      ["unknown", 100],
    ],
  );
  assert.deepEqual(report.totals.unpriced_models, ["o9-experimental", "unknown"], "models without a price are named");
  assert.equal(report.rows.find((r) => r.key === "o9-experimental")?.cost, null, "an unpriced row has no cost, not a zero cost");
  assert.equal(report.totals.cost, (200 * 1.25 + 2 * 0 + 1 * 10) / 1e6, "priced models only");
});

test("a model named like an object member (constructor, __proto__, toString) counts under its name, not lost or priced by what objects inherit", () => {
  const names = ["constructor", "__proto__", "toString"];
  const lines = names.flatMap((model, i) => [
    contextLine(`2026-03-01T10:00:0${2 * i}.000Z`, model),
    // Cumulative totals: each model's reply adds 100, 200, then 300 input tokens.
    tokenLine(`2026-03-01T10:00:0${2 * i + 1}.000Z`, u([100, 300, 600][i] ?? 0, 0, 10), null),
  ]);
  const usage = usageOfRecords(records(lines), "constructor");
  const byModel = usageReport(usage, "model", PRICING);
  assert.deepEqual(
    byModel.rows.map((r) => [r.key, r.input_tokens, r.cost]),
    [
      ["toString", 300, null],
      ["__proto__", 200, null],
      ["constructor", 100, null],
    ],
  );
  for (const by of ["day", "month", "session"] as const) {
    const [row] = usageReport(usage, by, PRICING).rows;
    assert.deepEqual([row?.input_tokens, row?.models, row?.cost], [600, [...names].sort(), null], by);
  }
  assert.deepEqual(byModel.totals.unpriced_models, [...names].sort());
  // A list that does price such names bills them at their own prices.
  const own = parsePricing(
    JSON.parse(
      '{"as_of":"2026-06-01","currency":"USD","models":{"__proto__":{"input":1,"output":0},"constructor":{"input":2,"output":0}}}',
    ),
    "p",
  );
  assert.equal(usageReport(usage, "day", own).totals.cost, (100 * 2 + 200 * 1) / 1e6, "toString stays unpriced");
  assert.equal(Object.hasOwn(Object.prototype, "input"), false, "no sum was added into Object.prototype");
});

test("cost bills cached input at its own price and reasoning as output", () => {
  const lines = [
    contextLine("2026-03-01T10:00:00.000Z", "gpt-5"),
    tokenLine("2026-03-01T10:00:01.000Z", u(1_000_000, 400_000, 100_000, 60_000), null),
  ];
  const report = usageReport(usageOfRecords(records(lines), "s1"), "day", PRICING);
  assert.equal(report.totals.cost, 0.6 * 1.25 + 0.4 * 0.125 + 0.1 * 10);
});

test("a dated snapshot or provider-named model is billed at its base model's price, not left unpriced", () => {
  const lines = [
    contextLine("2026-03-01T10:00:00.000Z", "gpt-5-2025-08-07"),
    tokenLine("2026-03-01T10:00:01.000Z", u(1_000_000, 400_000, 100_000, 60_000), null),
    contextLine("2026-03-01T10:00:02.000Z", "openai/gpt-5"),
    tokenLine("2026-03-01T10:00:03.000Z", u(2_000_000, 800_000, 200_000, 120_000), null),
    contextLine("2026-03-01T10:00:04.000Z", "gpt-5-experimental"),
    tokenLine("2026-03-01T10:00:05.000Z", u(3_000_000, 800_000, 200_000, 120_000), null),
  ];
  const report = usageReport(usageOfRecords(records(lines), "s1"), "day", PRICING);
  assert.equal(report.totals.cost, 2 * (0.6 * 1.25 + 0.4 * 0.125 + 0.1 * 10), "both replies at gpt-5's prices");
  assert.deepEqual(report.totals.unpriced_models, ["gpt-5-experimental"], "a name that is no snapshot of a listed model stays unpriced");
});

test("the same reply in two rollouts counts in each, since each file is read on its own", () => {
  const lines = [contextLine("2026-03-01T10:00:00.000Z", "gpt-5"), tokenLine("2026-03-01T10:00:01.000Z", u(1000, 0, 100), null)];
  const merged = mergeUsage(usageOfRecords(records(lines), "sessions-copy"), usageOfRecords(records(lines), "archived-copy"));
  const [day] = usageReport(merged, "day", PRICING).rows;
  assert.equal(day?.total_tokens, 2 * 1100, "counted once per file");
  assert.deepEqual(day?.models, ["gpt-5"], "a day row names its models; figures per model come from --by model");
});

test("merging per-file usage in any order gives the same report", () => {
  const perFile = (seed: number) =>
    usageOfRecords(
      records([
        contextLine("2026-03-01T10:00:00.000Z", seed % 2 === 0 ? "gpt-5" : "o3"),
        tokenLine(`2026-03-0${1 + (seed % 3)}T10:00:01.000Z`, u(100 * seed, 10 * seed, seed), null),
      ]),
      `s${seed % 4}`,
    );
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 12 }), fc.integer({ min: 0, max: 1000 }), (seeds, shuffle) => {
      const parts = seeds.map(perFile);
      const forward = parts.reduce(mergeUsage, emptyUsage());
      const turned = [...parts]
        .sort((a, b) => ((JSON.stringify(a).length * shuffle) % 7) - ((JSON.stringify(b).length * shuffle) % 7))
        .reduceRight(mergeUsage, emptyUsage());
      for (const by of ["day", "month", "model", "session"] as const)
        assert.deepEqual(usageReport(turned, by, PRICING), usageReport(forward, by, PRICING));
    }),
  );
});

test("summing partials in place equals merging them pairwise, key order included, and leaves them unchanged", () => {
  const figures = fc.record({
    input: fc.nat(1e9),
    cachedInput: fc.nat(1e9),
    output: fc.nat(1e9),
    reasoning: fc.nat(1e9),
    total: fc.nat(1e9),
  });
  const models = fc.dictionary(fc.constantFrom("gpt-5", "o3", "unknown", "gpt-5.5", "Ä"), figures, { maxKeys: 3 });
  const time = fc.option(fc.integer({ min: 0, max: 4e12 }), { nil: null });
  const partial = fc.record({
    version: fc.constant(USAGE_VERSION),
    byDay: fc.dictionary(fc.constantFrom("2026-03-01", "2026-02-28", "undated", "2025-12-31"), models, { maxKeys: 3 }),
    bySession: fc.dictionary(
      fc.constantFrom("s1", "s2", "S1", "rollout-a", "é"),
      fc.record({ firstMs: time, lastMs: time, byModel: models }),
      {
        maxKeys: 3,
      },
    ),
    repeats: fc.nat(100),
    replayed: fc.nat(100),
  });
  // Every map of a partial is byte-ordered, as the fold writes it.
  const sorted = (p: UsagePartial): UsagePartial => ({
    ...p,
    byDay: sortedRecord(Object.entries(p.byDay).map(([d, m]) => [d, sortedRecord(Object.entries(m))])),
    bySession: sortedRecord(Object.entries(p.bySession).map(([n, x]) => [n, { ...x, byModel: sortedRecord(Object.entries(x.byModel)) }])),
  });
  fc.assert(
    fc.property(fc.array(partial.map(sorted), { maxLength: 10 }), (parts) => {
      const before = JSON.stringify(parts);
      const sum = new UsageSum();
      for (const p of parts) sum.add(p);
      const merged = parts.reduce(mergeUsage, emptyUsage());
      assert.equal(JSON.stringify(sum.result()), JSON.stringify(merged));
      assert.equal(JSON.stringify(parts), before, "the partials are not changed");
    }),
  );
  assert.throws(() => new UsageSum().add({ ...emptyUsage(), version: (USAGE_VERSION + 1) as typeof USAGE_VERSION }), RolloutError);
});

test("a malformed price list is refused naming the field", () => {
  const cases: [unknown, string][] = [
    [[], "pricing"],
    [{ as_of: "June", currency: "USD", models: {} }, "pricing.as_of"],
    [{ as_of: "2026-06-01", currency: "dollars", models: {} }, "pricing.currency"],
    [{ as_of: "2026-06-01", currency: "USD", models: { "gpt-5": { input: -1, output: 1 } } }, "pricing.models.gpt-5.input"],
    [{ as_of: "2026-06-01", currency: "USD", models: { "gpt-5": { input: 1, output: "ten" } } }, "pricing.models.gpt-5.output"],
  ];
  for (const [json, field] of cases) {
    assert.throws(
      () => parsePricing(json, "pricing"),
      (e: unknown) => e instanceof RolloutError && e.code === "INVALID_ARGUMENT" && e.field === field,
      field,
    );
  }
});
