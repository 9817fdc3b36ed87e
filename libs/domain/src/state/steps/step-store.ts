/** Per-session step log with cached per-tool execution counts. */

import { List, Map as IMap } from "immutable";
import { invalidArgument } from "../errors.js";
import { frozenWith } from "../freeze.js";
import { validateStep, type Actor, type Outcome, type StepRecord } from "./step-record.js";

/** Steps of one session. */
export interface SessionSteps {
  /** Steps in insertion order. */
  readonly steps: List<StepRecord>;
  /** Number the next auto-numbered step receives; never reused, even after eviction. */
  readonly nextNumber: number;
  /** execute_tool count per tool among retained steps. */
  readonly toolCounts: IMap<string, number>;
}

/** Persistent step store: session id -> steps. */
export type StepStore = IMap<string, SessionSteps>;

/** The empty store. */
export const EMPTY_STEPS: StepStore = IMap();

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function countsTool(s: StepRecord): boolean {
  return s.decision === "execute_tool" && s.tool !== "";
}

/**
 * Records a step: auto-numbers and stamps it, validates it, and only then evicts the oldest
 * step beyond `max` and creates the session bucket, so a rejected step changes nothing.
 */
export function recordStep(store: StepStore, input: StepRecord, at: number, max: number): { store: StepStore; step: StepRecord } {
  if (typeof input.sessionId !== "string" || input.sessionId === "") throw invalidArgument("sessionId", "session_id must not be empty");
  if (!Number.isSafeInteger(input.stepNumber) || input.stepNumber < 0) {
    throw invalidArgument("stepNumber", "step_number must be >= 1, or 0 to assign one");
  }
  const bucket = store.get(input.sessionId);
  const nextNumber = bucket?.nextNumber ?? 1;
  // A client's own number may be the largest exact one; after it no number is left to assign.
  if (input.stepNumber === 0 && nextNumber > Number.MAX_SAFE_INTEGER) {
    throw invalidArgument(
      "stepNumber",
      `session ${input.sessionId} has held step number ${Number.MAX_SAFE_INTEGER}, so none is left to assign; give step_number`,
    );
  }
  const step: StepRecord = frozenWith(input, {
    stepNumber: input.stepNumber === 0 ? nextNumber : input.stepNumber,
    timestamp: input.timestamp === 0 ? at : input.timestamp,
    // Anything but a plain object is left for validation to reject with its field.
    metadata: isRecord(input.metadata) ? frozenWith(input.metadata) : input.metadata,
  });
  validateStep(step);
  let steps = (bucket?.steps ?? List<StepRecord>()).push(step);
  let toolCounts = bucket?.toolCounts ?? IMap<string, number>();
  if (countsTool(step)) toolCounts = toolCounts.set(step.tool, (toolCounts.get(step.tool) ?? 0) + 1);
  ({ steps, toolCounts } = dropOldest(steps, toolCounts, max));
  const session: SessionSteps = Object.freeze({ steps, toolCounts, nextNumber: Math.max(nextNumber, step.stepNumber + 1) });
  return { store: store.set(step.sessionId, session), step };
}

// Drops the oldest steps beyond `max`, keeping the per-tool counts in step.
function dropOldest(
  steps: List<StepRecord>,
  toolCounts: IMap<string, number>,
  max: number,
): { steps: List<StepRecord>; toolCounts: IMap<string, number> } {
  let s = steps;
  let counts = toolCounts;
  while (s.size > max) {
    const oldest = s.first() as StepRecord;
    s = s.shift();
    if (countsTool(oldest)) {
      const left = (counts.get(oldest.tool) ?? 0) - 1;
      counts = left <= 0 ? counts.remove(oldest.tool) : counts.set(oldest.tool, left);
    }
  }
  return { steps: s, toolCounts: counts };
}

/** Every session cut to its newest `max` steps (the rule a new step follows); the same store when all fit. */
export function trimSteps(store: StepStore, max: number): StepStore {
  let out = store;
  for (const [sessionId, session] of store) {
    if (session.steps.size <= max) continue;
    const kept = dropOldest(session.steps, session.toolCounts, max);
    out = out.set(sessionId, Object.freeze({ ...session, ...kept }));
  }
  return out;
}

/** Steps of a session in insertion order (empty for an unknown session). */
export function stepHistory(store: StepStore, sessionId: string): StepRecord[] {
  return store.get(sessionId)?.steps.toArray() ?? [];
}

/** The most recent step of a session, if any. */
export function lastStep(store: StepStore, sessionId: string): StepRecord | undefined {
  return store.get(sessionId)?.steps.last();
}

/** How many retained execute_tool steps of the session used `tool`. */
export function countToolExecutions(store: StepStore, sessionId: string, tool: string): number {
  if (tool === "") return 0;
  return store.get(sessionId)?.toolCounts.get(tool) ?? 0;
}

/** Steps of the session by `actor`, in insertion order. */
export function stepsByActor(store: StepStore, sessionId: string, actor: Actor): StepRecord[] {
  return stepHistory(store, sessionId).filter((s) => s.actor === actor);
}

/** Steps of the session with `outcome`, in insertion order. */
export function stepsByOutcome(store: StepStore, sessionId: string, outcome: Outcome): StepRecord[] {
  return stepHistory(store, sessionId).filter((s) => s.outcome === outcome);
}
