// Test support: small seeded rollout stores in the producer's layout, with the cwds, sizes and
// mtimes the scan tests need to control (the realistic corpus generator is src/generate).
import { mkdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createPrng } from "@crs/domain/rollout";

const COMMANDS = ["ls -la", "cat src/main.ts", "pnpm test", "git status", "rg TODO", "sleep 5", "cargo build", "grep -n x y"];
const CWDS = ["/work/app", "/work/lib", "/home/dev/site"];

/** Shape of one generated rollout. */
export interface RolloutShape {
  readonly turns: number;
  /** Bytes of filler in each tool output and reasoning item (bodies the fold drops). */
  readonly bodyBytes: number;
}

/** The lines of one generated rollout, as text ending in a line feed. */
export function rolloutText(seed: number, shape: RolloutShape, startMs: number): string {
  const rng = createPrng(seed);
  const rand = (): number => rng.next();
  const pick = <T>(xs: readonly T[]): T => rng.pick(xs);
  let t = startMs;
  const out: string[] = [];
  const line = (type: string, payload: Record<string, unknown>): void => {
    t += Math.floor(rand() * 4000);
    out.push(JSON.stringify({ timestamp: new Date(t).toISOString(), type, payload }));
  };
  const filler = (n: number): string => "abcdefghij".repeat(Math.ceil(n / 10)).slice(0, n);
  line("session_meta", {
    id: `s-${seed}`,
    cwd: pick(CWDS),
    originator: "codex_cli_rs",
    cli_version: pick(["0.130.0", "0.135.0"]),
    source: "cli",
    model_provider: "openai",
  });
  for (let turn = 0; turn < shape.turns; turn += 1) {
    const id = `turn-${seed}-${turn}`;
    line("event_msg", { type: "task_started", turn_id: id, model_context_window: 258400 });
    line("turn_context", { turn_id: id, model: pick(["gpt-5", "gpt-5-codex"]) });
    line("event_msg", { type: "user_message", message: filler(40) });
    const calls = Math.floor(rand() * 5);
    for (let c = 0; c < calls; c += 1) {
      const callId = `call-${seed}-${turn}-${c}`;
      line("response_item", { type: "reasoning", summary: [], encrypted_content: filler(shape.bodyBytes) });
      line("response_item", {
        type: "function_call",
        name: "shell_command",
        arguments: JSON.stringify({ command: pick(COMMANDS) }),
        call_id: callId,
      });
      if (rand() < 0.9) {
        const code = rand() < 0.8 ? 0 : pick([1, 2, 124]);
        line("response_item", {
          type: "function_call_output",
          call_id: callId,
          output: `Exit code: ${code}\nWall time: ${(rand() * 9).toFixed(1)} seconds\nOutput:\n${filler(shape.bodyBytes)}`,
        });
      }
      line("event_msg", { type: "token_count", info: { last_token_usage: { input_tokens: 1000 + Math.floor(rand() * 150_000) } } });
    }
    if (rand() < 0.05) line("compacted", { message: filler(shape.bodyBytes) });
    line("event_msg", {
      type: "agent_message",
      message: pick(["Done.", "I cannot do that.", "Here is the change."]),
      phase: "final_answer",
    });
    const end = rand();
    // Most turns complete; some abort, and the last may be left open.
    if (end < 0.8)
      line("event_msg", { type: "task_complete", turn_id: id, last_agent_message: "done", duration_ms: Math.floor(rand() * 60_000) });
    else if (end < 0.95 || turn < shape.turns - 1) line("event_msg", { type: "turn_aborted", turn_id: id, reason: "interrupted" });
  }
  return `${out.join("\n")}\n`;
}

/** A generated rollout file. */
export interface GeneratedFile {
  readonly path: string;
  readonly mtimeMs: number;
}

/** Writes `files` rollouts under `root` in dated folders, with distinct, seeded mtimes. */
export async function writeCorpus(
  root: string,
  options: { seed: number; files: number; shape: (i: number) => RolloutShape; baseMs?: number },
): Promise<GeneratedFile[]> {
  const base = options.baseMs ?? Date.UTC(2026, 2, 1);
  const written: GeneratedFile[] = [];
  for (let i = 0; i < options.files; i += 1) {
    const startMs = base + i * 3_600_000;
    const d = new Date(startMs);
    const dir = join(
      root,
      String(d.getUTCFullYear()),
      String(d.getUTCMonth() + 1).padStart(2, "0"),
      String(d.getUTCDate()).padStart(2, "0"),
    );
    await mkdir(dir, { recursive: true });
    const path = join(dir, `rollout-${d.toISOString().slice(0, 19).replace(/:/g, "-")}-${String(options.seed)}-${String(i)}.jsonl`);
    await writeFile(path, rolloutText(options.seed * 100_003 + i, options.shape(i), startMs));
    const mtimeMs = startMs + 1_800_000;
    await utimes(path, mtimeMs / 1000, mtimeMs / 1000);
    written.push({ path, mtimeMs });
  }
  return written;
}
