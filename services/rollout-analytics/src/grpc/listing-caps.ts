// Caps on the lists of one AnalyzeRollout answer. Only listing is cut: every count, total and
// flag beside a list still covers all of the rollout, and each cut list says so in its
// `<list>_truncated` field (typed) or key (`report_json`).
//
// Sized so that the whole answer, every list at its cap and health and `report_json` included,
// stays well within the 4 MiB a default gRPC client accepts when labels are of real length.
// Measured with UUID turn ids and three tools per task: 5,000 outcomes weigh about 1.2 MB (typed
// plus JSON), 1,000 tasks about 0.83 MB across their four renderings, the 1,000-entry orphan,
// turn id and behaviour lists about 0.6 MB; the whole answer about 2.7 MB. Longer labels are cut
// at MAX_LABEL_BYTES, and MAX_ANSWER_BYTES bounds what the caps alone cannot.

/** Most per-call outcomes one AnalyzeRollout answer lists (an outcome weighs about 240 bytes, typed plus JSON). */
export const MAX_OUTCOMES = 5_000;

/**
 * Most entries every other per-task or per-item list of an AnalyzeRollout answer holds: tasks
 * (lifecycle and analytics), orphan events, reused and multiply terminated turn ids, behaviour rows
 * and compaction readings, typed and in `report_json` alike.
 */
export const MAX_ROWS = 1_000;

/** Most critical-path rows listed per task: `model`, `idle`, `wait` and the slowest tools. */
export const MAX_CRITICAL = 16;

/**
 * Longest text label an answer lists, in UTF-8 bytes: ids, timestamps, tools, reasons, paths,
 * categories, meta fields and census keys. Real ones are under 50 bytes; a label of the whole
 * line limit would otherwise be listed in up to six places.
 */
export const MAX_LABEL_BYTES = 256;

/**
 * Most bytes one encoded AnalyzeRollout answer has: below the 4 MiB a default gRPC client accepts,
 * with room for framing. A server configured to send smaller messages lowers it (`answerBudget`).
 * Caps and labels keep ordinary answers far below it; past it, whole listings are left out (see
 * `answer-budget.ts`).
 */
export const MAX_ANSWER_BYTES = 3.5 * 1024 * 1024;
