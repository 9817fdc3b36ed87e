import { eventLine, itemLine, messageItem, wrapped } from "./lines.js";
import { advance, nextCallId, push, uuid7, writeTokenCount, type SessionState } from "./session.js";
import { failingRun, planExchange, type ToolExchange, type ToolStyle } from "./tools.js";

// One turn of a wrapped rollout: context, start, the user's prompt, model steps with tool calls,
// and the ending the plan asks for (spec §3.1 event shapes, §3.2 per era).

/** How a turn ends. */
export type TurnEnding = "complete" | "aborted" | "budget_limited" | "error" | "superseded" | "dying" | "trailing_abort";

/** What one turn should look like. */
export interface TurnPlan {
  readonly ending: TurnEnding;
  /** Model steps (each a reply, most with tool calls). */
  readonly steps: number;
  /** Bytes of one output body to write as a big line (0: none). */
  readonly bigOutputBytes: number;
}

const STYLE_WEIGHTS: Readonly<Record<ToolStyle, number>> = {
  exec_command: 40,
  shell: 8,
  shell_command: 14,
  apply_patch_freeform: 12,
  apply_patch_function: 3,
  mcp: 6,
  local_shell: 3,
  update_plan: 4,
};

const ERROR_INFOS: readonly unknown[] = [
  "server_overloaded",
  "context_window_exceeded",
  { http_connection_failed: { http_status_code: 503 } },
  { response_stream_disconnected: { http_status_code: null } },
  "usage_limit_exceeded",
  null,
];

function keyed(s: SessionState): boolean {
  return s.era !== "unkeyed";
}

function writeExchange(s: SessionState, ex: ToolExchange, withOutput: boolean): void {
  push(s, itemLine(advance(s, s.rng.int(1, 40)), ex.call));
  if (!withOutput) return;
  advance(s, ex.spanMs);
  if (ex.output !== null) push(s, itemLine(s.now, ex.output));
  if (ex.poll !== null) {
    writeTokenCount(s);
    writeExchange(s, ex.poll, true);
  }
}

function modelThinks(s: SessionState): void {
  // Mostly seconds of model time; now and then the user walks away (an idle gap over the stall threshold).
  advance(s, s.rng.chance(0.02) ? s.rng.int(301000, 3600000) : s.rng.int(800, 20000));
  if (s.rng.chance(0.4)) {
    const summary = [{ type: "summary_text", text: `**Planning next step**${s.plant("reasoning")}` }];
    push(s, itemLine(s.now, { type: "reasoning", summary, content: null, encrypted_content: `gAAAA${s.rng.hex(64)}` }));
  }
}

function maybeCompact(s: SessionState): void {
  if (s.tokens.context() < 180000 && !s.rng.chance(0.01)) return;
  push(s, wrapped(advance(s, s.rng.int(2000, 15000)), "compacted", { message: "", replacement_history: [] }));
  push(s, eventLine(s.now, { type: "context_compacted" }));
  s.tokens.compact(s.rng);
}

function writeSteps(s: SessionState, plan: TurnPlan, dying: boolean): void {
  const repeat = s.rng.chance(0.06) ? failingRun(s.rng) : null;
  let bigLeft = plan.bigOutputBytes;
  for (let step = 0; step < plan.steps; step++) {
    modelThinks(s);
    writeTokenCount(s);
    if (s.rng.chance(0.25))
      push(
        s,
        eventLine(advance(s, 5), {
          type: "agent_message",
          message: `Checking the tests next.${s.plant("agent_message")}`,
          phase: "commentary",
        }),
      );
    const parallel = s.rng.chance(0.1) ? 2 : 1;
    const exchanges: ToolExchange[] = [];
    for (let i = 0; i < parallel; i++) {
      // A big output is a command's (patch and plan tools answer briefly).
      const style = bigLeft > 0 ? "shell_command" : s.rng.weighted(STYLE_WEIGHTS);
      const useRepeat = repeat !== null && step < 4 && (style === "exec_command" || style === "shell_command");
      exchanges.push(
        planExchange({
          rng: s.rng,
          plant: s.plant,
          callId: nextCallId(s),
          style,
          repeat: useRepeat ? repeat : null,
          outputBytes: bigLeft > 0 ? bigLeft : s.rng.int(40, 3000),
        }),
      );
      bigLeft = 0;
    }
    const last = step === plan.steps - 1;
    if (dying && last) {
      // The process died with this call outstanding: no output, no terminal.
      writeExchange(s, exchanges[0] as ToolExchange, false);
      return;
    }
    if (exchanges.length === 2) {
      const [a, b] = exchanges as [ToolExchange, ToolExchange];
      push(s, itemLine(advance(s, 10), a.call));
      push(s, itemLine(advance(s, 10), b.call));
      advance(s, Math.max(a.spanMs, b.spanMs));
      if (a.output !== null) push(s, itemLine(s.now, a.output));
      if (b.output !== null) push(s, itemLine(advance(s, 3), b.output));
    } else writeExchange(s, exchanges[0] as ToolExchange, true);
    maybeCompact(s);
  }
}

