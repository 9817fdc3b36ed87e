/** The id grammar shared by projects, checkpoints and sessions, and the page tokens of list. */

import { CrsStateError } from "../errors.js";

/** Project and checkpoint ids: 1 to 128 of `A-Z a-z 0-9 . _ : -`. */
export const ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** INVALID_ARGUMENT naming `field` unless `id` follows {@link ID_PATTERN}. */
export function requireValidId(id: unknown, field: string): string {
  if (typeof id !== "string" || !ID_PATTERN.test(id)) {
    throw new CrsStateError("INVALID_ARGUMENT", `${field} must match ${ID_PATTERN.source}`, { field });
  }
  return id;
}

/** The opaque token of the page after the one ending with `lastId`. */
export function pageTokenAfter(lastId: string): string {
  return Buffer.from(`after:${lastId}`, "utf8").toString("base64url");
}

/** The last id of the previous page named by `token`; INVALID_ARGUMENT (page_token) when malformed. */
export function idFromPageToken(token: string): string {
  const text = Buffer.from(token, "base64url").toString("utf8");
  if (!text.startsWith("after:") || !ID_PATTERN.test(text.slice(6)) || pageTokenAfter(text.slice(6)) !== token) {
    throw new CrsStateError("INVALID_ARGUMENT", "page_token is not a token this service issued", { field: "page_token" });
  }
  return text.slice(6);
}
