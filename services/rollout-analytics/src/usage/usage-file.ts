import { closeSync, openSync, readSync } from "node:fs";
import { basename } from "node:path";
import { type RolloutUsage, UsageCollector, type UsageLineVerdict, usageLineVerdict } from "@crs/domain/rollout";
import { READ_CHUNK_BYTES } from "../reader/index.js";
import { LineFilter } from "./line-filter.js";

/** The usage of one readable rollout file, with the bytes read. */
export interface FileUsage extends RolloutUsage {
  readonly bytes: number;
}

const utf8 = new TextDecoder("utf-8");

// One read buffer per thread: a file is read start to end without yielding, so no two reads share it.
let chunk: Buffer | null = null;

/**
 * Reads one rollout file for its token usage alone: lines are judged by their first bytes and
 * only `token_count`, `turn_context` and the first `session_meta` are decoded. The figures equal
 * those of the scan's full decoding of the same file. Reads are synchronous: a file's work is a
 * few milliseconds, and promise-based reads cost more than the work. I/O errors throw.
 */
export function usageOfFile(path: string, maxLineBytes: number): FileUsage {
  const collector = new UsageCollector();
  // The verdict on the line being passed on: the sink is called for the line last judged.
  let verdict: UsageLineVerdict = "skip";
  const filter = new LineFilter(
    maxLineBytes,
    (bytes, start, end) => {
      verdict = usageLineVerdict(bytes, start, end);
      return verdict === "decode" || verdict === "token_count" || (verdict === "meta" && collector.wantsMeta);
    },
    {
      // A token_count line in the producer's layout is read from its bytes; any other kept line
      // becomes text only here, as the scan's reader decodes it.
      line: (bytes, start, end) => {
        // Read in place: no text and no view made for the line.
        if (verdict === "token_count" && collector.pushTokenCountBytes(bytes, start, end)) return;
        const line = utf8.decode(bytes.subarray(start, end));
        if (verdict === "token_count") collector.pushTokenCount(line);
        else collector.push(line);
      },
      oversized: (head) => collector.pushOversized(utf8.decode(head)),
    },
  );
  chunk ??= Buffer.allocUnsafe(READ_CHUNK_BYTES);
  let bytes = 0;
  const fd = openSync(path, "r");
  try {
    for (let n = readSync(fd, chunk, 0, chunk.length, null); n > 0; n = readSync(fd, chunk, 0, chunk.length, null)) {
      bytes += n;
      filter.push(chunk.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  filter.end();
  // Sessions are named by file name, as the scan names them.
  return { ...collector.result(basename(path)), bytes };
}

/** The usage of one file, or null when it cannot be read (counted as unreadable, as the scan counts it). */
export function usageOfFileOrNull(path: string, maxLineBytes: number): FileUsage | null {
  try {
    return usageOfFile(path, maxLineBytes);
  } catch {
    return null;
  }
}
