import { invalidArgument, limitExceeded } from "../errors.js";

// Ids become storage keys, file names and NATS subjects, so only a safe alphabet passes.
const ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Returns `value` when it is a valid resource id, else throws INVALID_ARGUMENT naming `field`. */
export function requireId(value: string, field: string): string {
  if (value === "") throw invalidArgument(field, "is required");
  if (!ID.test(value) || value === "." || value === "..") {
    throw invalidArgument(field, "must be 1-128 characters of [A-Za-z0-9._-] and not '.' or '..'");
  }
  return value;
}

/** Returns the length of `list` when it holds at most `max` entries, else LIMIT_EXCEEDED. */
export function requireMaxLength(list: readonly unknown[], max: number, field: string): number {
  if (list.length > max) throw limitExceeded(field, max, `has ${list.length} entries; at most ${max} are accepted`);
  return list.length;
}

/** Converts a uint64/int64 field to a number when it is a safe non-negative integer. */
export function requireSafeCount(value: bigint, field: string): number {
  if (value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) throw invalidArgument(field, `must be from 0 to ${Number.MAX_SAFE_INTEGER}`);
  return Number(value);
}
