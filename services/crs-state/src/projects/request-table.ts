/**
 * The idempotency memory of one project: the last N committed request ids with their stored
 * answers, oldest evicted first. It is rebuilt on recovery from the snapshot and the journal
 * tail, so it survives restarts.
 */

import { CrsStateError } from "../errors.js";
import type { StoredRequest } from "../journal/record.js";

/** Remembered request ids of one project, in commit order. */
export class RequestTable {
  private readonly byId = new Map<string, StoredRequest>();
  // The requests in the order they were remembered, oldest from `head` on. Evicting through the
  // map's own order would cost more with every id forgotten: a map iterator steps over the slot
  // of every entry deleted since the map last grew, so each eviction walked all earlier ones.
  private order: StoredRequest[] = [];
  private head = 0;

  /** Keeps at most `retention` ids. */
  constructor(private readonly retention: number) {}

  /** Remembers a committed request, forgetting the oldest beyond the retention. */
  remember(r: StoredRequest): void {
    this.byId.delete(r.requestId);
    this.byId.set(r.requestId, r);
    this.order.push(r);
    while (this.byId.size > this.retention) {
      const oldest = this.order[this.head++] as StoredRequest;
      // An id remembered again since keeps its later place; this one is stale.
      if (this.byId.get(oldest.requestId) === oldest) this.byId.delete(oldest.requestId);
    }
    // The forgotten front is dropped once it is the larger part, so the order stays within twice the table.
    if (this.head > this.order.length / 2 && this.head > 64) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
  }

  /**
   * The stored request for a retry of (`requestId`, `method`, `fingerprint`), undefined when the
   * id is unknown; REQUEST_ID_REUSED when it was used for another method or content.
   */
  lookup(requestId: string, method: string, fingerprint: string): StoredRequest | undefined {
    const r = this.byId.get(requestId);
    if (r === undefined) return undefined;
    assertSameRequest(r, requestId, method, fingerprint);
    return r;
  }

  /** Every remembered request, oldest first (for snapshots). */
  entries(): StoredRequest[] {
    return [...this.byId.values()];
  }

  /** How many ids are remembered. */
  get size(): number {
    return this.byId.size;
  }
}

/** REQUEST_ID_REUSED unless `r` was made by the same method with the same content. */
export function assertSameRequest(
  r: { readonly method: string; readonly fingerprint: string },
  requestId: string,
  method: string,
  fingerprint: string,
): void {
  if (r.method !== method || r.fingerprint !== fingerprint) {
    throw new CrsStateError(
      "REQUEST_ID_REUSED",
      `request id ${requestId} was used for a different ${r.method === method ? "request" : `method (${r.method})`}`,
      {
        field: "request_id",
        requestId,
      },
    );
  }
}
