import type { MessageInitShape } from "@bufbuild/protobuf";
import type { FieldMask } from "@bufbuild/protobuf/wkt";
import type { ProjectConfig, ProjectConfigSchema } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { invalidArgument, requireSafeCount } from "@crs/runtime";
import { DEFAULT_STATE_CONFIG, type StateConfig } from "@crs/domain/state";
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
type EngineScalar = Scalar[2];

/** Most per-tool circuit-breaker thresholds a configuration may hold. */
export const MAX_THRESHOLDS = 1000;

function thresholdsIn(map: Readonly<Record<string, number>>): Record<string, number> {
  const entries = Object.entries(map);
  if (entries.length > MAX_THRESHOLDS)
    throw invalidArgument("config.circuit_breaker_thresholds", `at most ${MAX_THRESHOLDS} tools`, "LIMIT_EXCEEDED");
  for (const [tool, value] of entries) {
    requireKey(tool, `config.circuit_breaker_thresholds.${tool}`);
    if (value <= 0) throw invalidArgument(`config.circuit_breaker_thresholds.${tool}`, "must be > 0");
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

/** The config overrides an update mask selects; a named field at zero reverts to the default. */
export function configUpdateIn(config: ProjectConfig | undefined, mask: FieldMask | undefined): Partial<StateConfig> {
  const paths = mask?.paths ?? [];
  if (paths.length === 0) throw invalidArgument("update_mask", "must name at least one field");
  const given = configIn(config);
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    if (path === "circuit_breaker_thresholds") {
      out["circuitBreakerThresholds"] = given.circuitBreakerThresholds ?? DEFAULT_STATE_CONFIG.circuitBreakerThresholds;
      continue;
    }
    const row = SCALARS.find(([name]) => name === path);
    if (row === undefined) throw invalidArgument("update_mask", `unknown field ${path}`);
    const engine: EngineScalar = row[2];
    out[engine] = (given as Record<string, unknown>)[engine] ?? DEFAULT_STATE_CONFIG[engine];
  }
  return out as Partial<StateConfig>;
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
