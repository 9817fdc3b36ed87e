import type { Delta as WireDelta } from "@crs/contracts/gen/crs/state/v1/delta_pb";
import { DeltaType } from "@crs/contracts/gen/crs/state/v1/delta_pb";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ApplyMetricsSchema } from "@crs/contracts/gen/crs/state/v1/delta_pb";
import type { AnalyticsRecord as WireRecord } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { invalidArgument, limitExceeded, requireSafeCount } from "@crs/runtime";
import {
  analyticsFoundKey,
  hasResults,
  indexesAffected,
  isHard,
  StateError,
  type AnalyticsRecord,
  type Delta,
  type SignalSource,
} from "@crs/domain/state";
import { CrsStateError } from "../errors.js";
import { INDEX_KINDS, constraintTypes, sources, statuses } from "./enum-mapper.js";
import { MAX_LIST_IDS, optionalKey, optionalKeyPart, requireKey, requireMetadata, requireTextAtMost } from "./ids.js";
import { MAX_STEP_TEXT_BYTES } from "./step-mapper.js";

/** Most entries one delta may carry, over all its children. */
export const MAX_DELTA_ENTRIES = 10_000;
/** Deepest nesting of composite deltas. */
export const MAX_COMPOSITE_DEPTH = 8;

/** Counts entries across a whole delta tree so the limit covers composites too. */
interface Budget {
  entries: number;
}

function spend(budget: Budget, n: number, field: string): void {
  budget.entries += n;
  if (budget.entries > MAX_DELTA_ENTRIES)
    throw limitExceeded(field, MAX_DELTA_ENTRIES, `the delta has more than ${MAX_DELTA_ENTRIES} entries`);
}

// An entry that names no source inherits its delta's, as the contract says.
function entrySource(value: number, inherited: SignalSource, field: string): SignalSource {
  const s = sources.toDomain(value, field);
  return s === "unknown" ? inherited : s;
}

function timestamp(value: bigint, field: string): number {
  return requireSafeCount(value, field);
}

// Texts of an analytics record's lists: result ids, path and cycle members.
const MAX_RESULT_TEXT_BYTES = 512;

// The path and cycles of a record, at most MAX_LIST_IDS ids in all, so a kept record is bounded.
function pathsIn(r: WireRecord, field: string): { path: string[]; cycles: string[][] } {
  const ids = r.path.length + r.cycles.reduce((n, c) => n + c.values.length, 0);
  if (ids > MAX_LIST_IDS)
    throw limitExceeded(`${field}.cycles`, MAX_LIST_IDS, `path and cycles hold ${ids} ids; at most ${MAX_LIST_IDS} are accepted`);
  const text = (id: string, at: string): string => requireTextAtMost(id, MAX_RESULT_TEXT_BYTES, at);
  return {
    path: r.path.map((id, i) => text(id, `${field}.path[${i}]`)),
    cycles: r.cycles.map((c, i) => c.values.map((id, j) => text(id, `${field}.cycles[${i}].values[${j}]`))),
  };
}

/** The engine's analytics record of a wire record; ids and lists checked with proto field names. */
export function analyticsIn(r: WireRecord | undefined, field: string): AnalyticsRecord {
  if (r === undefined) throw invalidArgument(field, "is required");
  const { path, cycles } = pathsIn(r, field);
  return {
    id: optionalKey(r.id, `${field}.id`),
    // The type names the run's marker nodes (`analytics:<type>:found`), which are read back by id.
    queryType: optionalKeyPart(r.queryType, `${field}.query_type`, analyticsFoundKey),
    queryTime: timestamp(r.queryTimeUnixMs, `${field}.query_time_unix_ms`),
    resultCount: requireSafeCount(r.resultCount, `${field}.result_count`),
    results: r.results.map((id, i) => requireTextAtMost(id, MAX_RESULT_TEXT_BYTES, `${field}.results[${i}]`)),
    cycles,
    path,
    executionMs: requireSafeCount(r.executionMs, `${field}.execution_ms`),
    params: requireMetadata(r.params, 64, `${field}.params`),
  };
}

/** The engine's delta for a wire delta; INVALID_ARGUMENT (or DELTA_REQUIRED) naming the proto field. */
export function deltaIn(d: WireDelta | undefined, field = "delta"): Delta {
  return convert(d, field, { entries: 0 }, 1);
}

