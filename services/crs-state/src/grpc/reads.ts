import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ResponseHeaderSchema } from "@crs/contracts/gen/crs/state/v1/common_pb";
import type { Snapshot } from "@crs/domain/state";
import { snapshotOf, type ProjectHeader, type ProjectHost, type ProjectView } from "../projects/index.js";
import { requireSafeCount } from "@crs/runtime";
import { listings } from "./list-cache.js";
import { filterDigest, nextPageToken, openPage } from "./page-token.js";

/** The wire header of an answer about `header`'s project at `generation`. */
export function responseHeader(
  header: ProjectHeader,
  generation = header.generation,
  replayed = header.replayed,
): MessageInitShape<typeof ResponseHeaderSchema> {
  return { projectId: header.projectId, projectUid: header.projectUid, generation: BigInt(generation), replayed };
}

/** What a read callback sees: the snapshot asked for, the committed view and the answer's header. */
export interface ReadContext {
  /** The snapshot at the requested generation. */
  readonly snapshot: Snapshot;
  /** The committed view of the project. */
  readonly view: ProjectView;
  /** The header naming the generation read. */
  readonly header: MessageInitShape<typeof ResponseHeaderSchema>;
}

/** Runs `fn` over the project's snapshot at `atGeneration` (absent: the committed one). */
export function readAt<T>(host: ProjectHost, projectId: string, atGeneration: bigint | undefined, fn: (ctx: ReadContext) => T): Promise<T> {
  const at = atGeneration === undefined ? undefined : requireSafeCount(atGeneration, "at_generation");
  return host.read(projectId, (view) => {
    const snapshot = snapshotOf(view, at);
    return fn({ snapshot, view, header: responseHeader(view.header, snapshot.generation) });
  });
}

/** The paging fields every list request has. */
export interface PagedRequest {
  /** The project. */
  readonly projectId: string;
  /** Generation to read, when asked. */
  readonly atGeneration?: bigint | undefined;
  /** Requested page size. */
  readonly pageSize: number;
  /** Token of the previous page. */
  readonly pageToken: string;
}

/** One page of rows with what its answer needs. */
export interface Page<Row> {
  /** Rows of this page. */
  readonly rows: Row[];
  /** Rows over all pages. */
  readonly total: number;
  /** Token of the next page; "" on the last. */
  readonly nextPageToken: string;
  /** The header naming the generation read (pinned by the first page). */
  readonly header: MessageInitShape<typeof ResponseHeaderSchema>;
  /** The snapshot read, for rendering the page's rows. */
  readonly snapshot: Snapshot;
}

/** A byte budget for one page of rows whose size varies widely. */
export interface PageBudget<Row> {
  /** Most bytes the page's rows may take, encoded; a first row larger than this is served alone. */
  readonly bytes: number;
  /** The encoded size of a row as a repeated field of the response. */
  readonly size: (row: Row) => number;
}

/** The end (exclusive) of the rows from `start` before `end` that fit `budget`; at least one row. */
export function fitBudget<Row>(all: readonly Row[], start: number, end: number, budget: PageBudget<Row>): number {
  let used = 0;
  for (let i = start; i < end; i++) {
    used += budget.size(all[i] as Row);
    if (used > budget.bytes && i > start) return i;
  }
  return end;
}

/**
 * Serves one page of `rows(snapshot)`, the listing named `list`. The token binds the project
 * uid, `filters` and the generation of the first page, so later pages read the same snapshot,
 * and slice the listing the first page computed (kept in {@link listings}). With a `budget`, a
 * page also ends before its rows pass the budget's bytes, and the next one starts there.
 */
export function readPage<Row>(
  host: ProjectHost,
  req: PagedRequest,
  list: string,
  filters: unknown,
  rows: (snapshot: Snapshot, view: ProjectView) => readonly Row[],
  budget?: PageBudget<Row>,
): Promise<Page<Row>> {
  const at = req.atGeneration === undefined ? undefined : requireSafeCount(req.atGeneration, "at_generation");
  const bound = { filters, at: at ?? null };
  return host.read(req.projectId, (view) => {
    const cursor = openPage(req.pageToken, req.pageSize, view.header.projectUid, bound);
    const snapshot = snapshotOf(view, cursor.generation ?? at, cursor.generation === undefined ? "at_generation" : "page_token");
    const key = `${view.header.projectUid}\u0000${snapshot.generation}\u0000${list}\u0000${filterDigest(filters)}`;
    const all = listings.rows(key, snapshot.state, () => rows(snapshot, view));
    const end = Math.min(all.length, cursor.offset + cursor.size);
    const served = budget === undefined ? cursor : { ...cursor, size: fitBudget(all, cursor.offset, end, budget) - cursor.offset };
    return {
      rows: all.slice(served.offset, served.offset + served.size),
      total: all.length,
      nextPageToken: nextPageToken(served, all.length, view.header.projectUid, snapshot.generation, bound),
      header: responseHeader(view.header, snapshot.generation),
      snapshot,
    };
  });
}
