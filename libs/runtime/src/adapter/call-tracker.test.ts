import { test } from "node:test";
import assert from "node:assert/strict";
import { CallTracker } from "./call-tracker.js";

test("a stream that starts after shutdown has aborted the open streams is aborted too, not left to hold the drain", () => {
  const tracker = new CallTracker();
  const stopping = new Error("stopping");
  tracker.abort(stopping, false);
  const stream = new AbortController();
  const unary = new AbortController();
  tracker.enter(stream, true);
  tracker.enter(unary, false);
  assert.equal(stream.signal.reason, stopping, "the late stream is aborted with the shutdown reason");
  assert.equal(unary.signal.aborted, false, "a late unary call may still drain");
  tracker.abort(stopping, true);
  const late = new AbortController();
  tracker.enter(late, false);
  assert.equal(late.signal.reason, stopping, "after the drain, every late call is aborted");
});
