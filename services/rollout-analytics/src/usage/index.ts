/** Token usage read on its own: only the lines usage needs are decoded, per-file results cached. */
export { usageCorpus, type UsageOptions, type UsageResult, type UsageFiles } from "./usage-corpus.js";
export { usageOfFile, type FileUsage } from "./usage-file.js";
export { UsageCache, usageCacheDir, USAGE_CACHE_FORMAT, USAGE_CACHE_MAX_BYTES } from "./usage-cache.js";
