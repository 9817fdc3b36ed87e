import { clockRequired, invalidArgument } from "../errors.js";
import { MAX_BYTES, PROTECT_REASONS, type ByteCount, type ProtectReason } from "./types.js";

/** Rejects a missing or non-positive clock. */
export function requireClock(nowMs: number, field: string): void {
  if (!Number.isFinite(nowMs) || nowMs <= 0) throw clockRequired(field);
}

/** Rejects a negative or non-integer byte count or duration. */
export function requireCount(value: number, field: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw invalidArgument(field, "must be a non-negative integer");
}

/** A byte count as an exact bigint; rejects negatives, fractions and counts past {@link MAX_BYTES}. */
export function requireBytes(value: ByteCount, field: string): bigint {
  if (typeof value === "number" && !Number.isSafeInteger(value)) throw invalidArgument(field, "must be a non-negative integer");
  const bytes = BigInt(value);
  if (bytes < 0n || bytes > MAX_BYTES) throw invalidArgument(field, `must be a non-negative integer of at most ${MAX_BYTES}`);
  return bytes;
}

/** Adds `bytes` to a running total; rejects, naming `field`, a total past {@link MAX_BYTES}. */
export function addBytes(total: bigint, bytes: bigint, field: string): bigint {
  const sum = total + bytes;
  if (sum > MAX_BYTES) throw invalidArgument(field, `brings the byte total past ${MAX_BYTES}`);
  return sum;
}

/** Rejects a non-finite timestamp. */
export function requireTime(value: number, field: string): void {
  // The bound of a JavaScript Date, so every accepted time can be rendered.
  if (!Number.isFinite(value) || Math.abs(value) > 8.64e15) throw invalidArgument(field, "must be a finite Unix millisecond time");
}

/** Rejects empty or duplicate ids. */
export function requireUniqueIds(ids: readonly string[], field: string): void {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (id === "") throw invalidArgument(`${field}[${i}].id`, "must not be empty");
    if (seen.has(id)) throw invalidArgument(`${field}[${i}].id`, `duplicate id ${JSON.stringify(id)}`);
    seen.add(id);
  });
}

/** Rejects protect reasons outside the closed set. */
export function requireProtectReasons(reasons: readonly string[], field: string): ProtectReason[] {
  for (const r of reasons) {
    if (!(PROTECT_REASONS as readonly string[]).includes(r)) throw invalidArgument(field, `unknown protect reason ${JSON.stringify(r)}`);
  }
  return [...reasons] as ProtectReason[];
}