function writeStart(s: SessionState, turnId: string, startedMs: number): void {
  if (!keyed(s)) return;
  const type = s.era === "alias" ? "turn_started" : "task_started";
  const payload: Record<string, unknown> = { type, turn_id: turnId, model_context_window: 272000, collaboration_mode_kind: "default" };
  if (s.era === "current") payload["started_at"] = Math.floor(startedMs / 1000);
  push(s, eventLine(startedMs, payload));
}

function finalMessage(s: SessionState): string {
  if (s.rng.chance(0.03)) return `The upstream API answered HTTP 503 Service Unavailable twice; stopping here.${s.plant("agent_message")}`;
  if (s.rng.chance(0.03)) return `I'll use the deploy skill for this.${s.plant("agent_message")}`;
  return `Done: updated the handler and the tests pass.${s.plant("agent_message")}`;
}

/** Where the turn's prompt is: its line index and time. */
interface PromptAt {
  readonly line: number;
  readonly ms: number;
}

/**
 * When the turn's first token streamed: half way through its first model reply (up to the first
 * `token_count` after the prompt), and within 30 s of the prompt even when the user walked away.
 */
function firstTokenMs(s: SessionState, prompt: PromptAt): number {
  for (let i = prompt.line; i < s.lines.length; i++) {
    const line = s.lines[i] ?? "";
    // Wrapped lines start `{"timestamp":"<24 characters>"`.
    if (line.includes('"type":"token_count"'))
      return prompt.ms + Math.min(30000, Math.round((Date.parse(line.slice(14, 38)) - prompt.ms) / 2));
  }
  return prompt.ms;
}

function writeEnding(s: SessionState, turnId: string, startedMs: number, prompt: PromptAt, ending: TurnEnding): void {
  switch (ending) {
    case "complete": {
      modelThinks(s);
      const message = finalMessage(s);
      push(s, eventLine(advance(s, 5), { type: "agent_message", message, phase: "final_answer" }));
      push(s, itemLine(s.now, messageItem("assistant", message)));
      writeTokenCount(s);
      if (!keyed(s)) return;
      const payload: Record<string, unknown> = {
        type: s.era === "alias" ? "turn_complete" : "task_complete",
        turn_id: turnId,
        last_agent_message: message,
      };
      advance(s, s.rng.int(2, 40));
      if (s.era === "current") {
        payload["completed_at"] = Math.floor(s.now / 1000);
        payload["duration_ms"] = s.now - startedMs;
        payload["time_to_first_token_ms"] = Math.max(0, firstTokenMs(s, prompt) - startedMs);
      }
      push(s, eventLine(s.now, payload));
      return;
    }
    case "aborted":
    case "budget_limited":
    case "trailing_abort": {
      advance(s, ending === "trailing_abort" ? s.rng.int(100, 1500) : s.rng.int(500, 30000));
      const payload: Record<string, unknown> = {
        type: "turn_aborted",
        reason: ending === "budget_limited" ? "budget_limited" : "interrupted",
      };
      if (keyed(s) && s.era !== "early_keyed") payload["turn_id"] = turnId;
      else if (keyed(s) && s.rng.chance(0.5)) payload["turn_id"] = turnId;
      if (s.era === "current") {
        payload["completed_at"] = Math.floor(s.now / 1000);
        payload["duration_ms"] = s.now - startedMs;
      }
      push(s, eventLine(s.now, payload));
      if (ending !== "trailing_abort")
        push(s, itemLine(advance(s, 2), messageItem("user", "<turn_aborted>\nThe user interrupted the previous turn.\n</turn_aborted>")));
      return;
    }
    case "error":
      push(
        s,
        eventLine(advance(s, s.rng.int(1000, 60000)), {
          type: "error",
          message: `stream disconnected before completion: 503${s.plant("error")}`,
          codex_error_info: s.rng.pick(ERROR_INFOS),
        }),
      );
      return;
    case "superseded":
    case "dying":
      return;
  }
}

/** Writes one turn; returns false when the rollout must end here (the process died). */
export function writeTurn(s: SessionState, plan: TurnPlan, cwd: string): boolean {
  const turnId = uuid7(s.rng, s.now);
  advance(s, s.rng.int(2000, 600000));
  const startedMs = s.now;
  writeStart(s, turnId, startedMs);
  const context: Record<string, unknown> = {
    cwd,
    approval_policy: "on-request",
    sandbox_policy: { type: "workspace-write" },
    model: s.model,
    effort: "medium",
    summary: "auto",
  };
  if (s.era === "current") context["turn_id"] = turnId;
  push(s, wrapped(advance(s, 3), "turn_context", context));
  const prompt = `Please fix the flaky retry in the uploader and add a test.${s.plant("prompt")}`;
  push(s, eventLine(advance(s, 2), { type: "user_message", message: prompt, images: [], local_images: [], text_elements: [] }));
  push(s, itemLine(s.now, messageItem("user", prompt)));
  const promptAt: PromptAt = { line: s.lines.length, ms: s.now };
  const steps = plan.ending === "trailing_abort" ? 0 : plan.steps;
  writeSteps(s, { ...plan, steps }, plan.ending === "dying");
  if (plan.ending === "dying" && steps > 0) return false;
  writeEnding(s, turnId, startedMs, promptAt, plan.ending);
  if (s.rng.chance(0.01)) push(s, eventLine(advance(s, 1000), { type: "thread_rolled_back", num_turns: 1 }));
  return plan.ending !== "dying";
}
