import { encodeMessage, limitExceeded } from "@crs/runtime";
import { ChangeSchema } from "@crs/contracts/gen/crs/state/v1/delta_pb";
import { affectedNodes, deltaSource, deltaToJson, type Delta } from "@crs/domain/state";
import { changeOut } from "./change-mapper.js";

/**
 * Bytes a response serving one change alone needs besides it: the header (a 128-character project
 * id, a 32-character uid, a generation, the replayed flag), a next page token (about 150 bytes)
 * and the framing of each field, rounded up.
 */
export const CHANGE_RESPONSE_RESERVE_BYTES = 1024;

/**
 * Refuses a delta whose change record would not fit a response under `maxMessageBytes`: the
 * record adds the touched node ids to the delta, so it can pass the limit the request itself
 * stayed under, and no history page, GetChange or watch could ever serve it. Measured on the
 * record as the history RPCs send it, with the largest generation and time it could carry.
 */
export function requireChangeFits(
  delta: Delta,
  origin: { readonly sessionId: string; readonly label: string; readonly metadata: Readonly<Record<string, string>> },
  maxMessageBytes: number,
): void {
  const change = changeOut(
    {
      id: "",
      generation: Number.MAX_SAFE_INTEGER,
      at: Number.MAX_SAFE_INTEGER,
      kind: delta.kind,
      changeKind: "delta_applied",
      source: deltaSource(delta),
      ...origin,
      affectedNodes: affectedNodes(delta),
      delta: deltaToJson(delta),
    },
    false,
  );
  const bytes = encodeMessage(ChangeSchema, change).byteLength;
  const limit = maxMessageBytes - CHANGE_RESPONSE_RESERVE_BYTES;
  if (bytes > limit) {
    throw limitExceeded(
      "delta",
      limit,
      `its change record would take ${bytes} bytes, more than the ${limit} a history answer under the server's message limit of ${maxMessageBytes} bytes can carry`,
    );
  }
}
