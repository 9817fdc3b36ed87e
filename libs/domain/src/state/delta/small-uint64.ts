/**
 * Shared values for small uint64s. Proof numbers are mostly small counts, and every stored
 * entry holds two of them as bigints (and, in the delta history, as decimal strings); a bigint
 * or string made per entry costs about 16-24 bytes each, a shared one nothing. Both kinds are
 * immutable primitives compared by value, so sharing them is invisible to callers.
 */

const SHARED = 1024;
const BIGINTS: readonly bigint[] = Array.from({ length: SHARED }, (_, i) => BigInt(i));
const STRINGS: readonly string[] = Array.from({ length: SHARED }, (_, i) => String(i));

/** The bigint of a canonical decimal string (no sign, no leading zero), shared when small. */
export function decimalToBigint(decimal: string): bigint {
  if (decimal.length <= 4) {
    const small = BIGINTS[Number(decimal)];
    if (small !== undefined) return small;
  }
  return BigInt(decimal);
}

/** The decimal string of a non-negative bigint, shared when small. */
export function bigintToDecimal(value: bigint): string {
  return value >= 0n && value < BigInt(SHARED) ? (STRINGS[Number(value)] as string) : value.toString();
}
