import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ServiceHandlers } from "@crs/runtime";
import { invalidArgument } from "@crs/runtime";
import { ChangeKind } from "@crs/contracts/gen/crs/state/v1/delta_pb";
import type { WatchResponseSchema, WatchService } from "@crs/contracts/gen/crs/state/v1/watch_pb";
import type { ChangeKind as DomainChangeKind, DeltaRecord } from "@crs/domain/state";
import { CrsStateError, generationInFuture } from "../errors.js";
import type { ProjectView } from "../projects/index.js";
import { changeKinds, changeOut } from "./change-mapper.js";
import type { HandlerDeps } from "./deps.js";
import { changePage } from "./history-handlers.js";
import { MAX_LIST_IDS, optionalId, requireAtMost, requireId, requireKey } from "./ids.js";
import { fitBudget, responseHeader } from "./reads.js";
import { MAX_QUEUED_WATCH_MESSAGES, stateReplaced, WatchQueue } from "./watch-queue.js";

/** Longest progress interval: a day (timers take at most 2^31-1 ms, and a longer silence tells a client nothing). */
export const MAX_PROGRESS_INTERVAL_MS = 86_400_000;
/** Most changes one catch-up message carries (its bytes are bounded too, as a history page's are). */
const CATCH_UP_CHANGES = 1000;

type WatchOut = MessageInitShape<typeof WatchResponseSchema>;

/** The open watches of a server, for its metrics. */
export interface WatchRegistry {
  /** Each open watch's queue. */
  readonly open: Set<{ readonly size: number }>;
}

const KNOWN_KINDS = new Set<number>(Object.values(ChangeKind).filter((v): v is number => typeof v === "number"));
const DOMAIN_KINDS = new Map<ChangeKind, DomainChangeKind>(
  Object.entries(changeKinds).map(([domain, wire]) => [wire, domain as DomainChangeKind]),
);

/** The filter of a watch request, validated; INVALID_ARGUMENT naming the field otherwise. */
function filterOf(kinds: readonly ChangeKind[], nodeIds: readonly string[]): (r: DeltaRecord) => boolean {
  requireAtMost(kinds, MAX_LIST_IDS, "kinds");
  requireAtMost(nodeIds, MAX_LIST_IDS, "node_ids");
  kinds.forEach((k, i) => {
    if (!KNOWN_KINDS.has(k)) throw invalidArgument(`kinds[${i}]`, `${k} is not a ChangeKind`);
  });
  const nodes = new Set(nodeIds.map((n, i) => requireKey(n, `node_ids[${i}]`)));
  // UNSPECIFIED in the list means every kind; kinds the history never records match nothing.
  const every = kinds.length === 0 || kinds.includes(ChangeKind.UNSPECIFIED);
  const wanted = new Set(kinds.flatMap((k) => DOMAIN_KINDS.get(k) ?? []));
  return (r) => (every || wanted.has(r.changeKind)) && (nodes.size === 0 || r.affectedNodes.some((n) => nodes.has(n)));
}

/**
 * The changes from `start` (inclusive) through the committed generation; GENERATION_IN_FUTURE past
 * the generation after it, GENERATION_COMPACTED below the oldest one the history still holds or at
 * or before the state's last replacement (a restore or import), which no change leads across.
 */
function catchUp(view: ProjectView, start: number | undefined): readonly DeltaRecord[] {
  const current = view.header.generation;
  if (start === undefined) return [];
  if (start > current + 1) throw generationInFuture("start_generation", start, current);
  const history = view.snapshot.deltaHistory;
  // A full history has dropped older changes: it is complete only from its oldest record on.
  const oldest = history.size() >= view.config.maxDeltaRecords ? (history.all()[0]?.generation ?? 0) : 0;
  const replacedAt = view.snapshot.state.replacedGeneration;
  if (start <= replacedAt) {
    // As a live watch ends at a replacement: one recovery, a snapshot and a watch after it.
    throw stateReplaced(view.header, replacedAt, Math.max(replacedAt, oldest));
  }
  if (start < oldest) {
    throw new CrsStateError("GENERATION_COMPACTED", `start_generation: changes before generation ${oldest} are no longer retained`, {
      field: "start_generation",
      oldest_generation: String(oldest),
      current_generation: String(current),
    });
  }
  return history.range(start - 1, current);
}

/** WatchService: a project's committed changes as a stream, like etcd Watch. */
export function watchHandlers(
  { host, maxMessageBytes }: HandlerDeps,
  registry: WatchRegistry,
): ServiceHandlers<typeof WatchService.method> {
  return {
    async *watch(req, ctx): AsyncIterable<WatchOut> {
      const projectId = requireId(req.projectId, "project_id");
      const expectedUid = optionalId(req.expectedProjectUid, "expected_project_uid");
      let start: number | undefined;
      if (req.startGeneration !== undefined) {
        if (req.startGeneration < 1n) throw invalidArgument("start_generation", "must be at least 1");
        // Beyond any generation a project can reach: in the future whatever the project's.
        start = req.startGeneration > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(req.startGeneration);
      }
      if (req.progressIntervalMs > MAX_PROGRESS_INTERVAL_MS)
        throw invalidArgument("progress_interval_ms", `must be at most ${MAX_PROGRESS_INTERVAL_MS}`);
      const match = filterOf(req.kinds, req.nodeIds);
      let unsubscribe = (): void => undefined;
      const queue = new WatchQueue({
        match,
        limit: MAX_QUEUED_WATCH_MESSAGES,
        failed: (error) => {
          // Stop hearing at once, and end the call even while a message waits for the client to read.
          unsubscribe();
          ctx.end(error);
        },
      });
      // Listening first and reading after leaves no gap: what commits in between is heard, and
      // the queue drops what the read's catch-up already holds.
      unsubscribe = host.commits.subscribe(projectId, (event) => queue.hear(event));
      registry.open.add(queue);
      try {
        const { records, header } = await host.read(
          projectId,
          (view) => {
            const found = catchUp(view, start).filter(match);
            queue.open(view.header);
            return { records: found, header: view.header };
          },
          expectedUid === "" ? {} : { expectedUid },
        );
        const opened = responseHeader(header);
        yield { header: opened, created: true };
        const page = changePage(maxMessageBytes, req.summaryOnly);
        for (let i = 0; i < records.length; ) {
          const end = fitBudget(records, i, Math.min(records.length, i + CATCH_UP_CHANGES), page.budget);
          yield { header: opened, changes: records.slice(i, end).map(page.out) };
          i = end;
        }
        for (;;) {
          const next = await queue.next(ctx.signal, req.progressIntervalMs);
          const changes = next?.records.map((r) => changeOut(r, req.summaryOnly)) ?? [];
          yield { header: responseHeader(queue.header), changes };
        }
      } finally {
        unsubscribe();
        registry.open.delete(queue);
      }
    },
  };
}
