// Random rollouts for the property tests (test support only; fast-check is a dev dependency).
import fc from "fast-check";
import {
  abortLine,
  callLine,
  compactedLine,
  completeLine,
  customCallLine,
  errorLine,
  messageLine,
  outputLine,
  startLine,
  tokenLine,
  unifiedOutput,
  userLine,
} from "../testing/lines.js";

/** One step of a synthetic rollout. */
export type Step =
  | { op: "start" | "complete" | "abort"; turn: number; dt: number }
  | { op: "call" | "output"; call: number; exit: number; dt: number; cmd: number }
  | { op: "patch"; call: number; dt: number; file: number }
  | { op: "token" | "message" | "compacted"; dt: number; n: number }
  | { op: "user" | "error"; dt: number; n: number };

const dt = fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: -5, max: 0 }), fc.constant(400));

const ERROR_INFO = [
  undefined,
  "usage_limit_exceeded",
  { response_stream_disconnected: { http_status_code: 502 } },
  "thread_rollback_failed",
];

/** Arbitrary steps, including out-of-order time, long gaps, overlapping calls, implicit turns and errors. */
export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constantFrom("start" as const, "complete" as const, "abort" as const), turn: fc.integer({ min: 0, max: 4 }), dt }),
  fc.record({
    op: fc.constantFrom("call" as const, "output" as const),
    call: fc.integer({ min: 0, max: 6 }),
    exit: fc.constantFrom(0, 1, 2, 124),
    dt,
    cmd: fc.integer({ min: 0, max: 4 }),
  }),
  fc.record({ op: fc.constant("patch" as const), call: fc.integer({ min: 7, max: 9 }), dt, file: fc.integer({ min: 0, max: 2 }) }),
  fc.record({
    op: fc.constantFrom("token" as const, "message" as const, "compacted" as const),
    dt,
    n: fc.integer({ min: 0, max: 120_000 }),
  }),
  fc.record({ op: fc.constantFrom("user" as const, "error" as const), dt, n: fc.integer({ min: 0, max: 3 }) }),
);

const COMMANDS = ["sleep 5", "rg foo", "make", "wait 1", "git status"];

/** Renders steps as rollout lines. */
export function linesOf(steps: readonly Step[]): string[] {
  let t = 0;
  return steps.map((s) => {
    t = Math.max(0, t + s.dt);
    switch (s.op) {
      case "start":
        return startLine(t, `turn-${s.turn}`);
      case "complete":
        return completeLine(t, `turn-${s.turn}`);
      case "abort":
        return abortLine(t, s.turn === 0 ? undefined : `turn-${s.turn}`, "interrupted");
      case "call":
        return callLine(t, `c${s.call}`, "exec_command", { cmd: COMMANDS[s.cmd] ?? "ls" });
      case "output":
        return outputLine(t, `c${s.call}`, unifiedOutput(s.exit));
      case "patch":
        return customCallLine(t, `c${s.call}`, "apply_patch", `*** Begin Patch\n*** Update File: f${s.file}\n*** End Patch`);
      case "token":
        return tokenLine(t, s.n);
      case "message":
        return messageLine(t, s.n % 2 === 0 ? "" : "I'll use the skill", s.n % 3 === 0 ? "commentary" : "final_answer");
      case "compacted":
        return compactedLine(t);
      case "user":
        return userLine(t);
      case "error":
        return errorLine(t, ERROR_INFO[s.n]);
    }
  });
}
