import { test } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { ErrorReasonSchema } from "@crs/contracts/gen/crs/analytics/v1/errors_pb";
import { RUNTIME_REASONS } from "@crs/runtime";
import { RolloutError } from "@crs/domain/rollout";
import { AnalyticsError } from "../errors.js";
import { mapError, reasons, STATUS_OF, type AnalyticsFailureCode } from "./status-map.js";

// Wire reasons are value names of crs.analytics.v1.ErrorReason without their prefix.
const enumNames = new Set(ErrorReasonSchema.values.filter((v) => v.number !== 0).map((v) => v.name.replace(/^ERROR_REASON_/, "")));

test("sends no reason that is not a value of crs.analytics.v1.ErrorReason", () => {
  const codes = Object.keys(STATUS_OF) as AnalyticsFailureCode[];
  const sent = [
    // Each code as whichever error carries it; both classes go through the same table.
    ...codes.map((code) => mapError(new AnalyticsError(code as never, "x"))?.reason),
    ...codes.map((code) => mapError(new RolloutError(code as never, "x"))?.reason),
    ...RUNTIME_REASONS.map((reason) => reasons.runtime(reason)),
  ];
  for (const reason of sent) assert.ok(reason !== undefined && enumNames.has(reason), `${String(reason)} is an ErrorReason value name`);
});

test("a rollout-fold code reaches the client as its ErrorReason value with the table's code", () => {
  const mapped = mapError(new RolloutError("PARTIAL_VERSION_MISMATCH", "partials of two versions", { field: "partials" }));
  assert.deepEqual(
    [mapped?.code, mapped?.reason, mapped?.metadata["field"]],
    [status.FAILED_PRECONDITION, "PARTIAL_VERSION_MISMATCH", "partials"],
    "mapped",
  );
  assert.equal(reasons.runtime("SHUTTING_DOWN"), "SHUTTING_DOWN", "shutdown is ERROR_REASON_SHUTTING_DOWN");
});
