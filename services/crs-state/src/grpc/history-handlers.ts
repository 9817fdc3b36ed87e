import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ServiceHandlers } from "@crs/runtime";
import { encodeMessage, invalidArgument, requireSafeCount } from "@crs/runtime";
import { ChangeSchema } from "@crs/contracts/gen/crs/state/v1/delta_pb";
import type { HistoryService } from "@crs/contracts/gen/crs/state/v1/history_pb";
import type { DeltaRecord } from "@crs/domain/state";
import { CrsStateError } from "../errors.js";
import { changeOut } from "./change-mapper.js";
import type { HandlerDeps } from "./deps.js";
import { explainAnswer, FIELD_OVERHEAD, MAX_EXPLAIN_LISTED } from "./explain-answer.js";
import { requireId, requireKey } from "./ids.js";
import { readAt, readPage, type PageBudget } from "./reads.js";

const MAX_GENERATION = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A range bound as a number. No generation exceeds the largest safe integer, so a larger bound
 * (a caller asking through the newest with 2^64-1) selects the same changes as that integer.
 */
function generationBound(value: bigint): number {
  return value > MAX_GENERATION ? Number.MAX_SAFE_INTEGER : Number(value);
}

type ChangeOut = MessageInitShape<typeof ChangeSchema>;

/**
 * A page of changes: the byte budget (a quarter of the message limit; a thousand full deltas near
 * their size limits would pass the limit many times over, and the client would get
 * RESOURCE_EXHAUSTED instead of a page), measured on the messages the reply then carries, each
 * mapped once.
 */
export function changePage(
  maxMessageBytes: number,
  summaryOnly: boolean,
): { budget: PageBudget<DeltaRecord>; out: (r: DeltaRecord) => ChangeOut } {
  const mapped = new Map<DeltaRecord, ChangeOut>();
  const out = (r: DeltaRecord): ChangeOut => {
    let change = mapped.get(r);
    if (change === undefined) {
      change = changeOut(r, summaryOnly);
      mapped.set(r, change);
    }
    return change;
  };
  return {
    out,
    budget: { bytes: Math.floor(maxMessageBytes / 4), size: (r) => encodeMessage(ChangeSchema, out(r)).byteLength + FIELD_OVERHEAD },
  };
}

/** HistoryService: reads of the change history (one record per applied delta). */
export function historyHandlers({ host, maxMessageBytes }: HandlerDeps): ServiceHandlers<typeof HistoryService.method> {
  return {
    async listChangesInRange(req) {
      requireId(req.projectId, "project_id");
      if (req.toGeneration !== 0n && req.toGeneration < req.fromGeneration) {
        throw invalidArgument("to_generation", "must not be below from_generation");
      }
      const from = generationBound(req.fromGeneration);
      const to = generationBound(req.toGeneration);
      const filters = { from, to, summaryOnly: req.summaryOnly };
      const changes = changePage(maxMessageBytes, req.summaryOnly);
      const page = await readPage(
        host,
        req,
        "listChangesInRange",
        filters,
        (snapshot) => snapshot.deltaHistory.range(from, to === 0 ? snapshot.generation : to),
        changes.budget,
      );
      return { header: page.header, changes: page.rows.map(changes.out), nextPageToken: page.nextPageToken };
    },

    async listChangesByNode(req) {
      requireId(req.projectId, "project_id");
      const nodeId = requireKey(req.nodeId, "node_id");
      const changes = changePage(maxMessageBytes, req.summaryOnly);
      const page = await readPage(
        host,
        req,
        "listChangesByNode",
        { nodeId, summaryOnly: req.summaryOnly },
        (snapshot) => snapshot.deltaHistory.byNode(nodeId),
        changes.budget,
      );
      return { header: page.header, changes: page.rows.map(changes.out), nextPageToken: page.nextPageToken };
    },

    async getChange(req) {
      const projectId = requireId(req.projectId, "project_id");
      const generation = requireSafeCount(req.generation, "generation");
      if (generation < 1) throw invalidArgument("generation", "must be at least 1");
      return readAt(host, projectId, undefined, ({ snapshot, header }) => {
        const record = snapshot.deltaHistory.byGeneration(generation);
        if (record === undefined) {
          throw new CrsStateError("CHANGE_NOT_FOUND", `no retained change produced generation ${generation}`, {
            field: "generation",
            generation: String(generation),
          });
        }
        return { header, change: changeOut(record, false) };
      });
    },

    async explainNode(req) {
      const projectId = requireId(req.projectId, "project_id");
      const nodeId = requireKey(req.nodeId, "node_id");
      if (req.maxChanges > MAX_EXPLAIN_LISTED) throw invalidArgument("max_changes", `must be at most ${MAX_EXPLAIN_LISTED}`);
      const maxChanges = req.maxChanges === 0 ? 100 : req.maxChanges;
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => ({
        header,
        ...explainAnswer(snapshot, nodeId, { maxChanges, maxMessageBytes }),
      }));
    },

    async getHistoryStats(req) {
      const projectId = requireId(req.projectId, "project_id");
      return readAt(host, projectId, undefined, ({ snapshot, view, header }) => {
        const all = snapshot.deltaHistory.all();
        return {
          header,
          size: BigInt(all.length),
          oldestChangeGeneration: BigInt(all[0]?.generation ?? 0),
          newestChangeGeneration: BigInt(all.at(-1)?.generation ?? 0),
          maxRecords: BigInt(view.config.maxDeltaRecords),
        };
      });
    },
  };
}
