import { createHash } from "node:crypto";
import { CrsStateError } from "../errors.js";

/** Rows per page when the request says 0. */
export const DEFAULT_PAGE_SIZE = 100;
/** Largest page served; larger requests are capped. */
export const MAX_PAGE_SIZE = 1000;

/** Where a listing continues: the project incarnation, the generation of its first page, the filters and the offset. */
interface TokenBody {
  readonly u: string;
  readonly g: number;
  readonly f: string;
  readonly o: number;
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

/**
 * Decodes `token` for the project incarnation `uid` and the request's `filters`; an empty token
 * starts at offset 0 without a pinned generation.
 */
export function openPage(token: string, requestedSize: number, uid: string, filters: unknown): PageCursor {
  const size = pageSize(requestedSize);
  if (token === "") return { generation: undefined, offset: 0, size };
  let body: TokenBody;
  try {
    body = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as TokenBody;
  } catch {
    throw invalid("is malformed");
  }
  if (
    body === null ||
    typeof body !== "object" ||
    !Number.isSafeInteger(body.g) ||
    !Number.isSafeInteger(body.o) ||
    body.o < 0 ||
    body.g < 0
  ) {
    throw invalid("is malformed");
  }
  if (body.u !== uid) throw invalid("belongs to another incarnation of the project");
  if (body.f !== filterDigest(filters)) throw invalid("belongs to a request with other filters");
  return { generation: body.g, offset: body.o, size };
}

/** The token of the page after `cursor` when rows remain beyond it, else "". */
export function nextPageToken(cursor: PageCursor, total: number, uid: string, generation: number, filters: unknown): string {
  const next = cursor.offset + cursor.size;
  if (next >= total) return "";
  const body: TokenBody = { u: uid, g: generation, f: filterDigest(filters), o: next };
  return Buffer.from(JSON.stringify(body), "utf8").toString("base64url");
}
