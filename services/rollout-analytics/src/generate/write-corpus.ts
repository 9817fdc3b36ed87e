import { mkdir, utimes, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { corpusRollouts, DEFAULT_CORPUS_FROM_MS, DEFAULT_CORPUS_SPAN_DAYS } from "@crs/domain/rollout";

/** What to write: a seeded corpus under `dir`, stopping at `files` files or `bytes` bytes. */
export interface WriteCorpusOptions {
  readonly dir: string;
  readonly seed: number;
  /** Stop after this many files (when set). */
  readonly files?: number;
  /** Stop once this many bytes are written (when set). */
  readonly bytes?: number;
  readonly plantSecrets?: boolean;
  /** Earliest session start, Unix ms. */
  readonly fromMs?: number;
  readonly spanDays?: number;
  /** Share of files with one multi-megabyte line. */
  readonly bigLineShare?: number;
  /** Called after each file with the running totals. */
  readonly onFile?: (done: { files: number; bytes: number }) => void;
}

/** What was written. */
export interface WriteCorpusResult {
  readonly files: number;
  readonly bytes: number;
  /** Files whose last line was left torn. */
  readonly tornTails: number;
}

/**
 * Writes a generated corpus in the producer's layout (`YYYY/MM/DD/rollout-….jsonl`). Each file's
 * mtime is set to its last line's time, so freshness behaves as on a real store.
 */
export async function writeCorpus(options: WriteCorpusOptions): Promise<WriteCorpusResult> {
  const rollouts = corpusRollouts({
    seed: options.seed,
    fromMs: options.fromMs ?? DEFAULT_CORPUS_FROM_MS,
    spanDays: options.spanDays ?? DEFAULT_CORPUS_SPAN_DAYS,
    plantSecrets: options.plantSecrets ?? false,
    ...(options.bigLineShare === undefined ? {} : { bigLineShare: options.bigLineShare }),
  });
  let files = 0;
  let bytes = 0;
  let tornTails = 0;
  const made = new Set<string>();
  for (const rollout of rollouts) {
    if (options.files !== undefined && files >= options.files) break;
    if (options.bytes !== undefined && bytes >= options.bytes) break;
    const path = join(options.dir, rollout.relPath);
    const folder = dirname(path);
    if (!made.has(folder)) {
      await mkdir(folder, { recursive: true });
      made.add(folder);
    }
    const body = Buffer.from(rollout.text, "utf8");
    await writeFile(path, body);
    const mtime = new Date(rollout.lastMs);
    await utimes(path, mtime, mtime);
    files += 1;
    bytes += body.length;
    if (rollout.tornTail) tornTails += 1;
    options.onFile?.({ files, bytes });
  }
  return { files, bytes, tornTails };
}
