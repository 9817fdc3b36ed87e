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

// A token names the last id of the previous page and whether the listing holds only loaded
// projects, so a token is never replayed under the other filter.
const prefixOf = (openOnly: boolean): string => (openOnly ? "open-after:" : "after:");

/** The opaque token of the page after the one ending with `lastId`, in a listing filtered by `openOnly`. */
export function pageTokenAfter(lastId: string, openOnly = false): string {
  return Buffer.from(`${prefixOf(openOnly)}${lastId}`, "utf8").toString("base64url");
}

/**
 * The last id of the previous page named by `token`; INVALID_PAGE_TOKEN (page_token) when it is
 * malformed or was issued for the other `openOnly` filter.
 */
export function idFromPageToken(token: string, openOnly = false): string {
  const text = Buffer.from(token, "base64url").toString("utf8");
  const issued = (prefix: string): boolean =>
    text.startsWith(prefix) && ID_PATTERN.test(text.slice(prefix.length)) && Buffer.from(text, "utf8").toString("base64url") === token;
  const prefix = prefixOf(openOnly);
  if (issued(prefix)) return text.slice(prefix.length);
  const why = issued(prefixOf(!openOnly)) ? "belongs to a request with other filters" : "is not a token this service issued";
  throw new CrsStateError("INVALID_PAGE_TOKEN", `page_token ${why}`, { field: "page_token" });
}
