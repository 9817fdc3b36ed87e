import { freeformCallHead, functionCallHead, localShellHead, type CallHead } from "../command-head.js";
import { decodeEnvelope } from "../envelope.js";
import { boundedStringify } from "./depth.js";
import { firstNonBlank, isObject, str, trimmed, type JsonObject } from "../json.js";
import type { CallPayloadKind, DecodedLine, RolloutRecord } from "./record.js";

/** Response-item types that may appear bare in the legacy layout. */
export const RESPONSE_ITEM_TYPES = new Set([
  "message",
  "reasoning",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "local_shell_call",
  "web_search_call",
]);

const GOAL_MARKER = '<codex_internal_context source="goal">';

// Text the producer injects as user-role items (instructions, environment, notices); such an
// item is context, not the user speaking.
const CONTEXT_PREFIXES = [
  "<environment_context",
  "<user_instructions",
  "# agents.md instructions",
  "<user_shell_command",
  "<turn_aborted",
  "<subagent_notification",
  "<codex_internal_context",
  "<permissions instructions",
  "<collaboration_mode",
  "<skill",
];

function ok(record: RolloutRecord): DecodedLine {
  return { ok: true, record };
}

/** Text of an output: the string itself, the texts of a content array, else the raw JSON. */
export function outputText(output: unknown): string {
  if (output === undefined || output === null) return "";
  if (typeof output === "string") return output;
  if (Array.isArray(output)) {
    const texts = output
      .filter(isObject)
      .map((item) => item["text"])
      .filter((t): t is string => typeof t === "string");
    if (texts.length > 0) return texts.join("\n");
  }
  // Nesting too deep to rebuild says nothing an envelope could read.
  return boundedStringify(output) ?? "";
}

function isGoalContinuation(payload: JsonObject): boolean {
  const content = payload["content"];
  if (!Array.isArray(content)) return false;
  return content.some((c) => isObject(c) && c["type"] === "input_text" && str(c, "text").includes(GOAL_MARKER));
}

function firstText(payload: JsonObject): string | null {
  const content = payload["content"];
  if (!Array.isArray(content)) return null;
  for (const c of content) if (isObject(c) && typeof c["text"] === "string") return c["text"];
  return null;
}

// Only the first characters are compared; the text itself never leaves this function.
function isUserSpeaking(payload: JsonObject): boolean {
  const text = firstText(payload);
  if (text === null) return false;
  const head = text.trimStart().slice(0, 40).toLowerCase();
  return head !== "" && !CONTEXT_PREFIXES.some((p) => head.startsWith(p));
}

function call(
  payload: JsonObject,
  timestamp: string,
  tsMs: number | null,
  payloadKind: CallPayloadKind,
  tool: string,
  head: CallHead,
): DecodedLine {
  const callId = firstNonBlank(payload, "call_id", "id");
  return ok({
    kind: "tool_call",
    payloadKind,
    callId,
    tool,
    head: head.head,
    targets: head.targets,
    stdinPoll: head.stdinPoll,
    timestamp,
    tsMs,
  });
}

function functionArgs(payload: JsonObject): string {
  const args = payload["arguments"];
  // Arguments are a JSON-encoded string; tolerate writers that inline the object.
  if (isObject(args)) return boundedStringify(args) ?? "";
  return firstNonBlank(payload, "arguments", "input");
}

/** Decodes a response_item payload, stamped with its line's time, into a record or a skip reason. */
export function decodeResponseItem(payload: JsonObject, timestamp: string, tsMs: number | null): DecodedLine {
  switch (payload["type"]) {
    case "message": {
      const role = str(payload, "role");
      if (role === "assistant") return ok({ kind: "model_output", timestamp, tsMs });
      if (role === "user" && isGoalContinuation(payload)) return ok({ kind: "goal_continuation", timestamp, tsMs });
      if (role === "user" && isUserSpeaking(payload)) return ok({ kind: "user_message", source: "item", timestamp, tsMs });
      return { ok: false, skip: "not_analysed" };
    }
    case "reasoning":
      return ok({ kind: "model_output", timestamp, tsMs });
    case "function_call": {
      const tool = trimmed(payload, "name");
      return call(payload, timestamp, tsMs, "function_call", tool, functionCallHead(tool, functionArgs(payload)));
    }
    case "custom_tool_call": {
      const tool = trimmed(payload, "name");
      return call(payload, timestamp, tsMs, "custom_tool_call", tool, freeformCallHead(tool, str(payload, "input")));
    }
    case "local_shell_call":
      return call(payload, timestamp, tsMs, "local_shell_call", "local_shell", localShellHead(payload["action"]));
    case "function_call_output":
    case "custom_tool_call_output": {
      const callId = firstNonBlank(payload, "call_id", "id");
      return ok({
        kind: "tool_output",
        callId,
        envelope: decodeEnvelope(outputText(payload["output"])),
        timestamp,
        tsMs,
      });
    }
    default:
      return { ok: false, skip: "not_analysed" };
  }
}
