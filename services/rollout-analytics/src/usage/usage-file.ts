import { type RolloutUsage, sessionOfFile, UsageCollector, type UsageLineVerdict, usageLineVerdict } from "@crs/domain/rollout";
import { fileChunks } from "../reader/index.js";
import { LineFilter } from "./line-filter.js";

/** The usage of one readable rollout file, with the bytes read. */
export interface FileUsage extends RolloutUsage {
  readonly bytes: number;
}

const utf8 = new TextDecoder("utf-8");

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
      return verdict !== "skip" && (verdict !== "meta" || collector.wantsMeta);
    },
    {
      // A token_count line in the producer's layout is read from its bytes; any other kept line
      // becomes text only here.
      line: (bytes, start, end) => {
        // Read in place: no text and no view made for the line.
        if (verdict === "token_count" && collector.pushTokenCountBytes(bytes, start, end)) return;
        // The text TextDecoder makes, without its set-up per call or a view of the line; only a
        // leading byte-order mark is kept, which every decoder trims before it parses.
        const line = bytes.toString("utf8", start, end);
        if (verdict === "token_count") collector.pushTokenCount(line);
        else if (verdict === "turn_context") collector.pushTurnContext(line);
        else collector.push(line);
      },
      oversized: (head) => collector.pushOversized(utf8.decode(head)),
    },
  );
  let bytes = 0;
  for (const chunk of fileChunks(path)) {
    bytes += chunk.length;
    filter.push(chunk);
  }
  filter.end();
  // Sessions are named by file name, as the scan names them.
  return { ...collector.result(sessionOfFile(path)), bytes };
}

/** The usage of one file, or null when it cannot be read (counted as unreadable, as the scan counts it). */
export function usageOfFileOrNull(path: string, maxLineBytes: number): FileUsage | null {
  try {
    return usageOfFile(path, maxLineBytes);
  } catch {
    return null;
  }
}
