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

test("a status phrase joined by underscores or hyphens is not missed, and a code split from its phrase by a colon or a line break is not counted", () => {
  assert.deepEqual(classifyStatusClasses("gateway said 503-service-unavailable"), ["http_5xx"], "hyphens");
  assert.deepEqual(classifyStatusClasses("proxy_error=504_gateway_timeout"), ["http_5xx"], "underscores");
  assert.deepEqual(classifyStatusClasses("retry on 502 BadGateway"), ["http_5xx"], "phrase words run together");
  assert.deepEqual(classifyStatusClasses("the metric status_5xx rose"), ["http_5xx"], "status and the class word");
  assert.deepEqual(classifyStatusClasses("got 400-Bad-Request twice"), ["http_400"], "400 phrase with hyphens");
  assert.deepEqual(classifyStatusClasses("a 400  bad request"), ["http_400"], "two spaces after the code");
  assert.deepEqual(classifyStatusClasses("see line 502: bad gateway handling was renamed"), [], "a colon after the code");
  assert.deepEqual(classifyStatusClasses("wrote 503\nService unavailable notes"), [], "a line break after the code");
  assert.deepEqual(classifyStatusClasses("ids 502bad gateway"), [], "no separator after the code");
});

test("a no-break or other Unicode space between status and its code does not make a status class", () => {
  // The reference's whitespace is tab, line feed, form feed, carriage return and space only.
  assert.deepEqual(classifyStatusClasses("status\u00a0503"), [], "no-break space");
  assert.deepEqual(classifyStatusClasses("status code\u2003429"), [], "em space");
  assert.deepEqual(classifyStatusClasses("status\u000b400"), [], "vertical tab");
  assert.deepEqual(classifyStatusClasses("status:\t\f\r\n 503"), ["http_5xx"], "ASCII whitespace still joins");
});
