import { open } from "node:fs/promises";
import { basename } from "node:path";
import { UsageCollector, usageLineVerdict, type RolloutUsage } from "@crs/domain/rollout";
import { READ_CHUNK_BYTES } from "../reader/index.js";
import { LineFilter } from "./line-filter.js";

/** The usage of one readable rollout file, with the bytes read. */
export interface FileUsage extends RolloutUsage {
  readonly bytes: number;
}

const utf8 = new TextDecoder("utf-8");

/**
 * Reads one rollout file for its token usage alone: lines are judged by their first bytes and
 * only `token_count`, `turn_context` and the first `session_meta` are decoded. The figures equal
 * those of the scan's full decoding of the same file. I/O errors reject.
 */
export async function usageOfFile(path: string, maxLineBytes: number, signal?: AbortSignal): Promise<FileUsage> {
  const collector = new UsageCollector();
  const filter = new LineFilter(
    maxLineBytes,
    (head) => {
      const verdict = usageLineVerdict(head);
      return verdict === "decode" || (verdict === "meta" && collector.wantsMeta);
    },
    {
      // Bytes become text only here, for a kept line, as the scan's reader decodes them.
      line: (bytes) => collector.push(utf8.decode(bytes)),
      oversized: (head) => collector.pushOversized(utf8.decode(head)),
    },
  );
  let bytes = 0;
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    for (;;) {
      signal?.throwIfAborted();
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      bytes += bytesRead;
      filter.push(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  filter.end();
  // Sessions are named by file name, as the scan names them.
  return { ...collector.result(basename(path)), bytes };
}
