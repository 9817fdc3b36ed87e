/** Proof numbers: the value type of the proof index and its invariants. */

import { invalidArgument } from "../errors.js";
import { isProofStatus, isValidSource, type ProofStatus, type SignalSource } from "../signals.js";

/** Proof-number infinity, 2^64-1: the node cannot be proven. */
export const PROOF_INFINITY: bigint = 2n ** 64n - 1n;

/** Proof and disproof number of a node never seen before. */
export const DEFAULT_PROOF_NUMBER = 10n;

/** Proof-number-search state of one node; `source` and `updatedAt` record who set it and when. */
export interface ProofNumber {
  /** Cost to prove; INF means unprovable. */
  readonly proof: bigint;
  /** Cost to disprove. */
  readonly disproof: bigint;
  /** Search status. */
  readonly status: ProofStatus;
  /** Signal that produced this value. */
  readonly source: SignalSource;
  /** Unix ms of the change. */
  readonly updatedAt: number;
}

/** The value a node starts from before its first update. */
export function initialProofNumber(): ProofNumber {
  return { proof: DEFAULT_PROOF_NUMBER, disproof: DEFAULT_PROOF_NUMBER, status: "unknown", source: "unknown", updatedAt: 0 };
}

/** True when `n` is a bigint in [0, 2^64-1]. */
export function isUint64(n: unknown): n is bigint {
  return typeof n === "bigint" && n >= 0n && n <= PROOF_INFINITY;
}

/** The largest Unix ms a date can represent (ECMAScript's time value limit). */
export const MAX_TIMESTAMP_MS = 8.64e15;

/** True when `ms` is an integer in [0, {@link MAX_TIMESTAMP_MS}], so it always renders as a date. */
export function isTimestamp(ms: unknown): ms is number {
  return typeof ms === "number" && Number.isSafeInteger(ms) && ms >= 0 && ms <= MAX_TIMESTAMP_MS;
}

/** Checks the shape of a proof number; throws INVALID_ARGUMENT naming the field. */
export function validateProofNumber(value: ProofNumber, field: string): void {
  if (!isUint64(value.proof)) throw invalidArgument(`${field}.proof`, "proof must be a uint64 bigint");
  if (!isUint64(value.disproof)) throw invalidArgument(`${field}.disproof`, "disproof must be a uint64 bigint");
  if (!isProofStatus(value.status)) throw invalidArgument(`${field}.status`, `status ${String(value.status)} is not valid`);
  if (!isValidSource(value.source)) {
    throw invalidArgument(`${field}.source`, `source ${String(value.source)} is not valid (must be hard, soft, or safety)`);
  }
  if (!isTimestamp(value.updatedAt)) throw invalidArgument(`${field}.updatedAt`, "updatedAt must be non-negative Unix ms");
}

/** True when setting `value` is a hard action: proving, disproving or exhausting a node. */
export function isHardAction(value: Pick<ProofNumber, "proof" | "status">): boolean {
  return value.status === "disproven" || value.status === "proven" || value.proof >= PROOF_INFINITY;
}
