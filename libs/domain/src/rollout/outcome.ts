import type { Envelope } from "./envelope.js";
import { CONTROL_EXIT_PROBES, EXPECTED_NEGATIVE_PROBES, matchProbe } from "./probes.js";
import type { Confidence, ToolClass } from "./vocabulary.js";

/** A classified tool result. */
export interface ToolOutcome {
  readonly cls: ToolClass;
  readonly reason: string;
  readonly confidence: Confidence;
}

function outcome(cls: ToolClass, reason: string, confidence: Confidence): ToolOutcome {
  return { cls, reason, confidence };
}

/** Classifies a joined call from its command head and decoded envelope. */
export function classifyOutcome(head: string, env: Envelope): ToolOutcome {
  if (env.kind === "malformed") return outcome("malformed_envelope", "undecodable_envelope", "observed");
  if (env.kind === "opaque") return outcome("ok", "no_envelope", "assumed");
  // Timeout precedes the exit-0 check: a harness kill can still report exit 0.
  if (env.timedOut) return outcome("timeout", "timeout", "observed");
  if (env.running) return outcome("ok", "process_running", "assumed");
  if (!env.hasExit) return outcome("ok", "structured_no_exit", "assumed");
  if (env.exitCode === 0) return outcome("ok", "exit_0", "observed");
  const negative = matchProbe(EXPECTED_NEGATIVE_PROBES, head, env.exitCode);
  if (negative !== null) return outcome("expected_negative", negative, "observed");
  const control = matchProbe(CONTROL_EXIT_PROBES, head, env.exitCode);
  if (control !== null) return outcome("control_exit", control, "observed");
  return outcome("failure", `exit_${env.exitCode}`, "observed");
}
