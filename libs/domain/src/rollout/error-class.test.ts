import { test } from "node:test";
import assert from "node:assert/strict";
import { classifyAbort, classifyStatusClasses } from "./error-class.js";

test("abort classes: other recorded reason, torn tail, interrupted, unrecorded", () => {
  assert.equal(classifyAbort(" Replaced ", true), "other_recorded", "recorded reason wins");
  assert.equal(classifyAbort("budget_limited", false), "other_recorded", "budget");
  assert.equal(classifyAbort("interrupted", true), "process_death_tail", "torn tail");
  assert.equal(classifyAbort("", true), "process_death_tail", "torn tail, no reason");
  assert.equal(classifyAbort("INTERRUPTED", false), "interrupted", "interrupted");
  assert.equal(classifyAbort("", false), "unrecorded", "nothing recorded");
});

test("status classes are anchored on codes next to http or status", () => {
  assert.deepEqual(classifyStatusClasses("upstream returned HTTP 503"), ["http_5xx"], "http 503");
  assert.deepEqual(classifyStatusClasses("status code: 502 then http_429"), ["http_5xx", "http_429"], "fixed order");
  assert.deepEqual(classifyStatusClasses("a 5xx storm"), ["http_5xx"], "jargon word");
  assert.deepEqual(classifyStatusClasses("504 Gateway Timeout"), ["http_5xx"], "code and phrase");
  assert.deepEqual(classifyStatusClasses("400 Bad Request and status=400"), ["http_400"], "no duplicates");
  assert.deepEqual(classifyStatusClasses("edited 503 lines on port 429"), [], "bare numbers never match");
  assert.deepEqual(classifyStatusClasses(""), [], "empty");
});
