/** Import of a document's delta history, in either document format. */

import { List } from "immutable";
import { DELTA_KINDS } from "../delta/delta.js";
import { CHANGE_KINDS, type ChangeKind, type DeltaRecord } from "../delta-history/delta-record.js";
import { invalidArgument } from "../errors.js";
import { frozenCopy } from "../freeze.js";
import type { DeltaRecordDocument, StateDocumentFormat } from "./document.js";

// Format 1 kept no kind: its records were all answered as applied deltas, and that is how they
// still read. Cycle-detection records of format 1 are not recognised by their `cycle_detector`
// label, since a client's delta may carry the same label.
function changeKindOf(r: DeltaRecordDocument, format: StateDocumentFormat, field: string): ChangeKind {
  if (format === 1) {
    if (r.changeKind !== undefined) throw invalidArgument(`${field}.changeKind`, "a format 1 delta record carries no changeKind");
    return "delta_applied";
  }
  if (!CHANGE_KINDS.includes(r.changeKind as ChangeKind)) {
    throw invalidArgument(`${field}.changeKind`, `changeKind must be one of ${CHANGE_KINDS.join(", ")}`);
  }
  return r.changeKind as ChangeKind;
}

/** The delta records of a document of `format` for a state at `generation`, oldest first. */
export function importDeltaRecords(
  records: readonly DeltaRecordDocument[],
  format: StateDocumentFormat,
  generation: number,
): List<DeltaRecord> {
  return List(
    records.map((r, i) => {
      const field = `deltaHistory[${i}]`;
      if (r === null || typeof r !== "object") throw invalidArgument(field, "delta record must be an object");
      const prev = records[i - 1];
      if (!Number.isSafeInteger(r.generation) || (prev !== undefined && r.generation <= prev.generation) || r.generation > generation) {
        throw invalidArgument(`${field}.generation`, "delta records must have increasing generations up to the state's");
      }
      if (r.id !== `delta_${r.generation}`) throw invalidArgument(`${field}.id`, "delta record id must be delta_<generation>");
      if (!DELTA_KINDS.includes(r.kind) || r.delta === null || typeof r.delta !== "object" || r.delta.kind !== r.kind) {
        throw invalidArgument(`${field}.kind`, "delta record kind must match its delta");
      }
      if (!Array.isArray(r.affectedNodes)) throw invalidArgument(`${field}.affectedNodes`, "affectedNodes must be a list");
      if (typeof r.label !== "string") throw invalidArgument(`${field}.label`, "label must be a string");
      return frozenCopy({ ...r, changeKind: changeKindOf(r, format, field) });
    }),
  );
}
