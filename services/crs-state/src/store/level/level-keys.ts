/**
 * Key layout of the classic-level store (UTF-8 keys; `!` separates parts and sorts below every
 * id character, so each prefix is a contiguous range):
 *
 *   f                              store format marker
 *   m!<project id>                 project metadata (catalogue, in id order)
 *   j!<uid>!<seq, 16 hex>          journal record
 *   s!<uid>!<seq, 16 hex>          state snapshot covering records up to seq
 *   c!<uid>!<checkpoint id>        named checkpoint: its head (what a listing reads)
 *   d!<uid>!<checkpoint id>        the checkpoint's body, written and deleted with its head
 *   b!<uid>!<backup id>            a backup's head (its metadata record)
 *   e!<uid>!<backup id>            the backup's body (its compressed document), written and deleted with its head
 *   x!<uid>!<seq, 16 hex>!<ms, 16 hex>  a record cut by repair, kept aside with the cut time
 *   g!<uid>                        a deleted project whose keys are still being purged
 *   p                              probe key
 *
 * Ids are escaped before they reach a key: characters outside `[A-Za-z0-9._:-]` become `%XX`
 * per UTF-8 byte, which keeps the order of valid ids.
 */

import type { Shelf } from "../project-store.js";

/** Store format this code writes and reads. */
export const LEVEL_STORE_FORMAT = "crs-state-store/1";
/** Key of the format marker. */
export const FORMAT_KEY = "f";
/** Key of the probe write. */
export const PROBE_KEY = "p";

/** Escapes an id for use inside a key. */
export function escapeId(id: string): string {
  let out = "";
  for (const ch of id) {
    if (/^[A-Za-z0-9._:-]$/.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, "utf8")) out += `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Reverses {@link escapeId}. */
export function unescapeId(escaped: string): string {
  return decodeURIComponent(escaped);
}

/** Fixed-width hex of a sequence number, so byte order is numeric order. */
export function seqHex(seq: number): string {
  return seq.toString(16).padStart(16, "0");
}

/** The bounds of every key starting with `prefix`. */
export function range(prefix: string): { gt: string; lt: string } {
  return { gt: prefix, lt: `${prefix}\uffff` };
}

const headLetter = (shelf: Shelf | undefined): string => (shelf === "backup" ? "b" : "c");
const bodyLetter = (shelf: Shelf | undefined): string => (shelf === "backup" ? "e" : "d");

/** Key builders. */
export const keys = {
  meta: (projectId: string) => `m!${escapeId(projectId)}`,
  metaPrefix: "m!",
  journal: (uid: string, seq: number) => `j!${uid}!${seqHex(seq)}`,
  journalPrefix: (uid: string) => `j!${uid}!`,
  snapshot: (uid: string, seq: number) => `s!${uid}!${seqHex(seq)}`,
  snapshotPrefix: (uid: string) => `s!${uid}!`,
  checkpoint: (uid: string, checkpointId: string, shelf?: Shelf) => `${headLetter(shelf)}!${uid}!${escapeId(checkpointId)}`,
  checkpointPrefix: (uid: string, shelf?: Shelf) => `${headLetter(shelf)}!${uid}!`,
  checkpointBody: (uid: string, checkpointId: string, shelf?: Shelf) => `${bodyLetter(shelf)}!${uid}!${escapeId(checkpointId)}`,
  checkpointBodyPrefix: (uid: string, shelf?: Shelf) => `${bodyLetter(shelf)}!${uid}!`,
  backupPrefix: (uid: string) => `b!${uid}!`,
  backupBodyPrefix: (uid: string) => `e!${uid}!`,
  cut: (uid: string, seq: number, at: number) => `x!${uid}!${seqHex(seq)}!${seqHex(at)}`,
  cutPrefix: (uid: string) => `x!${uid}!`,
  garbage: (uid: string) => `g!${uid}`,
  garbagePrefix: "g!",
};

/** The sequence number at the end of a `j!`/`s!` key (or after the uid in an `x!` key). */
export function seqOfKey(key: string, prefix: string): number {
  return Number.parseInt(key.slice(prefix.length, prefix.length + 16), 16);
}
