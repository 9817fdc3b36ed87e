/** An int64/uint64 field from a domain number; the domain's figures are whole milliseconds and counts. */
export function int64(value: number | null): bigint {
  return value === null || !Number.isFinite(value) ? 0n : BigInt(Math.round(value));
}

/** A map<string, uint64> field from a domain count record. */
export function countMap(counts: Readonly<Partial<Record<string, number>>>): Record<string, bigint> {
  return Object.fromEntries(Object.entries(counts).map(([key, n]) => [key, int64(n ?? 0)]));
}
