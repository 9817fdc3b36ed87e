/** The journal: record framing and format, group commit, replay and narrow repair. */

export { FRAME_HEADER_BYTES, FRAME_KINDS, FRAME_VERSION, decodeFrame, encodeFrame } from "./frame.js";
export type { FrameFault, FrameKind, FrameResult } from "./frame.js";
export { JOURNAL_RECORD_FORMAT, STATE_EVENT_FORMAT_IN_JOURNAL, decodeRecord, encodeRecord } from "./record.js";
export type { JournalRecord, StoredRequest } from "./record.js";
export { GroupCommitter } from "./group-commit.js";
export type { BatchReport } from "./group-commit.js";
export { replayJournal } from "./replay.js";
export type { ReplayOptions, ReplaySummary } from "./replay.js";
export { repairJournal } from "./repair.js";
export type { JournalDamage, RepairOutcome } from "./repair.js";
