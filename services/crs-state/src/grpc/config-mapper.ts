import type { MessageInitShape } from "@bufbuild/protobuf";
import type { FieldMask } from "@bufbuild/protobuf/wkt";
import type { ProjectConfig, ProjectConfigSchema } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { invalidArgument, limitExceeded, requireSafeCount } from "@crs/runtime";
import { DEFAULT_STATE_CONFIG, StateError, isStateError, type StateConfig } from "@crs/domain/state";
import { requireKey } from "./ids.js";

/** Scalar config fields: proto name, wire field, engine field. Zero on the wire means the default. */
const SCALARS = [
  ["circuit_breaker_default_threshold", "circuitBreakerDefaultThreshold", "defaultCircuitBreakerThreshold"],
  ["max_steps_per_session", "maxStepsPerSession", "maxStepsPerSession"],
  ["clause_ttl_ms", "clauseTtlMs", "clauseTtlMs"],
  ["max_clauses", "maxClauses", "maxClauses"],
  ["max_similarity_pairs", "maxSimilarityPairs", "maxSimilarityPairs"],
  ["max_history_entries", "maxHistoryEntries", "maxHistoryEntries"],
  ["max_change_records", "maxChangeRecords", "maxDeltaRecords"],
  ["max_analytics_records", "maxAnalyticsRecords", "maxAnalyticsRecords"],
  ["max_results_per_record", "maxResultsPerRecord", "maxResultsPerRecord"],
  ["snapshot_retention_generations", "snapshotRetentionGenerations", "snapshotRingSize"],
  ["staleness_limit_generations", "stalenessLimitGenerations", "staleGenerationLimit"],
  ["max_propagation_depth", "maxPropagationDepth", "maxPropagationDepth"],
  ["cycle_detector_max_history", "cycleDetectorMaxHistory", "cycleHistory"],
] as const;

type Scalar = (typeof SCALARS)[number];
type WireScalar = Scalar[1];

/** Most per-tool circuit-breaker thresholds a configuration may hold. */
export const MAX_THRESHOLDS = 1000;

/** The proto path of one circuit-breaker threshold entry, as a map key is written in a field path. */
export function thresholdPath(tool: string): string {
  return `config.circuit_breaker_thresholds[${JSON.stringify(tool)}]`;
}

function thresholdsIn(map: Readonly<Record<string, number>>): Record<string, number> {
  const entries = Object.entries(map);
  if (entries.length > MAX_THRESHOLDS)
    throw limitExceeded("config.circuit_breaker_thresholds", MAX_THRESHOLDS, `at most ${MAX_THRESHOLDS} tools`);
  for (const [tool, value] of entries) {
    requireKey(tool, thresholdPath(tool));
    if (value <= 0) throw invalidArgument(thresholdPath(tool), "must be > 0");
  }
  return { ...map };
}

function scalarIn(config: ProjectConfig, wire: WireScalar, name: string): number | undefined {
  const value = config[wire] as number | bigint;
  if (value === 0 || value === 0n) return undefined;
  return typeof value === "bigint" ? requireSafeCount(value, `config.${name}`) : value;
}

/** The engine config overrides of a wire config: only non-zero fields (zero means the default). */
export function configIn(config: ProjectConfig | undefined): Partial<StateConfig> {
  if (config === undefined) return {};
  const out: Record<string, unknown> = {};
  for (const [name, wire, engine] of SCALARS) {
    const v = scalarIn(config, wire, name);
    if (v !== undefined) out[engine] = v;
  }
  if (Object.keys(config.circuitBreakerThresholds).length > 0)
    out["circuitBreakerThresholds"] = thresholdsIn(config.circuitBreakerThresholds);
  return out as Partial<StateConfig>;
}

/**
 * The config overrides an update mask selects (AIP-134): a named field at zero reverts to the
 * default, a named map is replaced whole; an empty mask, `*` or an unknown path is
 * INVALID_ARGUMENT naming `update_mask.paths`. Fields the mask does not name are not read.
 */
export function configUpdateIn(config: ProjectConfig | undefined, mask: FieldMask | undefined): Partial<StateConfig> {
  const paths = mask?.paths ?? [];
  if (paths.length === 0) throw invalidArgument("update_mask.paths", "must name at least one field");
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    if (path === "circuit_breaker_thresholds") {
      const given = config?.circuitBreakerThresholds ?? {};
      out["circuitBreakerThresholds"] =
        Object.keys(given).length === 0 ? DEFAULT_STATE_CONFIG.circuitBreakerThresholds : thresholdsIn(given);
      continue;
    }
    const row = SCALARS.find(([name]) => name === path);
    if (row === undefined) throw invalidArgument("update_mask.paths", `unknown field ${JSON.stringify(path)} of ProjectConfig`);
    const [name, wire, engine] = row;
    out[engine] = (config === undefined ? undefined : scalarIn(config, wire, name)) ?? DEFAULT_STATE_CONFIG[engine];
  }
  return out as Partial<StateConfig>;
}

/** The proto path (`config.max_clauses`) of an engine config field (`maxClauses`). */
export function configFieldPath(engineField: string): string {
  if (engineField.startsWith("circuitBreakerThresholds.")) return thresholdPath(engineField.slice("circuitBreakerThresholds.".length));
  const row = SCALARS.find(([, , engine]) => engine === engineField);
  return row === undefined ? "config" : `config.${row[0]}`;
}

/** Runs `fn`, renaming the engine field of a configuration error to its proto path. */
export function withConfigFields<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (isStateError(e, "INVALID_CONFIG") || isStateError(e, "CAPACITY_BELOW_CONTENT")) {
      throw new StateError(e.code, e.message, { field: configFieldPath(e.field ?? ""), cause: e, metadata: e.metadata });
    }
    throw e;
  }
}

/** The wire form of a resolved engine config. */
export function configOut(config: StateConfig): MessageInitShape<typeof ProjectConfigSchema> {
  const out: Record<string, unknown> = { circuitBreakerThresholds: { ...config.circuitBreakerThresholds } };
  for (const [, wire, engine] of SCALARS) {
    const value = config[engine];
    out[wire] = wire === "clauseTtlMs" ? BigInt(value) : value;
  }
  return out as MessageInitShape<typeof ProjectConfigSchema>;
}
