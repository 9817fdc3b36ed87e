import { outputBody, pickCommand, type CommandRun } from "./commands.js";
import type { Prng } from "./prng.js";
import type { SecretPlanter } from "./secrets.js";

// One tool exchange in each of the shapes the producer has written over time (spec §3.1): legacy
// `shell` with a JSON envelope, `shell_command` with an `Exit code:` text envelope, unified
// `exec_command` / `write_stdin`, freeform and function `apply_patch`, MCP tools with content
// arrays, `local_shell_call`, and `update_plan`.

/** How a tool call is written. */
export type ToolStyle =
  | "exec_command"
  | "shell"
  | "shell_command"
  | "apply_patch_freeform"
  | "apply_patch_function"
  | "mcp"
  | "local_shell"
  | "update_plan";

/** A planned tool exchange: the call item, its output item (null when none was written) and its span. */
export interface ToolExchange {
  readonly call: Record<string, unknown>;
  readonly output: Record<string, unknown> | null;
  readonly spanMs: number;
  /** A follow-up poll (unified exec `write_stdin`) when the process was still running. */
  readonly poll: ToolExchange | null;
}

/** Inputs of one exchange. */
export interface ToolContext {
  readonly rng: Prng;
  readonly plant: SecretPlanter;
  readonly callId: string;
  readonly style: ToolStyle;
  /** A failing command to run again (builds repeat-failure signatures), or null. */
  readonly repeat: CommandRun | null;
  /** Output body size in bytes (big-line cases pass megabytes). */
  readonly outputBytes: number;
}

function unifiedOutput(rng: Prng, run: CommandRun, body: string, running: boolean): string {
  const head = [`Chunk ID: ${rng.hex(6)}`, `Wall time: ${(run.wallMs / 1000).toFixed(4)} seconds`];
  head.push(running ? `Process running with session ID ${rng.int(1, 99)}` : `Process exited with code ${run.exitCode}`);
  head.push(`Original token count: ${Math.ceil(body.length / 4)}`, "Output:", body);
  return head.join("\n");
}

function patchBody(rng: Prng, plant: SecretPlanter): { text: string; files: number } {
  const files = rng.int(1, 3);
  const parts = ["*** Begin Patch"];
  for (let i = 0; i < files; i++) {
    const path = rng.pick(["src/index.ts", "src/server.ts", "src/config.ts", "README.md", "test/e2e.test.ts"]);
    parts.push(
      rng.chance(0.85) ? `*** Update File: ${path}` : `*** Add File: ${path}`,
      "@@",
      `-const limit = ${rng.int(1, 99)};`,
      `+const limit = ${rng.int(1, 99)};${plant("patch")}`,
    );
  }
  parts.push("*** End Patch");
  return { text: parts.join("\n"), files };
}