function convert(d: WireDelta | undefined, field: string, budget: Budget, depth: number): Delta {
  if (d === undefined || d.kind.case === undefined)
    throw new CrsStateError("DELTA_REQUIRED", `${field}: a delta with one kind set is required`, { field });
  const source = sources.toDomain(d.source, `${field}.source`);
  const k = d.kind;
  switch (k.case) {
    case "proof": {
      const at = `${field}.proof.entries`;
      spend(budget, k.value.entries.length, at);
      return {
        kind: "proof",
        source,
        updates: k.value.entries.map((e, i) => {
          const v = e.value;
          if (v === undefined) throw invalidArgument(`${at}[${i}].value`, "is required");
          return {
            nodeId: requireKey(e.nodeId, `${at}[${i}].node_id`),
            proof: v.proof,
            disproof: v.disproof,
            status: statuses.toDomain(v.status, `${at}[${i}].value.status`),
            source: entrySource(v.source, source, `${at}[${i}].value.source`),
            updatedAt: timestamp(v.updatedAtUnixMs, `${at}[${i}].value.updated_at_unix_ms`),
          };
        }),
      };
    }
    case "constraint": {
      const at = `${field}.constraint`;
      const c = k.value;
      spend(budget, c.add.length + c.remove.length + c.update.length, at);
      const one = (x: (typeof c.add)[number], f: string) => ({
        id: requireKey(x.id, `${f}.id`),
        type: constraintTypes.toDomain(x.type, `${f}.type`),
        nodes: x.nodes.map((n, i) => requireKey(n, `${f}.nodes[${i}]`)),
        expression: x.expression,
        active: x.active,
        source: entrySource(x.source, source, `${f}.source`),
        createdAt: timestamp(x.createdAtUnixMs, `${f}.created_at_unix_ms`),
      });
      return {
        kind: "constraint",
        source,
        add: c.add.map((x, i) => one(x, `${at}.add[${i}]`)),
        remove: c.remove.map((id, i) => requireKey(id, `${at}.remove[${i}]`)),
        update: c.update.map((x, i) => one(x, `${at}.update[${i}]`)),
      };
    }
    case "similarity": {
      const at = `${field}.similarity.updates`;
      spend(budget, k.value.updates.length, at);
      // Each unordered pair at most once, as the contract says: two distances for one pair in one
      // delta have no order the caller could mean. Checked here, on requests, and not in the engine,
      // so journals written before the rule still replay.
      // A lone update cannot repeat a pair: no set of pairs for it (most deltas carry one).
      const pairs = k.value.updates.length > 1 ? new Set<string>() : undefined;
      return {
        kind: "similarity",
        source,
        updates: k.value.updates.map((u, i) => {
          const a = requireKey(u.a, `${at}[${i}].a`);
          const b = requireKey(u.b, `${at}[${i}].b`);
          if (pairs !== undefined) {
            const pair = a < b ? `${a} ${b}` : `${b} ${a}`;
            if (pairs.has(pair))
              throw new StateError("INVALID_DELTA", `duplicate similarity update for pair ${a}-${b}`, { field: `${at}[${i}].b` });
            pairs.add(pair);
          }
          return { a, b, distance: u.distance };
        }),
      };
    }
    case "dependency": {
      const at = `${field}.dependency`;
      spend(budget, k.value.addEdges.length + k.value.removeEdges.length, at);
      const edge = (e: { fromId: string; toId: string }, f: string) => ({
        from: requireKey(e.fromId, `${f}.from_id`),
        to: requireKey(e.toId, `${f}.to_id`),
      });
      return {
        kind: "dependency",
        source,
        add: k.value.addEdges.map((e, i) => edge(e, `${at}.add_edges[${i}]`)),
        remove: k.value.removeEdges.map((e, i) => edge(e, `${at}.remove_edges[${i}]`)),
      };
    }
    case "history": {
      const at = `${field}.history.entries`;
      spend(budget, k.value.entries.length, at);
      return {
        kind: "history",
        source,
        entries: k.value.entries.map((e, i) => ({
          id: requireKey(e.id, `${at}[${i}].id`),
          nodeId: optionalKey(e.nodeId, `${at}[${i}].node_id`),
          action: requireTextAtMost(e.action, MAX_STEP_TEXT_BYTES, `${at}[${i}].action`),
          result: requireTextAtMost(e.result, MAX_STEP_TEXT_BYTES, `${at}[${i}].result`),
          source: entrySource(e.source, source, `${at}[${i}].source`),
          timestamp: timestamp(e.timestampUnixMs, `${at}[${i}].timestamp_unix_ms`),
          metadata: requireMetadata(e.metadata, 64, `${at}[${i}].metadata`),
        })),
      };
    }
    case "streaming": {
      const at = `${field}.streaming`;
      spend(budget, k.value.increments.length + k.value.observed.length, at);
      return {
        kind: "streaming",
        source,
        increments: k.value.increments.map((inc, i) => ({
          item: requireKey(inc.item, `${at}.increments[${i}].item`),
          count: requireSafeCount(inc.increment, `${at}.increments[${i}].increment`),
        })),
        observed: k.value.observed.map((item, i) => requireKey(item, `${at}.observed[${i}]`)),
      };
    }
    case "analytics":
      spend(budget, 1, `${field}.analytics`);
      return { kind: "analytics", source, record: analyticsIn(k.value.record, `${field}.analytics.record`) };
    case "composite": {
      const at = `${field}.composite.deltas`;
      if (depth >= MAX_COMPOSITE_DEPTH) throw limitExceeded(at, MAX_COMPOSITE_DEPTH, `composites nest at most ${MAX_COMPOSITE_DEPTH} deep`);
      const deltas = k.value.deltas.map((c, i) => convert(c, `${at}[${i}]`, budget, depth + 1));
      // A composite cannot vouch for more than it is: a soft one carries only soft children, as a
      // soft delta carries only soft entries.
      const hard = source === "soft" ? deltas.findIndex(carriesHard) : -1;
      if (hard >= 0)
        throw new StateError(
          "HARD_SIGNAL_VIOLATION",
          `soft signal cannot perform hard action: a soft composite cannot carry a hard delta`,
          {
            field: `${at}[${hard}].source`,
          },
        );
      return { kind: "composite", deltas };
    }
  }
}

