import { createHash } from "node:crypto";
import { CrsStateError } from "../errors.js";

/** Rows per page when the request says 0. */
export const DEFAULT_PAGE_SIZE = 100;
/** Largest page served; larger requests are capped. */
export const MAX_PAGE_SIZE = 1000;

/** What every token binds: the project incarnation, the generation of its first page and the filters. */
interface TokenBinding {
  readonly u: string;
  readonly g: number;
  readonly f: string;
}

/** Where a listing of one snapshot continues: at an offset. */
interface TokenBody extends TokenBinding {
  readonly o: number;
}

/** Where a listing that can change between pages continues: after the last key returned. */
interface KeysetTokenBody extends TokenBinding {
  readonly a: string;
}

/** A decoded page request: the generation to read (pinned by the token) and the rows to return. */
export interface PageCursor {
  /** Generation pinned by the token, or undefined on a first page. */
  readonly generation: number | undefined;
  /** Index of the first row of this page. */
  readonly offset: number;
  /** Rows on this page. */
  readonly size: number;
}

/** The page size to serve for a requested one. */
export function pageSize(requested: number): number {
  return requested === 0 ? DEFAULT_PAGE_SIZE : Math.min(requested, MAX_PAGE_SIZE);
}

/** A short digest of the request's filters, so a token cannot be replayed with other filters. */
export function filterDigest(filters: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(filters, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)))
    .digest("base64url")
    .slice(0, 16);
}

const invalid = (why: string): CrsStateError => new CrsStateError("INVALID_PAGE_TOKEN", `page_token ${why}`, { field: "page_token" });

// The body of a non-empty token issued for `uid` and `filters`, once `valid` accepts its own fields.
function decodeToken<B extends TokenBinding>(token: string, uid: string, filters: unknown, valid: (body: B) => boolean): B {
  let body: B;
  try {
    body = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as B;
  } catch {
    throw invalid("is malformed");
  }
  if (body === null || typeof body !== "object" || !Number.isSafeInteger(body.g) || body.g < 0 || !valid(body)) {
    throw invalid("is malformed");
  }
  if (body.u !== uid) throw invalid("belongs to another incarnation of the project");
  if (body.f !== filterDigest(filters)) throw invalid("belongs to a request with other filters");
  return body;
}

const encodeToken = (body: TokenBody | KeysetTokenBody): string => Buffer.from(JSON.stringify(body), "utf8").toString("base64url");

/**
 * Decodes `token` for the project incarnation `uid` and the request's `filters`; an empty token
 * starts at offset 0 without a pinned generation.
 */
export function openPage(token: string, requestedSize: number, uid: string, filters: unknown): PageCursor {
  const size = pageSize(requestedSize);
  if (token === "") return { generation: undefined, offset: 0, size };
  const body = decodeToken<TokenBody>(token, uid, filters, (b) => Number.isSafeInteger(b.o) && b.o >= 0);
  return { generation: body.g, offset: body.o, size };
}

/** The token of the page after `cursor` when rows remain beyond it, else "". */
export function nextPageToken(cursor: PageCursor, total: number, uid: string, generation: number, filters: unknown): string {
  const next = cursor.offset + cursor.size;
  if (next >= total) return "";
  return encodeToken({ u: uid, g: generation, f: filterDigest(filters), o: next });
}

/** A decoded page request of a keyset listing: the generation its first page read and the key to continue after. */
export interface KeysetCursor {
  /** Generation of the first page, or undefined on a first page. */
  readonly generation: number | undefined;
  /** Last key of the previous page, or undefined on a first page. */
  readonly after: string | undefined;
  /** Rows on this page. */
  readonly size: number;
}

/**
 * Decodes the token of a listing that may change between pages (rows added or removed): it
 * continues after the last key returned, so no row that stays is skipped or repeated.
 */
export function openKeysetPage(token: string, requestedSize: number, uid: string, filters: unknown): KeysetCursor {
  const size = pageSize(requestedSize);
  if (token === "") return { generation: undefined, after: undefined, size };
  const body = decodeToken<KeysetTokenBody>(token, uid, filters, (b) => typeof b.a === "string" && b.a !== "");
  return { generation: body.g, after: body.a, size };
}

/** The token of the page after the one ending with `lastKey`; "" when `more` is false. */
export function keysetPageToken(more: boolean, uid: string, generation: number, filters: unknown, lastKey: string): string {
  return more ? encodeToken({ u: uid, g: generation, f: filterDigest(filters), a: lastKey }) : "";
}
