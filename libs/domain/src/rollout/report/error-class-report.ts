import type { CorpusPartial } from "../corpus/types.js";

/** Schema token of the error-class report. */
export const ERROR_CLASS_SCHEMA = "fak-codex-errorclass/1";

/** Event census, abort causes and provider status classes across a corpus. */
export interface ErrorClassReportJson {
  schema: string;
  root: string;
  torn_tails: number;
  payload_types: Record<string, number>;
  unknown_payload_types: Record<string, number>;
  abort_classes: Record<string, number>;
  status_classes: Record<string, number>;
  /** Error events by class (their messages are never kept); omitted when there were none. */
  turn_error_classes?: Record<string, number>;
}

/** Builds the error-class report from a (merged) partial. */
export function errorClassReport(partial: CorpusPartial, options: { readonly root: string }): ErrorClassReportJson {
  const e = partial.errors;
  return {
    schema: ERROR_CLASS_SCHEMA,
    root: options.root,
    torn_tails: e.tornTails,
    payload_types: { ...e.payloadTypes },
    unknown_payload_types: { ...e.unknownPayloadTypes },
    abort_classes: { ...e.abortClasses },
    status_classes: { ...e.statusClasses },
    ...(Object.keys(e.turnErrorClasses ?? {}).length > 0 ? { turn_error_classes: { ...e.turnErrorClasses } } : {}),
  };
}
