import { classifyStatusClasses } from "../error-class.js";
import { classifyZeroTool } from "../zero-tool.js";
import { int, obj, str, trimmed, type JsonObject } from "../json.js";
import { affectsTurnStatus, classifyTurnError } from "../turn-error.js";
import { tokenCountModel, tokenCountUsage } from "../usage/figures.js";
import type { DecodedLine, RolloutRecord } from "./record.js";

function ok(record: RolloutRecord): DecodedLine {
  return { ok: true, record };
}

// A producer's elapsed milliseconds: a negative figure is no elapsed time and one past the exact
// integers is no real one (nor fits the int64 every report carries), so both read as absent and
// the task is timed by its timestamps instead; `-0` from a truncated fraction is 0.
function elapsedMs(payload: JsonObject, key: string): number | null {
  const v = int(payload, key);
  return v === null || v < 0 || !Number.isSafeInteger(v) ? null : v + 0;
}

function lastInputTokens(payload: JsonObject): number {
  const last = obj(payload, "info") === null ? null : obj(obj(payload, "info") ?? {}, "last_token_usage");
  const v = last === null ? null : int(last, "input_tokens");
  return v !== null && v > 0 ? v : 0;
}

/** Decodes an event_msg payload, stamped with its line's time; upstream's `turn_*` aliases read as the `task_*` kinds. */
export function decodeEvent(payload: JsonObject, timestamp: string, tsMs: number | null): DecodedLine {
  const type = str(payload, "type");
  switch (type) {
    case "task_started":
    case "turn_started":
      return ok({
        kind: "task_started",
        turnId: trimmed(payload, "turn_id"),
        alias: type === "turn_started",
        timestamp,
        tsMs,
      });
    case "task_complete":
    case "turn_complete":
      return ok({
        kind: "task_complete",
        turnId: trimmed(payload, "turn_id"),
        alias: type === "turn_complete",
        reason: str(payload, "reason"),
        durationMs: elapsedMs(payload, "duration_ms"),
        ttftMs: elapsedMs(payload, "time_to_first_token_ms"),
        statusClasses: classifyStatusClasses(str(payload, "last_agent_message")),
        timestamp,
        tsMs,
      });
    case "turn_aborted":
      return ok({
        kind: "turn_aborted",
        turnId: trimmed(payload, "turn_id"),
        reason: str(payload, "reason"),
        durationMs: elapsedMs(payload, "duration_ms"),
        timestamp,
        tsMs,
      });
    case "token_count":
      return ok({
        kind: "token_count",
        inputTokens: lastInputTokens(payload),
        usage: tokenCountUsage(payload),
        model: tokenCountModel(payload),
        timestamp,
        tsMs,
      });
    case "agent_message":
      // The message text is reduced to its zero-tool category here and dropped.
      return ok({
        kind: "agent_message",
        phase: trimmed(payload, "phase"),
        category: classifyZeroTool(str(payload, "message")),
        timestamp,
        tsMs,
      });
    case "user_message":
      // Only the fact that the user spoke is kept; the text is never read.
      return ok({ kind: "user_message", source: "event", timestamp, tsMs });
    case "error": {
      const errorClass = classifyTurnError(payload["codex_error_info"]);
      return ok({
        kind: "turn_error",
        errorClass,
        affectsTurn: affectsTurnStatus(errorClass),
        timestamp,
        tsMs,
      });
    }
    case "thread_rolled_back":
      return ok({
        kind: "thread_rolled_back",
        numTurns: Math.max(0, int(payload, "num_turns") ?? 0),
        timestamp,
        tsMs,
      });
    default:
      return ok({ kind: "event", payloadType: type, timestamp, tsMs });
  }
}
