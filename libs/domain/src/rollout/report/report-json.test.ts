import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROLLOUTS_DIR, SKIP_REAL } from "@crs/runtime/testing";
import { collectRollout } from "../decode/collect.js";
import { mergeAll } from "../corpus/merge.js";
import { partialOfRollout } from "../corpus/partial.js";
import { analyticsReport } from "./analytics-report.js";
import { errorClassReport } from "./error-class-report.js";
import { healthReport } from "./health-report.js";
import { lifecycleReport } from "./lifecycle-report.js";
import { postToolReport } from "./post-tool-report.js";
import { reconcileReport } from "./reconcile-report.js";
import { reportJson } from "./report-json.js";

test("a map keyed by numerals prints '10' before '9' as the reference's sorted keys do, not numerals first", () => {
  const report = {
    schema: "s",
    payload_types: Object.fromEntries([
      ["10", 1],
      ["9", 2],
      ["a", 3],
    ]),
    n: 1,
  };
  assert.deepEqual(Object.keys(report.payload_types), ["9", "10", "a"], "JavaScript enumerates numerals first");
  assert.equal(reportJson(report), '{"schema":"s","payload_types":{"10":1,"9":2,"a":3},"n":1}');
  assert.equal(
    reportJson({ by_tool: { "9": { calls: 1 }, "10": { calls: 2 } } }, 2),
    '{\n  "by_tool": {\n    "10": {\n      "calls": 2\n    },\n    "9": {\n      "calls": 1\n    }\n  }\n}',
  );
});

test("report JSON keeps JSON.stringify's layout: empty lists and maps, absent fields, nulls, exact bigints", () => {
  const value = { a: [], b: {}, c: undefined, d: [undefined, null, 1.5], e: 'x\n"y\u00e9\u{1f600}', f: true };
  for (const indent of [0, 2]) assert.equal(reportJson(value, indent), JSON.stringify(value, null, indent), `indent ${indent}`);
  assert.equal(reportJson({ bytes: 2n ** 63n - 1n }), '{"bytes":9223372036854775807}');
});

test("a name with <, >, & or a line separator is written as a \\u escape, as the reference's Go encoder writes it, not as itself", () => {
  const text = reportJson({ root: "/srv/a&b", by_tool: { "<x>": 1 }, reason: "line\u2028para\u2029" });
  assert.equal(text, '{"root":"/srv/a\\u0026b","by_tool":{"\\u003cx\\u003e":1},"reason":"line\\u2028para\\u2029"}');
  assert.deepEqual(
    JSON.parse(text),
    { root: "/srv/a&b", by_tool: { "<x>": 1 }, reason: "line\u2028para\u2029" },
    "the same text to any reader",
  );
});

test("every report of the real rollouts prints byte for byte as JSON.stringify prints it", { skip: SKIP_REAL }, () => {
  const names = readdirSync(ROLLOUTS_DIR).filter((n) => n.endsWith(".jsonl"));
  const partial = mergeAll(
    names.map((n) =>
      partialOfRollout({
        rollout: collectRollout(readFileSync(join(ROLLOUTS_DIR, n), "utf8").split("\n")),
        fresh: false,
        session: n.replace(/\.jsonl$/, ""),
      }),
    ),
  );
  const root = ROLLOUTS_DIR;
  const reports = {
    lifecycle: lifecycleReport(partial, { root }),
    analytics: analyticsReport(partial, { root, topN: 10 }),
    health: healthReport(partial, { top: 10 }),
    reconcile: reconcileReport(partial, { root }),
    errors: errorClassReport(partial, { root }),
    posttool: postToolReport(partial, { root }),
  };
  assert.equal(reportJson(reports, 2), JSON.stringify(reports, null, 2));
});
