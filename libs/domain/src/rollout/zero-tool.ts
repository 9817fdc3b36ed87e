/** Why a completed turn called no tool. */
export type ZeroToolCategory = "guard_refused" | "preamble_noop" | "talk_only" | "silent";

/** Every zero-tool category, in report order. */
export const ZERO_TOOL_CATEGORIES: readonly ZeroToolCategory[] = ["guard_refused", "preamble_noop", "talk_only", "silent"];

const REFUSAL_MARKERS = ["refused by the fak kernel", "require_witness", "policy_block", "were refused", "proposed tool call"];
const PREAMBLE_MARKERS = ["i'll use the", "i\u2019ll use the", "using `", "using the `"];

/** Classifies the trailing agent message of a turn that called no tool. */
export function classifyZeroTool(message: string): ZeroToolCategory {
  const m = message.toLowerCase();
  if (REFUSAL_MARKERS.some((k) => m.includes(k))) return "guard_refused";
  if (m.includes("skill") && PREAMBLE_MARKERS.some((k) => m.includes(k))) return "preamble_noop";
  return m.trim() !== "" ? "talk_only" : "silent";
}
