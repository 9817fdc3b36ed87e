import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { collectRollout } from "../decode/collect.js";
import { callLine, completeLine, messageLine, metaLine, outputLine, startLine, turnContextLine, unifiedOutput } from "../testing/lines.js";
import { linesOf, stepArb, type Step } from "../testing/arbitraries.js";
import { emptyPartial, unreadablePartial } from "./empty.js";
import { mergeAll, mergePartials } from "./merge.js";
import { CorpusSum } from "./corpus-sum.js";
import { partialOfRollout } from "./partial.js";
import { PARTIAL_VERSION, type CorpusPartial } from "./types.js";
import { analyticsReport } from "../report/analytics-report.js";
import { healthReport } from "../report/health-report.js";
import { lifecycleReport } from "../report/lifecycle-report.js";
import { RolloutError } from "../errors.js";
import { reconcileReport } from "../report/reconcile-report.js";
import { errorClassReport } from "../report/error-class-report.js";
import { postToolReport } from "../report/post-tool-report.js";

const rolloutArb = fc.record({
  id: fc.constantFrom("r-a", "r-b", "r-c", "r-d"),
  provider: fc.constantFrom("openai", "fak", ""),
  exec: fc.boolean(),
  fresh: fc.boolean(),
  unreadable: fc.boolean(),
  steps: fc.array(stepArb, { maxLength: 30 }),
});

type GeneratedRollout = { id: string; provider: string; exec: boolean; fresh: boolean; unreadable: boolean; steps: Step[] };

function partialOf(r: GeneratedRollout): CorpusPartial {
  if (r.unreadable && r.steps.length % 5 === 0) return unreadablePartial(3);
  const meta = metaLine(r.id, {
    model_provider: r.provider,
    originator: r.exec ? "codex_exec" : "codex_cli_rs",
    source: r.exec ? "exec" : "cli",
  });
  const goal = JSON.stringify({
    timestamp: "2026-03-01T12:00:00Z",
    type: "response_item",
    payload: { type: "message", role: "user", content: [{ type: "input_text", text: '<codex_internal_context source="goal">' }] },
  });
  return partialOfRollout({ rollout: collectRollout([meta, goal, ...linesOf(r.steps)]), fresh: r.fresh, session: r.id, outlierKeep: 3 });
}

function reports(p: CorpusPartial): string {
  return JSON.stringify([
    lifecycleReport(p, { root: "/r" }),
    analyticsReport(p, { root: "/r", topN: 3 }),
    healthReport(p, { top: 2 }),
    reconcileReport(p, { root: "/r" }),
    errorClassReport(p, { root: "/r" }),
    postToolReport(p, { root: "/r" }),
  ]);
}

test("property: merging partials in any grouping and order equals one pass", () => {
  fc.assert(
    fc.property(
      fc.array(rolloutArb, { maxLength: 7 }),
      fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
      fc.nat(),
      (rollouts, order, cut) => {
        const partials = rollouts.map(partialOf);
        const onePass = mergeAll(partials);
        const shuffled = partials
          .map((p, i) => ({ p, k: order[i] ?? 0 }))
          .sort((a, b) => a.k - b.k)
          .map((x) => x.p);
        const at = partials.length === 0 ? 0 : cut % (partials.length + 1);
        const left = mergeAll(shuffled.slice(0, at), 3);
        const right = mergeAll(shuffled.slice(at), 3);
        const split = mergePartials(right, left);
        assert.equal(JSON.stringify(split), JSON.stringify(mergePartials(onePass, emptyPartial(3))), "split merge equals one pass");
        assert.equal(reports(split), reports(onePass), "reports equal");
        const viaJson = JSON.parse(JSON.stringify(left)) as CorpusPartial;
        assert.equal(
          JSON.stringify(mergePartials(viaJson, right)),
          JSON.stringify(mergePartials(left, right)),
          "partials survive a JSON round trip",
        );
      },
    ),
    { numRuns: 150 },
  );
});

test("property: merge is associative and commutative, with the empty partial as identity", () => {
  fc.assert(
    fc.property(rolloutArb, rolloutArb, rolloutArb, (x, y, z) => {
      const [a, b, c] = [partialOf(x), partialOf(y), partialOf(z)];
      const s = (p: CorpusPartial): string => JSON.stringify(p);
      assert.equal(s(mergePartials(a, b)), s(mergePartials(b, a)), "commutative");
      assert.equal(s(mergePartials(mergePartials(a, b), c)), s(mergePartials(a, mergePartials(b, c))), "associative");
      assert.equal(s(mergePartials(a, emptyPartial(3))), s(a), "identity");
    }),
    { numRuns: 150 },
  );
});

