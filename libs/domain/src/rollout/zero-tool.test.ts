import { test } from "node:test";
import assert from "node:assert/strict";
import { classifyZeroTool } from "./zero-tool.js";

test("zero-tool categories follow refusal, preamble, talk, silence", () => {
  for (const m of [
    "Refused by the FAK kernel",
    "needs require_witness",
    "policy_block hit",
    "calls were refused",
    "the proposed tool call",
  ]) {
    assert.equal(classifyZeroTool(m), "guard_refused", m);
  }
  assert.equal(classifyZeroTool("I'll use the review skill"), "preamble_noop", "ascii apostrophe");
  assert.equal(classifyZeroTool("I\u2019ll use the skill now"), "preamble_noop", "typographic apostrophe");
  assert.equal(classifyZeroTool("Using the `x` skill"), "preamble_noop", "using the backtick");
  assert.equal(classifyZeroTool("I'll use the hammer"), "talk_only", "no skill word");
  assert.equal(classifyZeroTool("Here is the answer"), "talk_only", "talk");
  assert.equal(classifyZeroTool("  \n"), "silent", "blank");
});
