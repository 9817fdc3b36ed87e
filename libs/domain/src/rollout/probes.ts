// Registries of commands whose non-zero exit is an answer, not a failure.

/** Token of a registry entry. */
export type ProbeToken = "merge_head_probe" | "grep_no_match" | "wait_control_exit";

/** One registry entry: which exits it covers and how it recognises the head. */
export interface ProbeRule {
  readonly token: ProbeToken;
  /** Exit codes covered; null means any non-zero exit. */
  readonly exits: readonly number[] | null;
  readonly pattern: RegExp;
}

// A segment starts at the head, a line start, or after `;`, `&&`, `||` (a lone pipe
// feeds data, so the exit is the pipeline's, not the probe's).
const SEGMENT_START = String.raw`(?:^|;|&&|\|\|)[ \t]*`;

/** Probes whose non-zero exit means "not found" (checked first, in order). */
export const EXPECTED_NEGATIVE_PROBES: readonly ProbeRule[] = [
  {
    token: "merge_head_probe",
    exits: null,
    // Only `|`, `;` and `&` part the words: a command continued on the next line (`\` and a
    // line break) is still one segment.
    pattern: /\bgit\b[^|;&]*?\brev-parse\b[^|;&]*?\bMERGE_HEAD\b/i,
  },
  {
    token: "grep_no_match",
    exits: [1],
    pattern: new RegExp(`${SEGMENT_START}(?:rg|grep|egrep|fgrep|git[ \\t]+grep)[ \\t]`, "im"),
  },
];

/** Commands whose non-zero exit is a control signal (checked after the probes). */
export const CONTROL_EXIT_PROBES: readonly ProbeRule[] = [
  {
    token: "wait_control_exit",
    exits: null,
    // The word ends at ASCII whitespace (the reference engine's set), `;` or a line end.
    pattern: new RegExp(`${SEGMENT_START}wait(?:[\\t\\n\\f\\r ]|;|$)`, "im"),
  },
];

/** The first rule in `rules` that covers this head and non-zero exit. */
export function matchProbe(rules: readonly ProbeRule[], head: string, exitCode: number): ProbeToken | null {
  if (exitCode === 0) return null;
  for (const rule of rules) {
    if (rule.exits !== null && !rule.exits.includes(exitCode)) continue;
    if (rule.pattern.test(head)) return rule.token;
  }
  return null;
}
