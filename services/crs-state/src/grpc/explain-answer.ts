import type { DescMessage, MessageInitShape } from "@bufbuild/protobuf";
import { encodeMessage } from "@crs/runtime";
import { ChangeSchema } from "@crs/contracts/gen/crs/state/v1/delta_pb";
import type { ExplainNodeResponseSchema } from "@crs/contracts/gen/crs/state/v1/history_pb";
import { ConstraintSchema, HistoryEntrySchema } from "@crs/contracts/gen/crs/state/v1/types_pb";
import type { ProofNumber, Snapshot } from "@crs/domain/state";
import { changeOut } from "./change-mapper.js";
import { constraintOut, historyEntryOut, proofEntryOut } from "./value-mapper.js";

/** Most entries ExplainNode lists per list. */
export const MAX_EXPLAIN_LISTED = 1000;

/**
 * Bytes an ExplainNode answer keeps for all but its lists: the header (about 200), the proof entry
 * (a 512-character node id and its numbers), the omitted counts, the flags and their framing.
 */
export const EXPLAIN_RESERVE_BYTES = 2048;

/** Bytes a repeated field adds around each entry: the tag and a length of up to 5 bytes. */
export const FIELD_OVERHEAD = 6;

/**
 * Each list's share of the message limit less the reserve; they add up to one, so the answer stays
 * under the limit whatever its entries weigh. Changes get a quarter, as a change page does; the
 * edge lists, whose 1000 ids of at most 512 characters take about 0.5 MiB, an eighth.
 */
const SHARES = { constraints: 1 / 4, dependsOn: 1 / 8, dependedBy: 1 / 8, history: 1 / 4, changes: 1 / 4 } as const;

type Answer = MessageInitShape<typeof ExplainNodeResponseSchema>;

/** A list cut to its count cap and byte budget: what it keeps and how much of the full list it leaves out. */
interface Fitted<M> {
  readonly kept: M[];
  readonly omitted: number;
  readonly byBytes: boolean;
}

/** How one list of the answer is cut and sent. */
interface ListRule<T, M> {
  /** Most entries listed. */
  readonly cap: number;
  /** Most bytes the entries listed may take, encoded. */
  readonly bytes: number;
  /** Keep the last entries (the newest) rather than the first. */
  readonly newest: boolean;
  /** The entry as sent. */
  readonly out: (entry: T) => M;
  /** Its encoded size, without the field's framing. */
  readonly size: (message: M) => number;
}

/**
 * Keeps at most `cap` entries of `all` (from the end `newest` names), and of those the most whose
 * encoded sizes add up to at most `bytes` from the same end: none when the first alone passes it,
 * since the answer has no further page to carry it. Only the entries within the cap are mapped.
 */
function fit<T, M>(all: readonly T[], rule: ListRule<T, M>): Fitted<M> {
  const capped = rule.newest ? all.slice(Math.max(0, all.length - rule.cap)).reverse() : all.slice(0, rule.cap);
  const kept: M[] = [];
  let used = 0;
  for (const entry of capped) {
    const message = rule.out(entry);
    used += rule.size(message) + FIELD_OVERHEAD;
    if (used > rule.bytes) break;
    kept.push(message);
  }
  if (rule.newest) kept.reverse();
  return { kept, omitted: all.length - kept.length, byBytes: kept.length < capped.length };
}

const sizeOf =
  <S extends DescMessage>(schema: S) =>
  (message: MessageInitShape<S>): number =>
    encodeMessage(schema, message).byteLength;
const asIs = (id: string): string => id;

/** What bounds an ExplainNode answer. */
export interface ExplainLimits {
  /** Most changes of the causal chain listed. */
  readonly maxChanges: number;
  /** The server's message limit. */
  readonly maxMessageBytes: number;
}

/**
 * The lists of an ExplainNode answer for `nodeId` at `snapshot`, each capped by count and by its
 * share of the message limit, with what was cut.
 */
export function explainAnswer(snapshot: Snapshot, nodeId: string, limits: ExplainLimits): Omit<Answer, "header" | "$typeName"> {
  const bytes = (share: number) => Math.floor((limits.maxMessageBytes - EXPLAIN_RESERVE_BYTES) * share);
  const cap = MAX_EXPLAIN_LISTED;
  const proof = snapshot.proof.get(nodeId);
  const constraints = fit(snapshot.constraints.findByNode(nodeId), {
    cap,
    bytes: bytes(SHARES.constraints),
    newest: false,
    out: (c) => constraintOut(snapshot, c),
    size: sizeOf(ConstraintSchema),
  });
  const ids = { cap, newest: false, out: asIs, size: Buffer.byteLength };
  const dependsOn = fit(snapshot.dependency.dependsOn(nodeId), { ...ids, bytes: bytes(SHARES.dependsOn) });
  const dependedBy = fit(snapshot.dependency.dependedBy(nodeId), { ...ids, bytes: bytes(SHARES.dependedBy) });
  const history = fit(snapshot.history.trace(nodeId), {
    cap,
    bytes: bytes(SHARES.history),
    newest: true,
    out: historyEntryOut,
    size: sizeOf(HistoryEntrySchema),
  });
  const changes = fit(snapshot.deltaHistory.explain(nodeId), {
    cap: limits.maxChanges,
    bytes: bytes(SHARES.changes),
    newest: true,
    out: (r) => changeOut(r, true),
    size: sizeOf(ChangeSchema),
  });
  const lists = [constraints, dependsOn, dependedBy, history, changes];
  return {
    ...(proof === undefined ? {} : { proof: proofEntryOut(snapshot, nodeId, proof as ProofNumber) }),
    constraints: constraints.kept,
    dependsOn: dependsOn.kept,
    dependedBy: dependedBy.kept,
    history: history.kept,
    changes: changes.kept,
    truncated: lists.some((l) => l.omitted > 0),
    omitted: {
      constraints: constraints.omitted,
      dependsOn: dependsOn.omitted,
      dependedBy: dependedBy.omitted,
      history: history.omitted,
      changes: changes.omitted,
    },
    sizeLimited: lists.some((l) => l.byBytes),
  };
}
