import { emptyZeroTool } from "../health/session.js";
import { DEFAULT_TOP_N } from "../vocabulary.js";
import { emptyUsage } from "../usage/merge.js";
import { PARTIAL_VERSION, type CorpusPartial, type LifecycleCounts } from "./types.js";

/** All-zero lifecycle counters. */
export function emptyCounts(): LifecycleCounts {
  return {
    rollouts: 0,
    starts: 0,
    unmatchedBefore: 0,
    rolloutsWithGap: 0,
    superseded: 0,
    processDeath: 0,
    live: 0,
    complete: 0,
    aborted: 0,
    completedWithTrailingAbort: 0,
    substantiveCompleted: 0,
    unclassifiedAfter: 0,
    orphans: 0,
    reused: 0,
    multiplyTerminated: 0,
    rawStarted: 0,
    rawComplete: 0,
    rawAborted: 0,
    implicit: 0,
    implicitLive: 0,
    implicitProcessDeath: 0,
    implicitAborted: 0,
    errored: 0,
  };
}

/** The identity of merging: a partial of no rollouts. */
export function emptyPartial(outlierKeep: number = DEFAULT_TOP_N): CorpusPartial {
  return {
    version: PARTIAL_VERSION,
    unreadable: 0,
    outOfScope: 0,
    lifecycle: { scanned: 0, totals: emptyCounts(), byProviderVersion: {} },
    analytics: {
      sessions: 0,
      tasks: 0,
      completed: 0,
      toolCalls: 0,
      durations: [],
      ttfts: [],
      outcomes: {},
      classes: {},
      reasons: {},
      byTool: {},
      outliers: [],
      outlierKeep,
      timeoutKills: 0,
      sleepPolls: 0,
      stallGaps: 0,
      resume: { started: 0, usefulWorkReached: 0, completed: 0, crashed: 0, superseded: 0, failureReasons: {} },
    },
    health: {
      scannedFiles: 0,
      sessionsWithTurns: 0,
      turns: 0,
      toolCalls: 0,
      aborted: 0,
      superseded: 0,
      unterminated: 0,
      zeroTool: emptyZeroTool(),
      occupancies: [],
      refusalLoops: [],
      inflation: [],
    },
    errors: {
      sessions: 0,
      tornTails: 0,
      rolloutsWithUnknown: 0,
      turnAborted: 0,
      taskComplete: 0,
      terminalsWithClass: 0,
      payloadTypes: {},
      unknownPayloadTypes: {},
      abortClasses: {},
      statusClasses: {},
      turnErrorClasses: {},
      oversizedLines: 0,
    },
    postTool: {
      sessions: 0,
      spans: 0,
      tailSkipped: 0,
      compactionInGap: 0,
      attribution: {},
      gapByCell: {},
      toolByCell: {},
    },
    usage: emptyUsage(),
  };
}

/** A partial for one rollout that was read but is outside the scan's cwd scope. */
export function outOfScopePartial(outlierKeep: number = DEFAULT_TOP_N): CorpusPartial {
  const p = emptyPartial(outlierKeep);
  p.outOfScope = 1;
  p.health.scannedFiles = 1;
  return p;
}

/** A partial for one rollout that could not be read at all. */
export function unreadablePartial(outlierKeep: number = DEFAULT_TOP_N): CorpusPartial {
  const p = emptyPartial(outlierKeep);
  p.unreadable = 1;
  p.health.scannedFiles = 1;
  return p;
}
