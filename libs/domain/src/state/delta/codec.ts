/**
 * JSON form of deltas: identical to the in-memory shape except that proof and disproof
 * numbers are decimal strings, because JSON numbers lose precision above 2^53.
 */

import { invalidArgument } from "../errors.js";
import type { Delta, ProofEntry } from "./delta.js";

/** A proof entry whose uint64 fields are decimal strings. */
export type ProofEntryJson = Omit<ProofEntry, "proof" | "disproof"> & { readonly proof: string; readonly disproof: string };

/** JSON-safe form of a delta. */
export type DeltaJson =
  | Exclude<Delta, { kind: "proof" } | { kind: "composite" }>
  | { readonly kind: "proof"; readonly source: ProofEntry["source"]; readonly updates: readonly ProofEntryJson[] }
  | { readonly kind: "composite"; readonly deltas: readonly DeltaJson[] };

/** Parses a decimal string into a bigint; INVALID_ARGUMENT naming the field otherwise. */
export function parseUint64(value: unknown, field: string): bigint {
  if (typeof value !== "string" || !/^(0|[1-9][0-9]*)$/.test(value)) throw invalidArgument(field, "expected a decimal uint64 string");
  return BigInt(value);
}

/** Encodes a delta as JSON-safe data. */
export function deltaToJson(d: Delta): DeltaJson {
  if (d.kind === "proof") {
    return { kind: "proof", source: d.source, updates: d.updates.map((u) => ({ ...u, proof: u.proof.toString(), disproof: u.disproof.toString() })) };
  }
  if (d.kind === "composite") return { kind: "composite", deltas: d.deltas.map(deltaToJson) };
  // A deep copy, so later edits of the caller's object cannot alter recorded history.
  return structuredClone(d);
}

/** Decodes {@link deltaToJson}'s output; structural checks happen when the delta is applied. */
export function deltaFromJson(j: DeltaJson, field = "delta"): Delta {
  if (j === null || typeof j !== "object") throw invalidArgument(field, "delta must be an object");
  if (j.kind === "proof") {
    if (!Array.isArray(j.updates)) throw invalidArgument(`${field}.updates`, "updates must be a list");
    return {
      kind: "proof",
      source: j.source,
      updates: j.updates.map((u, i) => ({
        ...u,
        proof: parseUint64(u.proof, `${field}.updates[${i}].proof`),
        disproof: parseUint64(u.disproof, `${field}.updates[${i}].disproof`),
      })),
    };
  }
  if (j.kind === "composite") {
    if (!Array.isArray(j.deltas)) throw invalidArgument(`${field}.deltas`, "deltas must be a list");
    return { kind: "composite", deltas: j.deltas.map((c, i) => deltaFromJson(c, `${field}.deltas[${i}]`)) };
  }
  return j;
}
