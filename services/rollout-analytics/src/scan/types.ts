import type { CorpusPartial } from "@crs/domain/rollout";

/** How far a scan has come; bytes count reused files as done. */
export interface ScanProgress {
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly bytesDone: number;
  readonly bytesTotal: number;
}

/** Options of a corpus scan. */
export interface ScanOptions {
  /** Store root: rollouts are the `*.jsonl` files under it. */
  readonly root: string;
  /** The scan's clock, Unix ms; freshness is decided against it, never against the real clock. */
  readonly now: number;
  /** Files modified within this many ms of `now` may still be written; 0 or absent: none. */
  readonly freshMs?: number;
  /** Keep only rollouts whose session_meta recorded this cwd; others count as out of scope. */
  readonly cwd?: string;
  /** Scan only the newest `limit` files; 0 or absent scans all. */
  readonly limit?: number;
  /** Threads scanning files; 1 scans in this thread. Absent: one per core, fewer when little is left to read. */
  readonly workers?: number;
  /** Directory of per-file partials reused across scans; absent: the user cache; false: none. */
  readonly cacheDir?: string | false;
  /** Bound of the cache directory in bytes; past it the least recently written entries are removed. Absent: 512 MiB. */
  readonly cacheMaxBytes?: number;
  /** Longest line decoded in full; longer lines are read by their head. */
  readonly maxLineBytes?: number;
  /** Slowest tasks the merged partial keeps ranked (the reports' `--top`). Absent: 10. */
  readonly topN?: number;
  /** Called as each file is done (read or reused). */
  readonly onProgress?: (progress: ScanProgress) => void;
  /** Stops the scan; it then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** What became of one file. */
export type FileStatus = "scanned" | "out_of_scope" | "unreadable";

/** One file of a scan, in the walk's order (newest first). */
export interface FileOutcome {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly status: FileStatus;
  readonly fresh: boolean;
  /** Taken from the cache instead of being read. */
  readonly reused: boolean;
}

/** File counts of a scan. */
export interface ScanFiles {
  /** Files read (or reused) whole, those out of scope included. */
  readonly scanned: number;
  /** Of the scanned files, those whose recorded cwd is outside the requested one. */
  readonly outOfScope: number;
  /** Rollout files that could not be read. */
  readonly unreadable: number;
  /** Directories under the root that could not be listed (not counted as rollouts: what they hold is unknown). */
  readonly unreadableDirs: number;
  /** Symbolic links under the root that lead outside it, not followed (not counted as rollouts). */
  readonly linksOutsideRoot: number;
  /** Of the scanned files, those whose partial came from the cache. */
  readonly reused: number;
  /** Bytes of the scanned files. */
  readonly bytes: number;
  /** Of those bytes, the ones not read again thanks to the cache. */
  readonly reusedBytes: number;
}

/** A cache directory that could not be written: the result is whole, but nothing was stored for the next read. */
export interface CacheNotWritten {
  readonly dir: string;
  /** The error's code, e.g. `EACCES`, `ENOTDIR`. */
  readonly code: string;
}

/** The result of a corpus scan. */
export interface ScanResult {
  /** Every file's partial merged; reports are computed from it. */
  readonly partial: CorpusPartial;
  readonly files: ScanFiles;
  readonly perFile: readonly FileOutcome[];
  /** Set when files were read but the cache could not take them (its entries were still reused); null otherwise. */
  readonly cacheNotWritten: CacheNotWritten | null;
}