// True when the delta, or any delta a composite nests, has a hard or safety source.
function carriesHard(d: Delta): boolean {
  return d.kind === "composite" ? d.deltas.some(carriesHard) : isHard(d.source);
}

const DELTA_TYPES: Record<Delta["kind"], DeltaType> = {
  proof: DeltaType.PROOF,
  constraint: DeltaType.CONSTRAINT,
  similarity: DeltaType.SIMILARITY,
  dependency: DeltaType.DEPENDENCY,
  history: DeltaType.HISTORY,
  streaming: DeltaType.STREAMING,
  composite: DeltaType.COMPOSITE,
  analytics: DeltaType.ANALYTICS,
};

/** Wire type of an engine delta kind. */
export function deltaTypeOut(kind: Delta["kind"]): DeltaType {
  return DELTA_TYPES[kind];
}

/** Number of entries a delta writes or removes. */
export function entryCount(d: Delta): number {
  switch (d.kind) {
    case "proof":
      return d.updates.length;
    case "constraint":
      return d.add.length + d.remove.length + d.update.length;
    case "similarity":
      return d.updates.length;
    case "dependency":
      return d.add.length + d.remove.length;
    case "history":
      return d.entries.length;
    case "streaming":
      return d.increments.length + d.observed.length;
    case "analytics":
      // The history record and its done marker, and its found marker when the run found something.
      return hasResults(d.record) ? 3 : 2;
    case "composite":
      return d.deltas.reduce((n, c) => n + entryCount(c), 0);
  }
}

/** What an apply did, from the delta and the generations around it. */
export function applyMetricsOut(
  d: Delta,
  before: number,
  after: number,
  timing: { validationMs: number; applyMs: number },
): MessageInitShape<typeof ApplyMetricsSchema> {
  return {
    deltaType: deltaTypeOut(d.kind),
    validationDurationMs: timing.validationMs,
    applyDurationMs: timing.applyMs,
    indexesUpdated: indexesAffected(d)
      .map((name) => INDEX_KINDS[name])
      .sort((a, b) => a - b),
    entriesModified: BigInt(entryCount(d)),
    oldGeneration: BigInt(before),
    newGeneration: BigInt(after),
  };
}
