import type { CorpusPartial } from "../corpus/types.js";

/** Schema token of the error-class report. */
export const ERROR_CLASS_SCHEMA = "fak-codex-errorclass/1";

/** Event census, abort causes and provider status classes across a corpus, in the reference's field names. */
export interface ErrorClassReportJson {
  schema: string;
  root: string;
  /** Rollouts read (in scope). */
  sessions: number;
  unreadable?: number;
  payload_types: Record<string, number>;
  unknown_payload_types: Record<string, number>;
  unknown_payload_total: number;
  rollouts_with_unknown: number;
  torn_tail_rollouts: number;
  turn_aborted: number;
  abort_classes: Record<string, number>;
  task_complete: number;
  terminals_with_class: number;
  provider_error_classes: Record<string, number>;
  /** Error events by class (their messages are never kept); omitted when there were none. */
  turn_error_classes?: Record<string, number>;
}

/** Builds the error-class report from a (merged) partial. */
export function errorClassReport(partial: CorpusPartial, options: { readonly root: string }): ErrorClassReportJson {
  const e = partial.errors;
  return {
    schema: ERROR_CLASS_SCHEMA,
    root: options.root,
    sessions: e.sessions,
    ...(partial.unreadable > 0 ? { unreadable: partial.unreadable } : {}),
    payload_types: { ...e.payloadTypes },
    unknown_payload_types: { ...e.unknownPayloadTypes },
    unknown_payload_total: Object.values(e.unknownPayloadTypes).reduce((n, v) => n + v, 0),
    rollouts_with_unknown: e.rolloutsWithUnknown,
    torn_tail_rollouts: e.tornTails,
    turn_aborted: e.turnAborted,
    abort_classes: { ...e.abortClasses },
    task_complete: e.taskComplete,
    terminals_with_class: e.terminalsWithClass,
    provider_error_classes: { ...e.statusClasses },
    ...(Object.keys(e.turnErrorClasses ?? {}).length > 0 ? { turn_error_classes: { ...e.turnErrorClasses } } : {}),
  };
}
