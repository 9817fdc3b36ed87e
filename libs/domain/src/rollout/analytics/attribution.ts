import type { RolloutRecord } from "../decode/record.js";
import type { FoldReport } from "../lifecycle/types.js";

/** For each record, the index of the task it falls in (-1 before the first start). */
export function attributeRecords(records: readonly RolloutRecord[], report: FoldReport): Int32Array {
  const index = new Map<string, number>();
  const opened = new Map<number, number>();
  report.tasks.forEach((t, i) => {
    // Implicit tasks are placed by the record that opened them, never by their synthetic id.
    if (t.implicit) {
      if (t.openedAt !== null) opened.set(t.openedAt, i);
    } else if (!index.has(t.turnId)) index.set(t.turnId, i);
  });
  const taskOf = new Int32Array(records.length);
  let current = -1;
  records.forEach((r, i) => {
    current = opened.get(i) ?? current;
    // A reused id switches back to its original row; an empty id switches nothing.
    if (r.kind === "task_started" && r.turnId !== "") current = index.get(r.turnId) ?? current;
    taskOf[i] = current;
  });
  return taskOf;
}
