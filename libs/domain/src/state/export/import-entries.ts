/** Import of the per-entry modification generations and of the sessions' cycle detectors. */

import { List, Map as IMap } from "immutable";
import { validateMaxHistory } from "../cycles/cycle-transition.js";
import type { CycleDetectorState } from "../cycles/detector-state.js";
import { invalidArgument, isStateError } from "../errors.js";
import { isTimestamp } from "../proof/proof-number.js";
import type { CycleDetectorDocument } from "./document.js";

/** A modification generation read from a document: an integer within 1..`generation`. */
export function readModGeneration(value: unknown, field: string, generation: number): number {
  if (!Number.isSafeInteger(value) || (value as number) < 1 || (value as number) > generation) {
    throw invalidArgument(`${field}.modGeneration`, "modGeneration must be an integer within 1..generation");
  }
  return value as number;
}

/** The generation of the document's last replacement: 0 when absent (never replaced, or written before it was kept). */
export function readReplacedGeneration(value: unknown, generation: number): number {
  if (value === undefined) return 0;
  if (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) > generation) {
    throw invalidArgument("replacedGeneration", "replacedGeneration must be an integer within 0..generation");
  }
  return value as number;
}

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

function importDetector(d: CycleDetectorDocument, field: string): CycleDetectorState {
  if (d === null || typeof d !== "object") throw invalidArgument(field, "cycle detector must be an object");
  try {
    validateMaxHistory(d.maxHistory);
  } catch (err) {
    throw isStateError(err) ? err.withFieldPrefix(field) : err;
  }
  const { power, lambda, stepsProcessed, cyclesDetected, lastCycleAt, tortoise } = d;
  if (!Number.isSafeInteger(power) || power < 1 || (power & (power - 1)) !== 0)
    throw invalidArgument(`${field}.power`, "power must be a power of two");
  if (!isCount(lambda) || lambda >= power) throw invalidArgument(`${field}.lambda`, "lambda must be within 0..power-1");
  if (!isCount(stepsProcessed) || !isCount(cyclesDetected))
    throw invalidArgument(`${field}.stepsProcessed`, "counters must be non-negative integers");
  if (!isTimestamp(lastCycleAt)) throw invalidArgument(`${field}.lastCycleAt`, "lastCycleAt must be non-negative Unix ms");
  if (tortoise !== null && (typeof tortoise !== "string" || tortoise === ""))
    throw invalidArgument(`${field}.tortoise`, "tortoise must be a state key or null");
  if ((tortoise === null) !== (stepsProcessed === 0))
    throw invalidArgument(`${field}.tortoise`, "tortoise is null exactly when no state was fed since the reset");
  if (!Array.isArray(d.window) || d.window.length > d.maxHistory || d.window.length > stepsProcessed) {
    throw invalidArgument(`${field}.window`, "window must be a list of at most maxHistory states fed since the reset");
  }
  d.window.forEach((s, i) => {
    if (typeof s !== "string" || s === "") throw invalidArgument(`${field}.window[${i}]`, "window entries must be state keys");
  });
  return Object.freeze({
    maxHistory: d.maxHistory,
    power,
    lambda,
    tortoise: tortoise ?? undefined,
    window: List(d.window),
    stepsProcessed,
    cyclesDetected,
    lastCycleAt,
  });
}

/** The detectors of a document, by session id; sessions must be non-empty and unique. */
export function importCycleDetectors(docs: readonly CycleDetectorDocument[]): IMap<string, CycleDetectorState> {
  return IMap<string, CycleDetectorState>().withMutations((m) => {
    docs.forEach((d, i) => {
      const field = `cycleDetectors[${i}]`;
      const detector = importDetector(d, field);
      if (typeof d.sessionId !== "string" || d.sessionId === "" || m.has(d.sessionId))
        throw invalidArgument(`${field}.sessionId`, "session ids must be non-empty and unique");
      m.set(d.sessionId, detector);
    });
  });
}
