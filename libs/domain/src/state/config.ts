/** Engine limits and thresholds, with the reference's defaults. */

import { MAX_CYCLE_HISTORY } from "./cycles/detector-state.js";
import { StateError } from "./errors.js";

/** Limits and thresholds of one project's engine. Every field has a default. */
export interface StateConfig {
  /** Per-tool circuit-breaker thresholds (case-sensitive tool names). @defaultValue find_callers 4, find_callees 4, Grep 5 */
  readonly circuitBreakerThresholds: Readonly<Record<string, number>>;
  /** Threshold for tools without their own entry. @defaultValue 2 */
  readonly defaultCircuitBreakerThreshold: number;
  /** Steps kept per session (oldest dropped). @defaultValue 10000 */
  readonly maxStepsPerSession: number;
  /** Clause lifetime after it was last learned, in ms. @defaultValue 604800000 (7 days) */
  readonly clauseTtlMs: number;
  /** Clause store capacity; the least recently used clause makes room. @defaultValue 1000 */
  readonly maxClauses: number;
  /** Stored similarity pairs; updates of existing pairs stay allowed at the cap. @defaultValue 10000 */
  readonly maxSimilarityPairs: number;
  /** History entries kept (oldest dropped). @defaultValue 10000 */
  readonly maxHistoryEntries: number;
  /** Delta-history records kept (oldest dropped). @defaultValue 1000 */
  readonly maxDeltaRecords: number;
  /** Analytics records kept. @defaultValue 100 */
  readonly maxAnalyticsRecords: number;
  /** Results kept per analytics record. @defaultValue 50 */
  readonly maxResultsPerRecord: number;
  /** Recent snapshots retained for reads at a past generation. @defaultValue 64 */
  readonly snapshotRingSize: number;
  /** A snapshot more generations behind than this is stale. @defaultValue 1000 */
  readonly staleGenerationLimit: number;
  /** Depth limit of disproof propagation. @defaultValue 100 */
  readonly maxPropagationDepth: number;
  /** Window of a session's cycle detector when the caller names none. @defaultValue 1000 */
  readonly cycleHistory: number;
}

/** The reference's default circuit-breaker thresholds. */
export const DEFAULT_CIRCUIT_BREAKER_THRESHOLDS: Readonly<Record<string, number>> = Object.freeze({
  find_callers: 4,
  find_callees: 4,
  Grep: 5,
});

/** Defaults for every field of {@link StateConfig}. */
export const DEFAULT_STATE_CONFIG: StateConfig = Object.freeze({
  circuitBreakerThresholds: DEFAULT_CIRCUIT_BREAKER_THRESHOLDS,
  defaultCircuitBreakerThreshold: 2,
  maxStepsPerSession: 10_000,
  clauseTtlMs: 604_800_000,
  maxClauses: 1000,
  maxSimilarityPairs: 10_000,
  maxHistoryEntries: 10_000,
  maxDeltaRecords: 1000,
  maxAnalyticsRecords: 100,
  maxResultsPerRecord: 50,
  snapshotRingSize: 64,
  staleGenerationLimit: 1000,
  maxPropagationDepth: 100,
  cycleHistory: 1000,
});

const POSITIVE_FIELDS = [
  "defaultCircuitBreakerThreshold",
  "maxStepsPerSession",
  "clauseTtlMs",
  "maxClauses",
  "maxSimilarityPairs",
  "maxHistoryEntries",
  "maxDeltaRecords",
  "maxAnalyticsRecords",
  "maxResultsPerRecord",
  "snapshotRingSize",
  "staleGenerationLimit",
  "maxPropagationDepth",
  "cycleHistory",
] as const;

/** Merges `partial` over the defaults and rejects non-positive limits (INVALID_CONFIG). */
export function resolveConfig(partial: Partial<StateConfig> = {}): StateConfig {
  const config: StateConfig = { ...DEFAULT_STATE_CONFIG, ...partial };
  for (const key of POSITIVE_FIELDS) {
    const value = config[key];
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new StateError("INVALID_CONFIG", `config ${key} must be a positive integer, got ${value}`, { field: key });
    }
  }
  if (config.cycleHistory > MAX_CYCLE_HISTORY) {
    throw new StateError("INVALID_CONFIG", `config cycleHistory must be at most ${MAX_CYCLE_HISTORY}, got ${config.cycleHistory}`, {
      field: "cycleHistory",
    });
  }
  for (const [tool, value] of Object.entries(config.circuitBreakerThresholds)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new StateError("INVALID_CONFIG", `circuit breaker threshold for "${tool}" must be positive, got ${value}`, {
        field: `circuitBreakerThresholds.${tool}`,
      });
    }
  }
  return Object.freeze({ ...config, circuitBreakerThresholds: Object.freeze({ ...config.circuitBreakerThresholds }) });
}
