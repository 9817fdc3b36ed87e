import { encodeMessage, limitExceeded } from "@crs/runtime";
import { ChangeSchema } from "@crs/contracts/gen/crs/state/v1/delta_pb";
import { affectedNodes, deltaSource, deltaToJson, type Delta, type DeltaRecord } from "@crs/domain/state";
import { CrsStateError } from "../errors.js";
import { changeOut } from "./change-mapper.js";

/**
 * Bytes a response serving one change alone needs besides it: the header (a 128-character project
 * id, a 32-character uid, a generation, the replayed flag), a next page token (about 150 bytes)
 * and the framing of each field, rounded up.
 */
export const CHANGE_RESPONSE_RESERVE_BYTES = 1024;

/** The most bytes one change record may take so that a response under `maxMessageBytes` serves it. */
export function changeRecordLimit(maxMessageBytes: number): number {
  return maxMessageBytes - CHANGE_RESPONSE_RESERVE_BYTES;
}

/**
 * Bytes of `record` as the history RPCs send it in full, with the largest generation and time it
 * could carry (so a record measured before it is stamped is not measured short).
 */
function changeRecordBytes(record: DeltaRecord): number {
  const widest = { ...record, id: "", generation: Number.MAX_SAFE_INTEGER, at: Number.MAX_SAFE_INTEGER };
  return encodeMessage(ChangeSchema, changeOut(widest, false)).byteLength;
}

/**
 * Refuses a delta whose change record would not fit a response under `maxMessageBytes`: the
 * record adds the touched node ids to the delta, so it can pass the limit the request itself
 * stayed under, and no history page, GetChange or watch could ever serve it.
 */
export function requireChangeFits(
  delta: Delta,
  origin: { readonly sessionId: string; readonly label: string; readonly metadata: Readonly<Record<string, string>> },
  maxMessageBytes: number,
): void {
  const bytes = changeRecordBytes({
    id: "",
    generation: 0,
    at: 0,
    kind: delta.kind,
    changeKind: "delta_applied",
    source: deltaSource(delta),
    ...origin,
    affectedNodes: affectedNodes(delta),
    delta: deltaToJson(delta),
  });
  const limit = changeRecordLimit(maxMessageBytes);
  if (bytes > limit) {
    throw limitExceeded(
      "delta",
      limit,
      `its change record would take ${bytes} bytes, more than the ${limit} a history answer under the server's message limit of ${maxMessageBytes} bytes can carry`,
    );
  }
}

/**
 * An admission check for the change record a detected decision cycle writes (its disproofs, one
 * per state of the loop, so it grows with the loop): CHANGE_TOO_LARGE naming `field` when it would
 * not fit a response under `maxMessageBytes`, raised before the engine changes anything.
 */
export function cycleRecordAdmission(maxMessageBytes: number, field: string): (record: DeltaRecord) => void {
  const limit = changeRecordLimit(maxMessageBytes);
  return (record) => {
    const bytes = changeRecordBytes(record);
    if (bytes <= limit) return;
    throw new CrsStateError(
      "CHANGE_TOO_LARGE",
      `the loop this key closes would write a change record of ${bytes} bytes, more than the ${limit} a history answer under the server's message limit of ${maxMessageBytes} bytes can carry; nothing changed (reset the detector or give it a smaller max_history)`,
      { field, limit: String(limit) },
    );
  };
}
