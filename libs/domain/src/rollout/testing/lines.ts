// Test and benchmark support only: never exported from the package entry point.
// Builders of synthetic rollout lines for the tests and the benchmark.

const BASE_MS = Date.UTC(2026, 2, 1, 12, 0, 0);

/** Timestamp text `s` seconds after a fixed base. */
export function at(s: number): string {
  return new Date(BASE_MS + Math.round(s * 1000)).toISOString();
}

function line(ts: number, type: string, payload: Record<string, unknown>): string {
  return JSON.stringify({ timestamp: at(ts), type, payload });
}

/** A session_meta line. */
export function metaLine(id: string, extra: Record<string, unknown> = {}, ts = 0): string {
  return line(ts, "session_meta", {
    id,
    cwd: "/w",
    originator: "codex_cli_rs",
    cli_version: "0.130.0",
    source: "cli",
    model_provider: "openai",
    ...extra,
  });
}

/** An event_msg line. */
export function eventLine(ts: number, type: string, fields: Record<string, unknown> = {}): string {
  return line(ts, "event_msg", { type, ...fields });
}

/** A task_started line. */
export function startLine(ts: number, turnId: string): string {
  return eventLine(ts, "task_started", { turn_id: turnId, model_context_window: 258400 });
}

/** A task_complete line. */
export function completeLine(ts: number, turnId: string, fields: Record<string, unknown> = {}): string {
  return eventLine(ts, "task_complete", { turn_id: turnId, last_agent_message: "done", ...fields });
}

/** A turn_aborted line (turn id omitted when undefined). */
export function abortLine(ts: number, turnId: string | undefined, reason = "interrupted", fields: Record<string, unknown> = {}): string {
  return eventLine(ts, "turn_aborted", { ...(turnId === undefined ? {} : { turn_id: turnId }), reason, ...fields });
}

/** A function_call line; object arguments are JSON-encoded as the writer does. */
export function callLine(ts: number, callId: string, name: string, args: unknown): string {
  return line(ts, "response_item", {
    type: "function_call",
    name,
    arguments: typeof args === "string" ? args : JSON.stringify(args),
    call_id: callId,
  });
}

/** A custom_tool_call line with raw input. */
export function customCallLine(ts: number, callId: string, name: string, input: string): string {
  return line(ts, "response_item", { type: "custom_tool_call", name, input, call_id: callId, status: "completed" });
}

/** A function_call_output line. */
export function outputLine(ts: number, callId: string, output: unknown): string {
  return line(ts, "response_item", { type: "function_call_output", call_id: callId, output });
}

/** A token_count line with a last-usage reading. */
export function tokenLine(ts: number, inputTokens: number): string {
  return eventLine(ts, "token_count", { info: { last_token_usage: { input_tokens: inputTokens, output_tokens: 10 } } });
}

/** An agent_message line. */
export function messageLine(ts: number, message: string, phase?: string): string {
  return eventLine(ts, "agent_message", { message, ...(phase === undefined ? {} : { phase }) });
}

/** A top-level compacted line. */
export function compactedLine(ts: number): string {
  return line(ts, "compacted", { message: "" });
}

/** A turn_context line. */
export function turnContextLine(ts: number, model: string, turnId = ""): string {
  return line(ts, "turn_context", { turn_id: turnId, cwd: "/w", model, approval_policy: "never" });
}

/** A unified-exec output body. */
export function unifiedOutput(exit: number, body = "ok", wall = 0.5): string {
  return `Chunk ID: a1b2\nWall time: ${wall.toFixed(4)} seconds\nProcess exited with code ${exit}\nOriginal token count: 3\nOutput:\n${body}`;
}

/** An event_msg user_message line. */
export function userLine(ts: number, message = "please fix the build"): string {
  return eventLine(ts, "user_message", { message, images: [], local_images: [], text_elements: [] });
}

/** A response_item user message line. */
export function userItemLine(ts: number, text: string): string {
  return line(ts, "response_item", { type: "message", role: "user", content: [{ type: "input_text", text }] });
}

/** An event_msg error line (`info` omitted when undefined). */
export function errorLine(ts: number, info?: unknown, message = "stream disconnected: secret detail"): string {
  return eventLine(ts, "error", { message, ...(info === undefined ? {} : { codex_error_info: info }) });
}

/** Bare pre-wrapper lines: a meta, then items with no timestamps. */
export function legacyLines(items: readonly Record<string, unknown>[]): string[] {
  return [JSON.stringify({ id: "legacy-1", timestamp: "2025-09-10T10:00:00Z", instructions: "x" }), ...items.map((i) => JSON.stringify(i))];
}
