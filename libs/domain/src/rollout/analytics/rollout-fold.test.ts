import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { RolloutCollector } from "../decode/collect.js";
import { linesOf, stepArb } from "../testing/arbitraries.js";
import { RolloutFold, type RolloutFoldOptions } from "./rollout-fold.js";
import type { FoldedRollout } from "./types.js";

// Lines decoded straight into the fold, as the streaming reader wires them: no record is kept.
function streamed(lines: readonly string[], options: RolloutFoldOptions, fresh: boolean): FoldedRollout {
  const fold = new RolloutFold(options);
  const collector = new RolloutCollector((r) => fold.push(r));
  for (const line of lines) collector.push(line);
  assert.equal(collector.result().records.length, 0, "records went to the fold, none were kept");
  return fold.finish({ meta: collector.census().meta, fresh });
}

test("property: listing limits and skipped samples cut only the lists; every call is still counted", () => {
  fc.assert(
    fc.property(fc.array(stepArb, { maxLength: 60 }), fc.integer({ min: 0, max: 5 }), fc.boolean(), (steps, cap, fresh) => {
      const lines = linesOf(steps);
      const full = streamed(lines, {}, fresh);
      const cut = streamed(lines, { maxListed: cap, postToolSamples: false }, fresh);
      const { outcomes, outcomesTruncated, postTool, ...rest } = cut.analytics;
      const { outcomes: allOutcomes, outcomesTruncated: never, postTool: allSpans, ...fullRest } = full.analytics;
      assert.deepEqual(rest, fullRest, "totals, tasks, lifecycle and detectors do not depend on the lists");
      assert.equal(never, false, "an unlimited fold lists every call");
      assert.deepEqual(outcomes, allOutcomes.slice(0, cap), "the listed outcomes are the first ones");
      assert.equal(outcomesTruncated, allOutcomes.length > cap, "truncated exactly when calls were left out");
      assert.deepEqual(postTool, allSpans.slice(0, cap), "the listed spans are the first ones");
      assert.equal(cut.postTool.spans, 0, "no post-tool samples were kept");
      assert.equal(full.postTool.spans, allSpans.length, "with samples, every span is summed");
    }),
    { numRuns: 200 },
  );
});
