// What `rollouts rollout <file>` reads: a regular file, a stream (a FIFO such as the shell's
// `<(zcat x.jsonl.gz)`, a character device such as /dev/stdin) or `-` for standard input; and
// the one line a read that fails prints instead of node's own.
import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { RolloutCensus } from "@crs/domain/rollout";
import { badField, rolloutNotRead } from "../errors.js";
import { type FoldedStream, foldRolloutStream, readChunks } from "../reader/index.js";
import type { CliIo } from "./io.js";

/** A rollout to read, and the modification time its freshness is judged by. */
export interface RolloutInput {
  /** The argument as given, for messages. */
  readonly file: string;
  readonly chunks: AsyncIterable<Uint8Array>;
  /**
   * A regular file's mtime; null for a stream, whose own is the moment it was written to (a
   * pipe's is now, whatever the age of the rollout it carries).
   */
  readonly mtimeMs: number | null;
}

function errnoCode(e: unknown): string | null {
  const code = e instanceof Error ? (e as NodeJS.ErrnoException).code : undefined;
  return typeof code === "string" ? code : null;
}

function unreadable(file: string, code: string) {
  return badField("<file>", code === "ENOENT" ? `${file} does not exist` : `${file} cannot be read (${code})`);
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return "a directory";
  if (info.isSocket()) return "a socket";
  if (info.isBlockDevice()) return "a block device";
  return "neither a file nor a stream";
}

/** The input `<file>` names; a path that cannot be read as one is refused as a bad `<file>`. */
export async function rolloutInput(io: CliIo, file: string): Promise<RolloutInput> {
  if (file === "-") return { file, chunks: io.stdin(), mtimeMs: null };
  const path = resolve(io.cwd, file);
  const info = await stat(path).catch((e: unknown) => {
    throw unreadable(file, errnoCode(e) ?? String(e));
  });
  if (info.isFile()) return { file, chunks: readChunks(path), mtimeMs: info.mtimeMs };
  if (info.isFIFO() || info.isCharacterDevice()) return { file, chunks: readChunks(path), mtimeMs: null };
  throw badField("<file>", `${file} is ${kindOf(info)}: give a rollout file, a FIFO or character device, or - for standard input`);
}

/**
 * Folds the input. An I/O error before its first byte (the file cannot be opened, as EACCES)
 * is a bad `<file>`; one part way is a failed run: a report of part of a rollout is not printed.
 */
export async function foldRolloutInput(input: RolloutInput): Promise<FoldedStream> {
  let bytes = 0;
  async function* counted(): AsyncGenerator<Uint8Array, void, undefined> {
    for await (const chunk of input.chunks) {
      bytes += chunk.length;
      yield chunk;
    }
  }
  try {
    return await foldRolloutStream(counted());
  } catch (e) {
    const code = errnoCode(e);
    if (code === null) throw e;
    if (bytes === 0) throw unreadable(input.file, code);
    throw rolloutNotRead(input.file, bytes, code, e);
  }
}

// Skips that say a line is no rollout record at all; a record the reader leaves unanalysed
// (`not_analysed`, as turn_context) is still one.
const NOT_A_RECORD = ["not_json", "not_object", "unknown_type", "missing_payload", "too_long", "too_deep"] as const;

/** Lines of the input that are rollout records, analysed or not: none for a README given by mistake. */
export function rolloutRecords(census: RolloutCensus): number {
  return NOT_A_RECORD.reduce((n, reason) => n - (census.skipped[reason] ?? 0), census.lines);
}
