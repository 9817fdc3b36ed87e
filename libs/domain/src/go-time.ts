// Times in the text Go's encoding/json writes for a time.Time, for the documents both engines
// write in their reference's shapes.

/**
 * Unix ms as Go's RFC 3339 with nanoseconds: UTC, a fraction only when it is not zero, trailing
 * zeros trimmed (`…:20Z`, `…:20.5Z`, `…:20.123Z`), and a year past 9999 without a sign or padding.
 */
export function rfc3339(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.replace(/^\+0*(?=\d{4})/, "").replace(/\.(\d*?)0*Z$/, (_, digits: string) => (digits === "" ? "Z" : `.${digits}Z`));
}
