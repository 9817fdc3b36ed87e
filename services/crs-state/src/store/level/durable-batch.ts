/**
 * The one durable-write helper of the classic-level store: every write is one atomic batch
 * with `sync: true`. Tests pass a wrapper in its place to inject failures (a full disk) at
 * exactly this boundary.
 */

import type { ClassicLevel } from "classic-level";

/** One operation of a batch. */
export type BatchOp =
  | { readonly type: "put"; readonly key: string; readonly value: Uint8Array }
  | { readonly type: "del"; readonly key: string };

/** Writes a batch atomically and durably, or rejects having written nothing. */
export type BatchWriter = (ops: readonly BatchOp[]) => Promise<void>;

/** The real writer: `db.batch(ops, { sync: true })`. */
export function syncedBatchWriter(db: ClassicLevel<string, Uint8Array>): BatchWriter {
  return (ops) =>
    db.batch(
      ops.map((o) => ({ ...o })),
      { sync: true },
    );
}
