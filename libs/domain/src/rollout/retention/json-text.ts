// Retention figures are exact bigints, which JSON.stringify refuses; this writes them as plain
// JSON numbers with every digit, as the reference's int64 fields read.

function write(value: unknown): string | undefined {
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => write(v) ?? "null").join(",")}]`;
  const members: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    const text = write(v);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(",")}}`;
}

/** Compact JSON of a retention manifest or quarantine receipt, bigints as exact numbers. */
export function retentionJson(value: object): string {
  return write(value) ?? "null";
}