function commandExchange(ctx: ToolContext): ToolExchange {
  const { rng, plant, callId } = ctx;
  const run = pickCommand(rng, ctx.repeat);
  const body = outputBody(rng, run, ctx.outputBytes) + plant("output");
  const cmd = run.cmd + (ctx.repeat === null ? plant("argument") : "");
  switch (ctx.style) {
    case "shell": {
      const args = { command: ["bash", "-lc", cmd], workdir: "/repo", timeout_ms: 120000 };
      const out = { output: body, metadata: { exit_code: run.exitCode, duration_seconds: run.wallMs / 1000 } };
      return {
        call: { type: "function_call", name: "shell", arguments: JSON.stringify(args), call_id: callId },
        output: { type: "function_call_output", call_id: callId, output: JSON.stringify(out) },
        spanMs: run.wallMs,
        poll: null,
      };
    }
    case "shell_command": {
      const text = `Exit code: ${run.exitCode}\nWall time: ${(run.wallMs / 1000).toFixed(1)} seconds\nOutput:\n${body}`;
      return {
        call: {
          type: "function_call",
          name: "shell_command",
          arguments: JSON.stringify({ command: cmd, workdir: "/repo" }),
          call_id: callId,
        },
        output: { type: "function_call_output", call_id: callId, output: text },
        spanMs: run.wallMs,
        poll: null,
      };
    }
    case "local_shell":
      return {
        call: {
          type: "local_shell_call",
          call_id: callId,
          status: "completed",
          action: { type: "exec", command: ["bash", "-lc", cmd], timeout_ms: 60000 },
        },
        output: {
          type: "function_call_output",
          call_id: callId,
          output: JSON.stringify({ output: body, metadata: { exit_code: run.exitCode, duration_seconds: run.wallMs / 1000 } }),
        },
        spanMs: run.wallMs,
        poll: null,
      };
    default: {
      // Long runs come back still running and are finished by a write_stdin poll.
      const running = run.wallMs > 10000 && rng.chance(0.5);
      const yieldMs = running ? 10000 : run.wallMs;
      const args = { cmd, workdir: "/repo", yield_time_ms: 10000, max_output_tokens: 10000 };
      const pollId = `${callId}_poll`;
      const poll: ToolExchange | null = running
        ? {
            call: {
              type: "function_call",
              name: "write_stdin",
              arguments: JSON.stringify({ session_id: rng.int(1, 99), chars: "", yield_time_ms: 30000 }),
              call_id: pollId,
            },
            output: { type: "function_call_output", call_id: pollId, output: unifiedOutput(rng, run, body, false) },
            spanMs: run.wallMs - yieldMs,
            poll: null,
          }
        : null;
      return {
        call: { type: "function_call", name: "exec_command", arguments: JSON.stringify(args), call_id: callId },
        output: { type: "function_call_output", call_id: callId, output: unifiedOutput(rng, run, running ? "" : body, running) },
        spanMs: yieldMs,
        poll,
      };
    }
  }
}

/** Plans one tool exchange of the given style. */
export function planExchange(ctx: ToolContext): ToolExchange {
  const { rng, plant, callId } = ctx;
  switch (ctx.style) {
    case "apply_patch_freeform":
    case "apply_patch_function": {
      const patch = patchBody(rng, plant);
      const ok = rng.chance(0.9);
      const result = ok
        ? `Success. Updated the following files:\nM src/index.ts\n`
        : `apply_patch verification failed: context not found${plant("output")}`;
      const out = JSON.stringify({ output: result, metadata: { exit_code: ok ? 0 : 1, duration_seconds: 0.1 } });
      const spanMs = rng.int(20, 400);
      if (ctx.style === "apply_patch_freeform") {
        return {
          call: { type: "custom_tool_call", status: "completed", call_id: callId, name: "apply_patch", input: patch.text },
          output: { type: "custom_tool_call_output", call_id: callId, output: out },
          spanMs,
          poll: null,
        };
      }
      return {
        call: { type: "function_call", name: "apply_patch", arguments: JSON.stringify({ input: patch.text }), call_id: callId },
        output: { type: "function_call_output", call_id: callId, output: out },
        spanMs,
        poll: null,
      };
    }
    case "mcp": {
      const text = `{"results":[{"title":"doc ${rng.hex(6)}","score":${rng.int(1, 99) / 100}}]}${plant("output")}`;
      const output = rng.chance(0.5) ? [{ type: "text", text }] : text;
      return {
        call: {
          type: "function_call",
          name: rng.pick(["mcp__docs__search", "mcp__github__get_issue", "mcp__browser__open"]),
          arguments: JSON.stringify({ query: `${rng.hex(8)}${plant("argument")}` }),
          call_id: callId,
        },
        output: { type: "function_call_output", call_id: callId, output },
        spanMs: rng.int(300, 60000),
        poll: null,
      };
    }
    case "update_plan":
      return {
        call: {
          type: "function_call",
          name: "update_plan",
          arguments: JSON.stringify({ plan: [{ step: `step ${rng.hex(4)}${plant("argument")}`, status: "in_progress" }] }),
          call_id: callId,
        },
        output: { type: "function_call_output", call_id: callId, output: "Plan updated" },
        spanMs: rng.int(1, 20),
        poll: null,
      };
    default:
      return commandExchange(ctx);
  }
}

/** The failing command of an exchange, for repeating it. */
export function failingRun(rng: Prng): CommandRun {
  return { cmd: rng.pick(["pnpm test", "go test ./...", "make check"]), exitCode: 1, timedOut: false, wallMs: 1000 };
}
