import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorReasonSchema } from "@crs/contracts/gen/crs/state/v1/errors_pb";
import { RUNTIME_REASONS, errorDetailOf, toServiceError } from "@crs/runtime";
import { STATE_ERROR_CODES, StateError } from "@crs/domain/state";
import { CrsStateError } from "../errors.js";
import { mapError, reasons, STATUS_OF, STORE_RETRY_DELAY_MS, type CrsStateFailureCode } from "./status-map.js";

// Wire reasons are value names of crs.state.v1.ErrorReason without their prefix.
const enumNames = new Set(ErrorReasonSchema.values.filter((v) => v.number !== 0).map((v) => v.name.replace(/^ERROR_REASON_/, "")));

test("sends no reason that is not a value of crs.state.v1.ErrorReason", () => {
  const codes = Object.keys(STATUS_OF) as CrsStateFailureCode[];
  const sent = [
    // Each code as whichever error carries it; both classes go through the same table.
    ...codes.map((code) => mapError(new StateError(code as never, "x"))?.reason),
    ...codes.map((code) => mapError(new CrsStateError(code as never, "x"))?.reason),
    ...RUNTIME_REASONS.map((reason) => reasons.runtime(reason)),
  ];
  for (const reason of sent) assert.ok(reason !== undefined && enumNames.has(reason), `${String(reason)} is an ErrorReason value name`);
  for (const code of STATE_ERROR_CODES) assert.ok(code in STATUS_OF, `engine code ${code} has a row`);
});

test("sends the proto's names for engine codes whose own names differ", () => {
  const reasonOf = (code: (typeof STATE_ERROR_CODES)[number]) => mapError(new StateError(code, "x", { field: "delta" }));
  assert.deepEqual(
    [reasonOf("INVALID_DELTA")?.reason, reasonOf("HARD_SIGNAL_VIOLATION")?.reason, reasonOf("INDEX_ENTRY_NOT_FOUND")?.reason],
    ["DELTA_VALIDATION", "HARD_SOFT_BOUNDARY", "INDEX_NOT_FOUND"],
    "the enum's names, not the engine's",
  );
  assert.equal(reasonOf("INVALID_DELTA")?.metadata["field"], "delta", "the field at fault travels with it");
  assert.equal(reasons.runtime("SHUTTING_DOWN"), "SERVER_SHUTTING_DOWN", "shutdown is ERROR_REASON_SERVER_SHUTTING_DOWN");
});

test("names ErrorInfo metadata keys in snake_case, as errors.proto does", () => {
  const mapped = mapError(new CrsStateError("CHECKPOINT_NOT_FOUND", "x", { projectId: "p", checkpointId: "c", field: "checkpoint_id" }));
  assert.deepEqual(mapped?.metadata, { project_id: "p", checkpoint_id: "c", field: "checkpoint_id" });
  const engine = mapError(new StateError("GENERATION_MISMATCH", "x", { metadata: { expectedGeneration: "3", current_generation: "4" } }));
  assert.deepEqual(engine?.metadata, { expected_generation: "3", current_generation: "4" });
});

test("suggests a retry delay (google.rpc.RetryInfo) only where retrying unchanged can succeed", () => {
  const unavailable = mapError(new CrsStateError("STORE_UNAVAILABLE", "disk full"));
  assert.equal(unavailable?.retryDelayMs, STORE_RETRY_DELAY_MS, "a store that cannot write is retried later");
  assert.equal(
    mapError(new StateError("GENERATION_MISMATCH", "x"))?.retryDelayMs,
    undefined,
    "a stale read must be re-read, not retried as is",
  );
  const wire = toServiceError({
    code: unavailable?.code ?? 0,
    message: "m",
    reason: "STORE_UNAVAILABLE",
    domain: "crs.state.v1",
    metadata: {},
    retryDelayMs: 1500,
  });
  assert.equal(errorDetailOf(wire)?.retryDelayMs, 1500, "RetryInfo travels in grpc-status-details-bin beside ErrorInfo");
});
