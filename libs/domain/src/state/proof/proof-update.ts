/** Incremental proof-number updates (increment, decrement, prove, disprove, reset). */

import type { Map as IMap } from "immutable";
import { invalidArgument, StateError } from "../errors.js";
import { isHard, requireSource, type SignalSource } from "../signals.js";
import { DEFAULT_PROOF_NUMBER, initialProofNumber, isHardAction, isUint64, PROOF_INFINITY, type ProofNumber } from "./proof-number.js";

/** Kinds of incremental proof update. */
export type ProofUpdateType = "increment" | "decrement" | "disproven" | "proven" | "reset";

/** All update kinds in enum order. */
export const PROOF_UPDATE_TYPES: readonly ProofUpdateType[] = ["increment", "decrement", "disproven", "proven", "reset"];

/** One incremental change to a node's proof number. */
export interface ProofUpdate {
  /** Node to change. */
  readonly nodeId: string;
  /** What to do. */
  readonly type: ProofUpdateType;
  /** Amount for increment/decrement; must be > 0 there, ignored otherwise. */
  readonly delta: bigint;
  /** Free-text reason, kept for audit. */
  readonly reason: string;
  /** Origin of the signal. */
  readonly source: SignalSource;
}

/** Checks a proof update in the reference's order; throws INVALID_ARGUMENT naming the field. */
export function validateProofUpdate(u: ProofUpdate): void {
  if (u === null || typeof u !== "object") throw invalidArgument("update", "proof update must not be nil");
  if (typeof u.nodeId !== "string" || u.nodeId === "") throw invalidArgument("nodeId", "node_id must not be empty");
  if (!PROOF_UPDATE_TYPES.includes(u.type)) throw invalidArgument("type", `type ${String(u.type)} is not valid`);
  requireSource(u.source, "source");
  if (!isUint64(u.delta)) throw invalidArgument("delta", "delta must be a uint64 bigint");
  if ((u.type === "increment" || u.type === "decrement") && u.delta === 0n) {
    throw invalidArgument("delta", "delta must be > 0 for increment/decrement");
  }
  if (typeof u.reason !== "string") throw invalidArgument("reason", "reason must be a string");
}

function hardOnly(u: ProofUpdate, what: string): void {
  if (!isHard(u.source)) {
    throw new StateError(
      "HARD_SIGNAL_VIOLATION",
      `soft signal cannot perform hard action: node ${u.nodeId} cannot be ${what} by ${u.source} signal`,
      {
        field: "source",
      },
    );
  }
}

/**
 * Refuses a soft increment or decrement of a decided node (proven, disproven or exhausted): it
 * would change a value only a hard signal may set, or relabel it as set by a soft one, as a
 * soft proof entry replacing it would. Checked on the live path only, so updates journaled
 * before this rule replay as they ran.
 */
export function refuseSoftChangeOfDecided(proofs: IMap<string, ProofNumber>, u: ProofUpdate): void {
  validateProofUpdate(u);
  const current = proofs.get(u.nodeId);
  if (current === undefined || (u.type !== "increment" && u.type !== "decrement")) return;
  if (!isHardAction(current)) return;
  hardOnly(
    u,
    current.proof >= PROOF_INFINITY && current.status !== "disproven"
      ? "changed once exhausted"
      : `changed while ${current.status.toUpperCase()}`,
  );
}

/**
 * Computes the new value of a node under `u`. Soft increments saturate one below infinity,
 * because reaching infinity is a de-facto disproof that only hard signals may cause.
 */
export function nextProofNumber(current: ProofNumber | undefined, u: ProofUpdate, at: number): ProofNumber {
  // Stored values are shared by every snapshot, so they must not be editable in place.
  return Object.freeze(computeProofNumber(current, u, at));
}

function computeProofNumber(current: ProofNumber | undefined, u: ProofUpdate, at: number): ProofNumber {
  validateProofUpdate(u);
  const base = current ?? initialProofNumber();
  const ceiling = isHard(u.source) ? PROOF_INFINITY : PROOF_INFINITY - 1n;
  switch (u.type) {
    case "increment": {
      const sum = base.proof + u.delta;
      const proof = base.proof >= ceiling ? base.proof : sum > ceiling ? ceiling : sum;
      return { ...base, proof, status: base.status === "unknown" ? "expanded" : base.status, source: u.source, updatedAt: at };
    }
    case "decrement": {
      if (base.proof >= PROOF_INFINITY || base.status === "disproven") hardOnly(u, "revived from disproof");
      const proof = base.proof >= u.delta ? base.proof - u.delta : 0n;
      return { ...base, proof, status: base.status === "unknown" ? "expanded" : base.status, source: u.source, updatedAt: at };
    }
    case "disproven":
      hardOnly(u, "marked DISPROVEN");
      return { ...base, proof: PROOF_INFINITY, status: "disproven", source: u.source, updatedAt: at };
    case "proven":
      hardOnly(u, "marked PROVEN");
      return { ...base, proof: 0n, status: "proven", source: u.source, updatedAt: at };
    case "reset":
      if (base.status === "proven" || base.status === "disproven" || base.proof >= PROOF_INFINITY) hardOnly(u, "reset from a hard status");
      return { proof: DEFAULT_PROOF_NUMBER, disproof: DEFAULT_PROOF_NUMBER, status: "unknown", source: u.source, updatedAt: at };
  }
}

/** Applies `u` to the proof map; returns the new map and the stored value. */
export function applyProofUpdate(
  proofs: IMap<string, ProofNumber>,
  u: ProofUpdate,
  at: number,
): { proofs: IMap<string, ProofNumber>; value: ProofNumber } {
  const value = nextProofNumber(proofs.get(u.nodeId), u, at);
  return { proofs: proofs.set(u.nodeId, value), value };
}
