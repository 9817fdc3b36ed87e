// Text labels of one AnalyzeRollout answer cut to MAX_LABEL_BYTES. The cut is made once on the
// domain reports, so the typed lists and `report_json` list the same text, and only on the entries
// that are listed (the first MAX_ROWS or MAX_OUTCOMES), so a label past a list's cap sets no flag.
import type { CallOutcome, FoldEvent, FoldedTask, RolloutAnalytics, RolloutMeta, SessionHealth, TaskAnalytics } from "@crs/domain/rollout";
import { MAX_CRITICAL, MAX_LABEL_BYTES, MAX_OUTCOMES, MAX_ROWS } from "./listing-caps.js";

/** What ends a cut label. */
export const CUT_MARK = "…";

const MARK_BYTES = Buffer.byteLength(CUT_MARK);

/**
 * `text` when it has at most `maxBytes` UTF-8 bytes; else its first bytes, cut on a character
 * boundary, then {@link CUT_MARK}, `maxBytes` in all at most.
 */
export function cutLabel(text: string, maxBytes: number = MAX_LABEL_BYTES): string {
  // Three bytes per UTF-16 unit at most: short strings are not measured.
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text) <= maxBytes) return text;
  const bytes = Buffer.from(text);
  let end = maxBytes - MARK_BYTES;
  // A continuation byte (10xxxxxx) is inside a character: step back to its first byte.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return `${bytes.subarray(0, end).toString()}${CUT_MARK}`;
}

/** The reports of one answer with their listed labels cut, and whether any label was. */
export interface LabelledReports {
  readonly analytics: RolloutAnalytics;
  readonly health: SessionHealth | undefined;
  readonly labelsTruncated: boolean;
}

/** Cuts labels and remembers whether it cut any; it hands back the very object when nothing changed. */
class LabelCutter {
  cut = false;

  text(value: string): string {
    const out = cutLabel(value);
    if (out !== value) this.cut = true;
    return out;
  }

  /** The first `max` entries of `items` through `each`, the rest as they are (they are not listed). */
  listed<T>(items: readonly T[], max: number, each: (item: T) => T): readonly T[] {
    let changed = false;
    const out = items.map((item, i) => {
      if (i >= max) return item;
      const next = each(item);
      changed ||= next !== item;
      return next;
    });
    return changed ? out : items;
  }

  /** `item` with the named text fields cut, or `item` itself when none is long. */
  fields<T>(item: T, keys: readonly (keyof T & string)[]): T {
    let out: T = item;
    for (const key of keys) {
      const value = item[key];
      if (typeof value !== "string") continue;
      const cut = this.text(value);
      if (cut !== value) out = { ...out, [key]: cut };
    }
    return out;
  }
}

const META_KEYS = [
  "rolloutId",
  "provider",
  "cliVersion",
  "cwd",
  "originator",
  "source",
  "threadSource",
  "parentThreadId",
] as const satisfies readonly (keyof RolloutMeta)[];
const LIFECYCLE_TASK_KEYS = ["turnId", "startedAt", "endedAt", "reason"] as const satisfies readonly (keyof FoldedTask)[];
const EVENT_KEYS = ["turnId", "timestamp", "reason"] as const satisfies readonly (keyof FoldEvent)[];
const OUTCOME_KEYS = ["turnId", "tool", "reason", "sig"] as const satisfies readonly (keyof CallOutcome)[];

function taskOf(cutter: LabelCutter, t: TaskAnalytics): TaskAnalytics {
  const task = cutter.fields(t, ["turnId"]);
  const critical = cutter.listed(t.critical, MAX_CRITICAL, (c) => cutter.fields(c, ["category"]));
  return critical === t.critical ? task : { ...task, critical };
}

/** The reports of one answer with every listed label at most {@link MAX_LABEL_BYTES} long. */
export function labelledReports(analytics: RolloutAnalytics, health: SessionHealth | undefined): LabelledReports {
  const cutter = new LabelCutter();
  const text = (s: string): string => cutter.text(s);
  const l = analytics.lifecycle;
  const b = analytics.behavior;
  const lifecycle = {
    ...l,
    tasks: cutter.listed(l.tasks, MAX_ROWS, (t) => cutter.fields(t, LIFECYCLE_TASK_KEYS)),
    orphans: cutter.listed(l.orphans, MAX_ROWS, (e) => cutter.fields(e, EVENT_KEYS)),
    reused: cutter.listed(l.reused, MAX_ROWS, text),
    multiplyTerminated: cutter.listed(l.multiplyTerminated, MAX_ROWS, text),
  };
  const behavior = {
    ...b,
    repeatFailures: cutter.listed(b.repeatFailures, MAX_ROWS, (r) => cutter.fields(r, ["tool", "sig"])),
    successLoops: cutter.listed(b.successLoops, MAX_ROWS, (r) => cutter.fields(r, ["tool", "sig"])),
    editChurn: cutter.listed(b.editChurn, MAX_ROWS, (r) => cutter.fields(r, ["file"])),
  };
  const labelled: RolloutAnalytics = {
    ...analytics,
    meta: cutter.fields(analytics.meta, META_KEYS),
    lifecycle,
    tasks: cutter.listed(analytics.tasks, MAX_ROWS, (t) => taskOf(cutter, t)),
    outcomes: cutter.listed(analytics.outcomes, MAX_OUTCOMES, (o) => cutter.fields(o, OUTCOME_KEYS)),
    behavior,
  };
  const healthOut = health === undefined ? undefined : cutter.fields(health, ["session", "model"]);
  return { analytics: labelled, health: healthOut, labelsTruncated: cutter.cut };
}
