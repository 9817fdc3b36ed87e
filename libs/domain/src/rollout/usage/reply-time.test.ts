// Which day a reply falls on, and a session's first and last times, from the line's timestamp.
import assert from "node:assert/strict";
import { test } from "node:test";
import { contextLine, records, tokenLine, u } from "../testing/usage-lines.js";
import { usageOfRecords } from "./fold.js";
import { parsePricing } from "./pricing.js";
import { usageReport } from "./report.js";

const PRICING = parsePricing({ as_of: "2026-06-01", currency: "USD", models: {} }, "pricing");
const reply = (ts: string, n: number): string => tokenLine(ts, u(100 * n, 0, 10 * n), u(100, 0, 10));

test("a reply's day is its instant in UTC whatever offset it is written with, and a session's last reply is the latest instant, not the largest text", () => {
  const lines = [
    contextLine("2026-03-01T10:00:00Z", "gpt-5"),
    // 23:30 UTC on March 1, written as 01:30 the next day at +02:00.
    reply("2026-03-02T01:30:00+02:00", 1),
    // 01:30 UTC on March 2: the later reply, though its text sorts first.
    reply("2026-03-01T23:30:00-02:00", 2),
  ];
  const usage = usageOfRecords(records(lines), "s");
  assert.deepEqual(Object.keys(usage.byDay), ["2026-03-01", "2026-03-02"]);
  const [row] = usageReport(usage, "session", PRICING).rows;
  assert.deepEqual([row?.first_at, row?.last_at], ["2026-03-01T23:30:00.000Z", "2026-03-02T01:30:00.000Z"]);
});

test("a reply dated in any RFC 3339 form counts on its day, and one whose time is other text counts as undated, where ccusage stops the whole report", () => {
  const dated = ["2026-03-01T10:00:00.5Z", "2026-03-01T10:00:00.123456789Z", "2026-03-01T10:00:00,5Z"];
  const undated = [
    "2026-03-01T10:00:00",
    "2026-03-01 10:00:00Z",
    " 2026-03-01T10:00:00Z ",
    "2026-03-01",
    "2026-02-30T10:00:00Z",
    "yesterday",
  ];
  for (const ts of [...dated, ...undated]) {
    const usage = usageOfRecords(records([reply(ts, 1)]), "s");
    assert.deepEqual(Object.keys(usage.byDay), [dated.includes(ts) ? "2026-03-01" : "undated"], ts);
    assert.equal(usage.bySession["s"]?.byModel["unknown"]?.input, 100, `${ts}: counted`);
  }
  // A number is no timestamp here (ccusage reads it as Unix seconds or milliseconds).
  const numeric = JSON.stringify({ ...JSON.parse(reply("x", 1)), timestamp: 1772359200 });
  assert.deepEqual(Object.keys(usageOfRecords(records([numeric]), "s").byDay), ["undated"]);
});
