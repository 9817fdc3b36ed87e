/** Signal sources and proof statuses: the vocabulary shared by every index. */

import { invalidArgument } from "./errors.js";

/** Where a fact came from; hard and safety signals may perform hard actions. */
export type SignalSource = "unknown" | "hard" | "soft" | "safety";

/** All signal sources in enum order. */
export const SIGNAL_SOURCES: readonly SignalSource[] = ["unknown", "hard", "soft", "safety"];

/** Proof status of a node. */
export type ProofStatus = "unknown" | "proven" | "disproven" | "expanded";

/** All proof statuses in enum order. */
export const PROOF_STATUSES: readonly ProofStatus[] = ["unknown", "proven", "disproven", "expanded"];

/** True for hard and safety signals. */
export function isHard(source: SignalSource): boolean {
  return source === "hard" || source === "safety";
}

/** True for hard, soft and safety; unknown is never a valid origin of a change. */
export function isValidSource(source: unknown): source is SignalSource {
  return source === "hard" || source === "soft" || source === "safety";
}

/** True when `status` is one of the four statuses. */
export function isProofStatus(status: unknown): status is ProofStatus {
  return typeof status === "string" && (PROOF_STATUSES as readonly string[]).includes(status);
}

/** The weaker of two sources, so that combining never upgrades authority. */
export function weakerSource(a: SignalSource, b: SignalSource): SignalSource {
  const rank = (s: SignalSource): number => (s === "safety" ? 3 : s === "hard" ? 2 : s === "soft" ? 1 : 0);
  return rank(a) <= rank(b) ? a : b;
}

/** Throws INVALID_ARGUMENT unless `source` is hard, soft or safety. */
export function requireSource(source: unknown, field: string): SignalSource {
  if (!isValidSource(source)) {
    throw invalidArgument(field, `source ${String(source)} is not valid (must be hard, soft, or safety)`);
  }
  return source;
}
