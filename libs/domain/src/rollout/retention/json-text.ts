import { reportJson } from "../report/report-json.js";

/** Compact JSON of a retention manifest or quarantine receipt, bigints as exact numbers. */
export function retentionJson(value: object): string {
  // Retention figures are exact bigints, which JSON.stringify refuses; they are written with every
  // digit, as the reference's int64 fields read.
  return reportJson(value);
}
