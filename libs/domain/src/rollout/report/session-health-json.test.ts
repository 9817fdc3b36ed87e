import { test } from "node:test";
import assert from "node:assert/strict";
import type { SessionHealth } from "../health/session.js";
import { sessionHealthJson } from "./session-health-json.js";
import { ZERO_TOOL_CATEGORIES } from "../zero-tool.js";

const zeroTool = Object.fromEntries(ZERO_TOOL_CATEGORIES.map((c) => [c, 0])) as SessionHealth["zeroTool"];

test("session health JSON leaves out zero counts and an empty model, and sorts its token map", () => {
  const quiet: SessionHealth = {
    session: "s",
    model: "",
    turns: 2,
    toolCalls: 5,
    zeroTool,
    aborted: 0,
    superseded: 0,
    unterminated: 0,
    compactions: [],
  };
  const json = sessionHealthJson(quiet);
  assert.deepEqual(Object.keys(json), ["session", "turns", "tool_calls", "zero_tool"], "optional keys absent when zero");
  assert.deepEqual(Object.keys(json["zero_tool"] as object), [...ZERO_TOOL_CATEGORIES].sort(), "zero_tool keys sorted byte-wise");
});

test("session health JSON carries every non-zero count and the compaction readings", () => {
  const busy: SessionHealth = {
    session: "s",
    model: "m",
    turns: 4,
    toolCalls: 9,
    zeroTool,
    aborted: 1,
    superseded: 2,
    unterminated: 1,
    compactions: [0.9, 0.95],
  };
  const json = sessionHealthJson(busy);
  assert.deepEqual(
    [json["model"], json["aborted"], json["superseded"], json["unterminated"], json["compactions"]],
    ["m", 1, 2, 1, [0.9, 0.95]],
    "non-zero counts and readings kept",
  );
});
