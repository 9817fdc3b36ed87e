import { eventLine, itemLine, messageItem, tokenCountLine, type TokenUsage, wrapped } from "./lines.js";
import { uuid7, type SessionState } from "./session.js";
import { addUsage, ZERO_USAGE } from "./tokens.js";

// The rarer shapes of a real store, added once a wrapped rollout's body is written (so the draws
// for them come after the body's and leave it as it was): a fork's or spawn's copy of its parent's
// history, line types and event variants a reader does not know (spec §3.1: a reader must ignore
// them), and files that passed through other tools on the way (a byte-order mark, CRLF endings).

/** How the finished file is to be written. */
export interface FileShape {
  /** Starts with a UTF-8 byte-order mark. */
  readonly bom: boolean;
  /** Lines end with CR LF instead of LF. */
  readonly crlf: boolean;
}

/** Lines of types and variants the decoder does not analyse, written by newer producers. */
const UNKNOWN_LINES: readonly ((s: SessionState, ms: number) => string)[] = [
  (s, ms) => wrapped(ms, "world_state", { cwd_contents_hash: s.rng.hex(16), open_files: [] }),
  (s, ms) => wrapped(ms, "thread_checkpoint", { checkpoint_id: s.rng.hex(12) }),
  (s, ms) => eventLine(ms, { type: "thread_goal_updated", goal: `Fix the flaky retry.${s.plant("prompt")}` }),
  (_s, ms) => eventLine(ms, { type: "item_completed", item: { type: "plan", steps: 3 } }),
  (_s, ms) => eventLine(ms, { type: "thread_settings_applied", settings: { effort: "high" } }),
  (s, ms) => itemLine(ms, { type: "ghost_snapshot", ghost_commit: { id: s.rng.hex(40), parent: null } }),
];

function parentReply(s: SessionState): TokenUsage {
  const input = s.rng.int(9000, 60000);
  const output = s.rng.int(50, 1500);
  return {
    input_tokens: input,
    cached_input_tokens: Math.floor(input * 0.8),
    output_tokens: output,
    reasoning_output_tokens: 0,
    total_tokens: input + output,
  };
}

/**
 * The parent's history a fork or spawn starts with, written in one burst after its metas: its
 * messages and `token_count` events with the parent's totals. The child's own totals continue
 * from the parent's last ones, as the producer's cumulative counter does.
 */
function copyParentHistory(s: SessionState, startMs: number): void {
  const metas = s.lines.findIndex((l) => !l.includes('"type":"session_meta"'));
  const burst: string[] = [];
  let total = ZERO_USAGE;
  const replies = s.rng.int(2, 6);
  for (let i = 0; i < replies; i++) {
    const ms = startMs + 2 + 3 * i;
    burst.push(itemLine(ms, messageItem("user", `Look into the failing upload test.${s.plant("prompt")}`)));
    burst.push(itemLine(ms + 1, messageItem("assistant", `The retry loop never backs off.${s.plant("agent_message")}`)));
    const last = parentReply(s);
    total = addUsage(total, last);
    burst.push(tokenCountLine(ms + 2, { total, last, window: 272000 }));
  }
  const parent = total;
  const own = s.lines.slice(metas === -1 ? s.lines.length : metas).map((line) => {
    if (!line.includes('"total_token_usage"')) return line;
    const parsed = JSON.parse(line) as { payload: { info: { total_token_usage: TokenUsage } } };
    parsed.payload.info.total_token_usage = addUsage(parent, parsed.payload.info.total_token_usage);
    return JSON.stringify(parsed);
  });
  s.lines.splice(metas === -1 ? s.lines.length : metas, s.lines.length, ...burst, ...own);
}

/** Marks the first meta as forked from another session (`forked_from_id` beside `id`). */
function markForked(s: SessionState, startMs: number): void {
  const line = JSON.parse(s.lines[0] ?? "{}") as { timestamp: string; type: string; payload: Record<string, unknown> };
  const { id, ...rest } = line.payload;
  const payload = { id, forked_from_id: uuid7(s.rng, startMs - s.rng.int(60000, 86_400_000)), ...rest };
  s.lines[0] = JSON.stringify({ ...line, payload });
}

function addUnknownLines(s: SessionState): void {
  const count = s.rng.int(1, 3);
  for (let i = 0; i < count; i++) {
    // After a turn's context line, at its time, so line times stay in order.
    const from = s.rng.int(1, s.lines.length - 1);
    const at = s.lines.findIndex((l, k) => k >= from && l.includes('"type":"turn_context"'));
    if (at === -1) return;
    const ms = Date.parse(JSON.parse(s.lines[at] ?? "{}").timestamp);
    const write = s.rng.pick(UNKNOWN_LINES);
    s.lines.splice(at + 1, 0, write(s, ms));
  }
}

/**
 * Adds the store's rarer shapes to a finished wrapped rollout: copied parent history for spawns and
 * for the forks it makes (about 4 % of current files), unknown line types (about 12 % of current
 * files), and how the file is written: a byte-order mark (2 % of files that copy no history) or
 * CRLF endings (1 %).
 */
export function addOddities(s: SessionState, startMs: number, spawned: boolean): FileShape {
  const forked = !spawned && s.era === "current" && s.rng.chance(0.04);
  if (forked) markForked(s, startMs);
  if (forked || spawned) copyParentHistory(s, startMs);
  if (s.era === "current" && s.rng.chance(0.12)) addUnknownLines(s);
  // A mark in front of a copy's first line hides its parent from ccusage, which then counts the
  // copied history again (divergence U-17); the usage bench compares its totals with ccusage's, so
  // copies are written without one. The mark is still drawn, so every later draw stays as it was.
  const bom = s.rng.chance(0.02) && !(forked || spawned);
  return { bom, crlf: s.rng.chance(0.01) };
}
