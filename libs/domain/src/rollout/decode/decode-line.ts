import { isObject, str, trimmed, type JsonObject } from "../json.js";
import { parseTimestamp } from "../time.js";
import { decodeEvent } from "./event.js";
import { readLineHead } from "./head.js";
import { metaFromPayload } from "./meta.js";
import type { DecodedLine } from "./record.js";
import { decodeResponseItem, RESPONSE_ITEM_TYPES } from "./response-item.js";
import { readTokenLine } from "../usage/token-line.js";

const IGNORED_TYPES = new Set(["world_state", "inter_agent_communication", "inter_agent_communication_metadata"]);
const WRAPPED_TYPES = new Set(["session_meta", "event_msg", "response_item", "compacted", "turn_context"]);

// Pre-wrapper rollouts: a bare SessionMeta first, then bare response items and state markers.
function decodeLegacy(line: JsonObject): DecodedLine {
  const type = line["type"];
  if (typeof type === "string" && RESPONSE_ITEM_TYPES.has(type)) return decodeResponseItem(line, "", null);
  if ("record_type" in line) return { ok: false, skip: "not_analysed" };
  if (type === undefined && trimmed(line, "id") !== "") {
    // The bare meta's own timestamp is the session start, not a line time.
    return { ok: true, record: { kind: "session_meta", meta: metaFromPayload(line), timestamp: "", tsMs: null } };
  }
  return { ok: false, skip: "unknown_type" };
}

/** Decodes one rollout line into a body-free record, or says why it was skipped. */
export function decodeLine(text: string): DecodedLine {
  // A token_count in the producer's layout is read without parsing: the same record, cheaper.
  const token = readTokenLine(text);
  if (token === undefined) return decodeLineByParse(text);
  const { usage, timestamp, tsMs } = token;
  return { ok: true, record: { kind: "token_count", inputTokens: usage?.last?.input ?? 0, usage, model: "", timestamp, tsMs } };
}

/** {@link decodeLine} by parsing the whole line, whatever its layout. */
export function decodeLineByParse(text: string): DecodedLine {
  const trimmedText = text.trim();
  if (trimmedText === "") return { ok: false, skip: "blank" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmedText);
  } catch {
    return { ok: false, skip: "not_json" };
  }
  return decodeValue(parsed);
}

/**
 * Decodes a line longer than the reader holds from its leading text alone: the record its
 * first members name (fields past the cut read as absent), or `too_long` when they name none.
 */
export function decodeOversizedLine(prefix: string): DecodedLine {
  const head = readLineHead(prefix);
  if (head === null) return { ok: false, skip: "too_long" };
  const decoded = decodeValue(head);
  return decoded.ok || decoded.skip === "not_analysed" ? decoded : { ok: false, skip: "too_long" };
}

/** Decodes one parsed line; nesting too deep to walk is a typed skip, never a thrown error. */
export function decodeValue(parsed: unknown): DecodedLine {
  try {
    return decodeObject(parsed);
  } catch (e) {
    // Stack exhaustion on a pathological value costs this line only.
    if (e instanceof RangeError) return { ok: false, skip: "too_deep" };
    throw e;
  }
}

function decodeObject(parsed: unknown): DecodedLine {
  if (!isObject(parsed)) return { ok: false, skip: "not_object" };
  const type = str(parsed, "type");
  if (!("payload" in parsed) && !WRAPPED_TYPES.has(type)) return decodeLegacy(parsed);
  const payload = parsed["payload"];
  if (!isObject(payload)) return { ok: false, skip: "missing_payload" };
  // The line's time goes on as two values: an object to carry them would cost one per line.
  const timestamp = str(parsed, "timestamp");
  const tsMs = timestamp === "" ? null : parseTimestamp(timestamp);
  switch (type) {
    case "session_meta":
      return { ok: true, record: { kind: "session_meta", meta: metaFromPayload(payload), timestamp, tsMs } };
    case "event_msg":
      return decodeEvent(payload, timestamp, tsMs);
    case "response_item":
      return decodeResponseItem(payload, timestamp, tsMs);
    case "compacted":
      return { ok: true, record: { kind: "compacted", timestamp, tsMs } };
    case "turn_context":
      return {
        ok: true,
        record: {
          kind: "turn_context",
          turnId: trimmed(payload, "turn_id"),
          model: trimmed(payload, "model"),
          timestamp,
          tsMs,
        },
      };
    default:
      return { ok: false, skip: IGNORED_TYPES.has(type) ? "not_analysed" : "unknown_type" };
  }
}
