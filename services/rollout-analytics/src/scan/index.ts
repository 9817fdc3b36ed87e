/** Corpus scans: parallel, incremental reads of a rollout store into one merged partial. */
export { scanCorpus } from "./scan-corpus.js";
export { scanFile, type FileScan, type FileTask } from "./scan-file.js";
export { PartialCache, CACHE_FORMAT, defaultCacheDir, type CacheKey } from "./partial-cache.js";
export { workerClass, workerEntry } from "./worker-entry.js";
export { userCacheDir } from "./cache-dir.js";
export { CODE_ID } from "./code-id.js";
export { EntryPacks } from "./entry-packs.js";
export type { PruneOutcome } from "./prune-packs.js";
export type { CacheNotWritten, ScanOptions, ScanResult, ScanProgress, ScanFiles, FileOutcome, FileStatus } from "./types.js";
