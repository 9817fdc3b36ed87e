import type { MessageInitShape } from "@bufbuild/protobuf";
import { ChangeKind, type ChangeSchema, type DeltaSchema } from "@crs/contracts/gen/crs/state/v1/delta_pb";
import { deltaFromJson, describeDelta, type ChangeKind as DomainChangeKind, type Delta, type DeltaRecord } from "@crs/domain/state";
import { deltaTypeOut } from "./delta-mapper.js";
import { sources, statuses } from "./enum-mapper.js";
import { analyticsOut, constraintFields, historyEntryOut } from "./value-mapper.js";

/** The wire form of an engine delta (the inverse of `deltaIn`). */
export function deltaOut(d: Delta): MessageInitShape<typeof DeltaSchema> {
  if (d.kind === "composite") return { kind: { case: "composite", value: { deltas: d.deltas.map(deltaOut) } } };
  const source = sources.toProto(d.source);
  switch (d.kind) {
    case "proof":
      return {
        source,
        kind: {
          case: "proof",
          value: {
            entries: d.updates.map((u) => ({
              nodeId: u.nodeId,
              value: {
                proof: u.proof,
                disproof: u.disproof,
                status: statuses.toProto(u.status),
                source: sources.toProto(u.source),
                updatedAtUnixMs: BigInt(u.updatedAt),
              },
            })),
          },
        },
      };
    case "constraint":
      return {
        source,
        kind: {
          case: "constraint",
          value: { add: d.add.map(constraintFields), remove: [...d.remove], update: d.update.map(constraintFields) },
        },
      };
    case "similarity":
      return { source, kind: { case: "similarity", value: { updates: d.updates.map((u) => ({ a: u.a, b: u.b, distance: u.distance })) } } };
    case "dependency": {
      const edge = (e: { from: string; to: string }) => ({ fromId: e.from, toId: e.to });
      return { source, kind: { case: "dependency", value: { addEdges: d.add.map(edge), removeEdges: d.remove.map(edge) } } };
    }
    case "history":
      return { source, kind: { case: "history", value: { entries: d.entries.map(historyEntryOut) } } };
    case "streaming":
      return {
        source,
        kind: {
          case: "streaming",
          value: { increments: d.increments.map((i) => ({ item: i.item, increment: BigInt(i.count) })), observed: [...d.observed] },
        },
      };
    case "analytics":
      return { source, kind: { case: "analytics", value: { record: analyticsOut(d.record) } } };
  }
}

// Every kind of mutation that writes a record, so a new one does not compile without its wire kind.
export const changeKinds: Readonly<Record<DomainChangeKind, ChangeKind>> = {
  delta_applied: ChangeKind.DELTA_APPLIED,
  cycle_detected: ChangeKind.CYCLE_DETECTED,
};

/** A change record on the wire; `summaryOnly` leaves the delta out. */
export function changeOut(r: DeltaRecord, summaryOnly: boolean): MessageInitShape<typeof ChangeSchema> {
  const delta = deltaFromJson(r.delta);
  return {
    generation: BigInt(r.generation),
    committedAtUnixMs: BigInt(r.at),
    kind: changeKinds[r.changeKind],
    deltaType: deltaTypeOut(r.kind),
    source: sources.toProto(r.source),
    sessionId: r.sessionId,
    label: r.label,
    metadata: { ...r.metadata },
    affectedNodes: [...r.affectedNodes],
    summary: describeDelta(delta),
    ...(summaryOnly ? {} : { delta: deltaOut(delta) }),
  };
}