function summed(partials: readonly CorpusPartial[]): CorpusPartial {
  const sum = new CorpusSum();
  for (const p of partials) sum.add(p);
  return sum.result();
}

test("property: summing partials in place equals merging them pairwise, in any order", () => {
  fc.assert(
    fc.property(fc.array(rolloutArb, { maxLength: 12 }), fc.array(fc.nat(), { minLength: 12, maxLength: 12 }), (rollouts, order) => {
      const partials = rollouts.map(partialOf);
      const shuffled = partials
        .map((p, i) => ({ p, k: order[i] ?? 0 }))
        .sort((a, b) => a.k - b.k)
        .map((x) => x.p);
      const merged = JSON.stringify(mergeAll(partials));
      assert.equal(JSON.stringify(summed(shuffled)), merged, "in place equals pairwise");
      const viaJson = shuffled.map((p) => JSON.parse(JSON.stringify(p)) as CorpusPartial);
      assert.equal(JSON.stringify(summed(viaJson)), merged, "partials read back from JSON sum alike");
    }),
    { numRuns: 150 },
  );
});

test("a sum of many partials keeps the same outliers as pairwise merges, though it cuts them as it goes", () => {
  fc.assert(
    fc.property(fc.array(rolloutArb, { minLength: 30, maxLength: 60 }), (rollouts) => {
      const partials = rollouts.map(partialOf);
      const sum = new CorpusSum();
      let checked = 0;
      for (const p of partials) {
        sum.add(p);
        checked += 1;
        // A result taken midway is a copy: adding more afterwards does not change it.
        if (checked === 10) {
          const midway = sum.result();
          const before = JSON.stringify(midway);
          sum.add(p);
          assert.equal(JSON.stringify(midway), before, "a result is not changed by later adds");
          sum.add(emptyPartial(3));
        }
      }
      const expected = mergeAll([...partials, partials[9] as CorpusPartial, emptyPartial(3)]);
      assert.equal(JSON.stringify(sum.result()), JSON.stringify(expected));
    }),
    { numRuns: 20 },
  );
});

test("a sum of no partials is the empty partial, and a sum refuses a partial of another format version", () => {
  assert.deepEqual(new CorpusSum().result(), emptyPartial());
  const foreign = { ...emptyPartial(), version: PARTIAL_VERSION + 1 } as unknown as CorpusPartial;
  assert.throws(
    () => new CorpusSum().add(foreign),
    (e: unknown) => e instanceof RolloutError && e.code === "PARTIAL_VERSION_MISMATCH" && e.field === "partials",
  );
});

test("merging refuses a partial of another format version", () => {
  const foreign = { ...emptyPartial(), version: PARTIAL_VERSION + 1 } as unknown as CorpusPartial;
  assert.throws(
    () => mergePartials(emptyPartial(), foreign),
    (e: unknown) =>
      e instanceof RolloutError && e.code === "PARTIAL_VERSION_MISMATCH" && e.field === "right" && e.message.startsWith("rollout: "),
    "version mismatch",
  );
});

test("health rows that tie on their ranking keys still merge in one order whatever the grouping", () => {
  // Two uploads of one file name (a rollout re-sent after it grew) rank equal on counts and session.
  const rollout = (model: string, callsPerTurn: number): CorpusPartial => {
    const lines = [metaLine("same"), turnContextLine(0, model)];
    for (let t = 0; t < 6; t += 1) {
      const base = t * 10;
      lines.push(startLine(base, `t${t}`));
      if (t < 3)
        for (let c = 0; c < callsPerTurn; c += 1)
          lines.push(callLine(base + 1, `c${t}-${c}`, "exec_command", { cmd: "ls" }), outputLine(base + 2, `c${t}-${c}`, unifiedOutput(0)));
      lines.push(
        messageLine(base + 3, t < 3 ? "done" : "The proposed tool call was refused by the fak kernel"),
        completeLine(base + 4, `t${t}`),
      );
    }
    return partialOfRollout({ rollout: collectRollout(lines), fresh: false, session: "same", outlierKeep: 3 });
  };
  const a = rollout("gpt-a", 1);
  const b = rollout("gpt-b", 2);
  assert.equal(a.health.inflation.length + a.health.refusalLoops.length, 2, "both lists hold the row");
  assert.equal(JSON.stringify(mergePartials(a, b)), JSON.stringify(mergePartials(b, a)), "commutative");
  assert.equal(JSON.stringify(healthReport(mergePartials(a, b))), JSON.stringify(healthReport(mergePartials(b, a))), "reports equal");
});
