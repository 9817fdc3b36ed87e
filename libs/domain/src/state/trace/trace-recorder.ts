/**
 * Trace recorder: a bounded audit trail of reasoning steps whose text always passes the
 * secret sanitizer (keys of metadata included). Durations are milliseconds throughout.
 */

import { sanitizeMetadata, sanitizeSecrets } from "../sanitize/secret-sanitizer.js";
import type { DependencyEdge } from "../dependency/dependency-index.js";
import { makeStep, type StepRecord } from "../steps/step-record.js";

/** One traced step. */
export interface TraceStep {
  /** Sequence number, assigned by the recorder from 1 and never reused. */
  readonly step: number;
  /** Unix ms; 0 asks the recorder to stamp it. */
  readonly timestamp: number;
  /** What was done. */
  readonly action: string;
  /** What it was done to. */
  readonly target: string;
  /** Tool used, or "". */
  readonly tool: string;
  /** Duration in ms. */
  readonly durationMs: number;
  /** Symbols found. */
  readonly symbolsFound: readonly string[];
  /** Dependencies discovered. */
  readonly dependenciesFound: readonly DependencyEdge[];
  /** Error text, or "". */
  readonly error: string;
  /** Free metadata. */
  readonly metadata: Readonly<Record<string, string>>;
}

/** Options of {@link TraceRecorder}. */
export interface TraceOptions {
  /** Steps kept (oldest dropped). @defaultValue 1000 */
  readonly maxSteps?: number;
  /** Keep symbols. @defaultValue true */
  readonly recordSymbols?: boolean;
  /** Keep metadata. @defaultValue true */
  readonly recordMetadata?: boolean;
  /** Clock, Unix ms. @defaultValue a clock returning 0 */
  readonly now?: () => number;
}

/** A bounded, sanitized trace. */
export class TraceRecorder {
  private steps: TraceStep[] = [];
  private nextStep = 1;
  private readonly maxSteps: number;
  private readonly options: TraceOptions;

  /** Creates an empty recorder. */
  constructor(options: TraceOptions = {}) {
    this.options = options;
    this.maxSteps = options.maxSteps !== undefined && options.maxSteps > 0 ? options.maxSteps : 1000;
  }

  /** Records a step (sequence number assigned, text sanitized) and returns the stored copy. */
  record(input: Omit<TraceStep, "step">): TraceStep {
    const stored: TraceStep = Object.freeze({
      step: this.nextStep++,
      timestamp: input.timestamp === 0 ? (this.options.now?.() ?? 0) : input.timestamp,
      action: sanitizeSecrets(input.action),
      target: sanitizeSecrets(input.target),
      tool: sanitizeSecrets(input.tool),
      durationMs: input.durationMs,
      symbolsFound: Object.freeze(this.options.recordSymbols === false ? [] : input.symbolsFound.map(sanitizeSecrets)),
      dependenciesFound: Object.freeze(
        input.dependenciesFound.map((e) => Object.freeze({ from: sanitizeSecrets(e.from), to: sanitizeSecrets(e.to) })),
      ),
      error: sanitizeSecrets(input.error),
      metadata: Object.freeze(this.options.recordMetadata === false ? {} : sanitizeMetadata(input.metadata)),
    });
    this.steps.push(stored);
    if (this.steps.length > this.maxSteps) this.steps.shift();
    return stored;
  }

  /** Retained steps, oldest first. */
  all(): TraceStep[] {
    return [...this.steps];
  }

  /** The latest step. */
  last(): TraceStep | undefined {
    return this.steps[this.steps.length - 1];
  }

  /** Empties the recorder and restarts numbering at 1. */
  clear(): void {
    this.steps = [];
    this.nextStep = 1;
  }

  /** Summary of the retained trace. */
  export(sessionId: string): {
    sessionId: string;
    totalSteps: number;
    totalDurationMs: number;
    startTime: number;
    endTime: number;
    trace: TraceStep[];
  } {
    const first = this.steps[0];
    const last = this.last();
    return {
      sessionId,
      totalSteps: this.steps.length,
      totalDurationMs: first !== undefined && last !== undefined ? last.timestamp - first.timestamp : 0,
      startTime: first?.timestamp ?? 0,
      endTime: last?.timestamp ?? 0,
      trace: this.all(),
    };
  }
}

/** Turns a trace step into a step record (dependencies kept in metadata as `from->to` lines). */
export function traceStepToStepRecord(ts: TraceStep, sessionId: string): StepRecord {
  const metadata: Record<string, string> = { ...ts.metadata };
  if (ts.dependenciesFound.length > 0) metadata.dependencies_found = ts.dependenciesFound.map((e) => `${e.from}->${e.to}`).join("\n");
  return makeStep({
    stepNumber: ts.step,
    timestamp: ts.timestamp,
    sessionId,
    actor: "system",
    decision: "execute_tool",
    tool: ts.tool,
    outcome: ts.error === "" ? "success" : "failure",
    errorMessage: ts.error,
    errorCategory: ts.error === "" ? "" : "internal",
    durationMs: ts.durationMs,
    resultSummary: `${ts.action}: ${ts.target}`,
    metadata,
  });
}
