/**
 * JSON form of deltas: identical to the in-memory shape except that proof and disproof
 * numbers are decimal strings, because JSON numbers lose precision above 2^53.
 */

import { invalidArgument, invalidDelta, StateError } from "../errors.js";
import { frozenCopy } from "../freeze.js";
import type { Delta, ProofEntry } from "./delta.js";
import { bigintToDecimal, decimalToBigint } from "./small-uint64.js";

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
  return decimalToBigint(value);
}

/** A bigint as a decimal string; anything else is kept for validation to reject with its field. */
export function uint64ToJson(v: unknown): unknown {
  return typeof v === "bigint" ? bigintToDecimal(v) : v;
}

/** A decimal string as a bigint (INVALID_ARGUMENT naming the field when malformed); anything else is kept for validation. */
export function uint64FromJson(v: unknown, field: string): bigint {
  return (typeof v === "string" ? parseUint64(v, field) : v) as bigint;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object";

/**
 * A proof entry's JSON copy. The entry's fields are written out rather than spread: V8 keeps a
 * frozen spread copy at about four times the size of a literal one, and the delta history keeps
 * one copy per entry. Fields beyond the entry's are copied as given, after them.
 */
function proofEntryToJson(u: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {
    nodeId: u.nodeId,
    proof: uint64ToJson(u.proof),
    disproof: uint64ToJson(u.disproof),
    status: u.status,
    source: u.source,
    updatedAt: u.updatedAt,
  };
  for (const key in u) {
    // defineProperty keeps an own "__proto__" key a plain field, as a spread would.
    if (Object.hasOwn(u, key) && !Object.hasOwn(out, key))
      Object.defineProperty(out, key, { value: u[key], enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Encodes a delta as JSON-safe data, always as a copy, so later edits of the caller's object
 * cannot alter recorded history. Malformed parts are copied as they are, for validation to name;
 * the copy of a delta other than a proof or composite one is frozen.
 */
export function deltaToJson(d: Delta): DeltaJson {
  if (!isObject(d)) return d as unknown as DeltaJson;
  if (d.kind === "proof" && Array.isArray(d.updates)) {
    const updates = d.updates.map((u: unknown) => (isObject(u) ? proofEntryToJson(u) : u));
    return { ...d, updates } as DeltaJson;
  }
  if (d.kind === "composite" && Array.isArray(d.deltas)) return { kind: "composite", deltas: d.deltas.map(deltaToJson) } as DeltaJson;
  // Frozen and sharing its strings: the delta history keeps this copy, frozen, as it is; a plain
  // walk also costs a fraction of structuredClone on every Apply.
  try {
    return frozenCopy(d) as unknown as DeltaJson;
  } catch (err) {
    throw new StateError("INVALID_DELTA", "delta must be plain data (objects, lists, strings, numbers, booleans)", {
      field: "",
      cause: err,
    });
  }
}

/** Decodes {@link deltaToJson}'s output; structural checks happen when the delta is applied. */
export function deltaFromJson(j: DeltaJson, field = "delta"): Delta {
  if (j === null || typeof j !== "object") throw invalidDelta("", "delta must not be nil");
  if (j.kind === "proof" && Array.isArray(j.updates)) {
    return {
      ...j,
      updates: j.updates.map((u, i) =>
        isObject(u)
          ? {
              ...u,
              proof: uint64FromJson(u.proof, `${field}.updates[${i}].proof`),
              disproof: uint64FromJson(u.disproof, `${field}.updates[${i}].disproof`),
            }
          : u,
      ),
    } as Delta;
  }
  if (j.kind === "composite" && Array.isArray(j.deltas)) {
    return {
      kind: "composite",
      deltas: j.deltas.map((c, i) => (isObject(c) ? deltaFromJson(c as DeltaJson, `${field}.deltas[${i}]`) : c)) as Delta[],
    };
  }
  return j as Delta;
}
