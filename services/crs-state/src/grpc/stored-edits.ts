/** Test support: edits of a stopped server's stored data, as a failing disk or a newer server would leave it. */
import assert from "node:assert/strict";
import { ClassicLevel } from "classic-level";
import { decodeFrame, decodeRecord, encodeRecord, type JournalRecord } from "../journal/index.js";
import { encodeJsonFrame } from "../journal/json-frame.js";
import { CHECKPOINT_FORMAT } from "../snapshot/index.js";
import { keys } from "../store/level/level-keys.js";
import type { Shelf } from "../store/project-store.js";

async function withDb<T>(dataDir: string, fn: (db: ClassicLevel<string, Uint8Array>) => Promise<T>): Promise<T> {
  const db = new ClassicLevel<string, Uint8Array>(dataDir, { keyEncoding: "utf8", valueEncoding: "view" });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** Appends `edit` of the project's last journal record as its next one, the way a newer binary would write it; returns its seq. */
export function appendNewer(dataDir: string, projectUid: string, edit: (r: JournalRecord) => JournalRecord): Promise<number> {
  return withDb(dataDir, async (db) => {
    const prefix = keys.journalPrefix(projectUid);
    let last: { key: string; value: Uint8Array } | undefined;
    for await (const [key, value] of db.iterator({ gt: prefix, lt: `${prefix}\uffff` })) last = { key, value };
    assert.ok(last !== undefined, "the project has journal records");
    const seq = Number.parseInt(last.key.slice(prefix.length), 16);
    const decoded = decodeRecord(last.value, seq);
    assert.ok(decoded.ok, "the last record decodes");
    await db.put(keys.journal(projectUid, seq + 1), encodeRecord(edit({ ...decoded.value, seq: seq + 1 })));
    return seq + 1;
  });
}

/**
 * Flips one bit in the middle of a stored checkpoint's (or, on the backup shelf, backup's) head or
 * body, as a failing disk would; returns its stored size (head and body).
 */
export function flipCheckpointBit(
  dataDir: string,
  projectUid: string,
  checkpointId: string,
  part: "head" | "body" = "head",
  shelf: Shelf = "checkpoint",
): Promise<number> {
  return withDb(dataDir, async (db) => {
    const [headKey, bodyKey] = [keys.checkpoint(projectUid, checkpointId, shelf), keys.checkpointBody(projectUid, checkpointId, shelf)];
    const [head, body] = await db.getMany([headKey, bodyKey]);
    assert.ok(head !== undefined && body !== undefined, `checkpoint ${checkpointId} is stored, head and body`);
    const bytes = (part === "head" ? head : body).slice();
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = (bytes[middle] as number) ^ 0x04;
    await db.put(part === "head" ? headKey : bodyKey, bytes);
    return head.length + body.length;
  });
}

/** A checkpoint head re-framed in the next checkpoint format, as a newer server would write it. */
export function newerCheckpointHead(head: Uint8Array): Uint8Array {
  const frame = decodeFrame("checkpoint", head);
  assert.ok(frame.ok, "the head decodes");
  const value = JSON.parse(Buffer.from(frame.payload).toString("utf8")) as Record<string, unknown>;
  return encodeJsonFrame("checkpoint", { ...value, format: CHECKPOINT_FORMAT + 1 });
}

/** Rewrites a stored checkpoint's head in the next checkpoint format, as a newer server would write it. */
export function rewriteCheckpointNewer(dataDir: string, projectUid: string, checkpointId: string): Promise<void> {
  return withDb(dataDir, async (db) => {
    const key = keys.checkpoint(projectUid, checkpointId);
    await db.put(key, newerCheckpointHead((await db.get(key)) ?? new Uint8Array()));
  });
}
