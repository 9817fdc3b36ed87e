import { tokenCountLine, wrapped } from "./lines.js";
import { writeLegacyRollout } from "./legacy.js";
import { addOddities, type FileShape } from "./oddities.js";
import type { Prng } from "./prng.js";
import type { SecretPlanter } from "./secrets.js";
import { advance, push, uuid7, type RolloutEra, type SessionState } from "./session.js";
import { tokenMeter } from "./tokens.js";
import { writeTurn, type TurnEnding } from "./turn.js";

// One whole rollout file: its path under the store, its meta line(s), its turns in the era's
// shapes, and the file-level edge cases (process death, torn tail, big lines, subagent metas, and
// the rarer shapes of `oddities.ts`).

/** What to generate for one rollout. */
export interface RolloutSpec {
  readonly rng: Prng;
  readonly plant: SecretPlanter;
  /** Session start, Unix ms. */
  readonly startMs: number;
  /** Approximate file size to reach. */
  readonly targetBytes: number;
  /** Write one tool output this big (a "big line"); 0 for none. */
  readonly bigLineBytes: number;
}

/** A generated rollout: where it goes, its lines, and the time of its last line (its mtime). */
export interface GeneratedRollout {
  /** `YYYY/MM/DD/rollout-<YYYY-MM-DDThh-mm-ss>-<uuid>.jsonl`. */
  readonly relPath: string;
  /** The file's text (lines joined by line feeds, a few by CR LF; a torn tail has no final line end). */
  readonly text: string;
  readonly lastMs: number;
  readonly era: RolloutEra;
  /** The last line was cut mid-write. */
  readonly tornTail: boolean;
}

const ERA_WEIGHTS: Readonly<Record<RolloutEra, number>> = { current: 55, early_keyed: 14, alias: 6, unkeyed: 15, legacy: 10 };

const MODELS: Readonly<Record<RolloutEra, readonly string[]>> = {
  current: ["gpt-5.5", "gpt-5.1-codex", "gpt-5.1-codex", "gpt-5-codex", "gpt-5.1-codex-mini", "codex-preview-internal"],
  early_keyed: ["gpt-5.3-codex", "gpt-5.2-codex", "gpt-5.2"],
  alias: ["gpt-5.1-codex", "gpt-5"],
  unkeyed: ["gpt-5", "gpt-5-codex", "o4-mini", "codex-mini-latest"],
  legacy: ["gpt-5"],
};

const CLI_VERSIONS: Readonly<Record<RolloutEra, readonly string[]>> = {
  current: ["0.128.0", "0.131.2", "0.135.0"],
  early_keyed: ["0.104.0-alpha.1", "0.104.0"],
  alias: ["0.140.0"],
  unkeyed: ["0.36.0", "0.58.1", "0.92.0"],
  legacy: [""],
};

function endingFor(rng: Prng, last: boolean, dying: boolean, previous: TurnEnding | null): TurnEnding {
  if (last && dying) return "dying";
  if (previous === "complete" && rng.chance(0.07)) return "trailing_abort";
  return rng.weighted({ complete: 78, aborted: 8, budget_limited: 1, error: 4, superseded: last ? 0 : 4 });
}

function pathOf(startMs: number, id: string): string {
  const iso = new Date(startMs).toISOString();
  const [y, m, d] = [iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10)];
  return `${y}/${m}/${d}/rollout-${iso.slice(0, 19).replaceAll(":", "-")}-${id}.jsonl`;
}

/** Writes the meta line(s); true when the rollout is a spawned subagent's. */
function writeMeta(s: SessionState, id: string, startMs: number, cwd: string): boolean {
  const payload: Record<string, unknown> = {
    id,
    timestamp: new Date(startMs).toISOString(),
    cwd,
    originator: s.rng.pick(["codex_cli_rs", "codex_exec", "Codex Desktop"]),
    cli_version: s.rng.pick(CLI_VERSIONS[s.era]),
    source: s.rng.pick(["cli", "vscode", "exec"]),
    base_instructions: { text: `You are a coding agent.${s.plant("instructions")}` },
  };
  if (s.era !== "unkeyed" || s.rng.chance(0.5)) payload["model_provider"] = s.rng.pick(["openai", "openai", "azure"]);
  if (s.era === "current" && s.rng.chance(0.08)) {
    // A subagent: an object source, then the parent's meta copied further down.
    const parent = uuid7(s.rng, startMs - 60000);
    payload["source"] = { subagent: { thread_spawn: { parent_thread_id: parent, depth: 1, agent_role: "reviewer" } } };
    push(s, wrapped(startMs, "session_meta", payload));
    push(s, wrapped(startMs + 1, "session_meta", { ...payload, id: parent, source: "cli" }));
    return true;
  }
  push(s, wrapped(startMs, "session_meta", payload));
  return false;
}

/** Generates one rollout file. */
export function generateRollout(spec: RolloutSpec): GeneratedRollout {
  const { rng } = spec;
  const era = rng.weighted(ERA_WEIGHTS);
  const id = uuid7(rng, spec.startMs);
  const s: SessionState = {
    rng,
    plant: spec.plant,
    era,
    model: rng.pick(MODELS[era]),
    tokens: tokenMeter(rng.int(9000, 16000)),
    lines: [],
    bytes: 0,
    now: spec.startMs,
    calls: 0,
  };
  const cwd = rng.pick(["/home/dev/api", "/home/dev/web", "/srv/repos/billing", "/Users/ana/code/cli"]);
  let tornTail = false;
  let cut = 0;
  let shape: FileShape = { bom: false, crlf: false };
  if (era === "legacy") writeLegacyRollout(s, id, spec.startMs, spec.targetBytes, spec.bigLineBytes);
  else {
    const spawned = writeMeta(s, id, spec.startMs, cwd);
    if (rng.chance(0.3)) push(s, tokenCountLine(advance(s, 400), null));
    const dying = rng.chance(0.1);
    let previous: TurnEnding | null = null;
    let bigLeft = spec.bigLineBytes;
    for (let turn = 0; ; turn++) {
      const last = s.bytes >= spec.targetBytes * 0.8 || turn >= 400;
      const chosen = endingFor(rng, last, dying, previous);
      // The turn carrying the big line has steps and writes their outputs.
      const ending = bigLeft > 0 && chosen === "trailing_abort" ? "complete" : chosen;
      const steps = bigLeft > 0 ? rng.int(2, 10) : rng.chance(0.1) ? 0 : rng.int(1, rng.chance(0.1) ? 40 : 10);
      const alive = writeTurn(s, { ending, steps, bigOutputBytes: bigLeft }, cwd);
      if (steps > 0) bigLeft = 0;
      previous = ending;
      if (!alive || last) break;
    }
    tornTail = rng.chance(0.06);
    if (tornTail) cut = rng.next();
    shape = addOddities(s, spec.startMs, spawned);
  }
  const newline = shape.crlf ? "\r\n" : "\n";
  let text = (shape.bom ? "\uFEFF" : "") + s.lines.join(newline);
  if (tornTail) {
    // A crashed writer: the final line stops mid-record with no line feed.
    const lastLine = s.lines[s.lines.length - 1] ?? "";
    text = text.slice(0, text.length - lastLine.length + Math.max(1, Math.floor(lastLine.length * cut)));
  } else text += newline;
  return { relPath: pathOf(spec.startMs, id), text, lastMs: s.now, era, tornTail };
}
