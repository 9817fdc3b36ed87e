import { compareText } from "../corpus/order.js";
import { REASON_GRACE, REASON_QUARANTINE_CAP, type Decision } from "./types.js";
import { requireClock, requireCount, requireTime, requireUniqueIds } from "./validate.js";

/** One quarantined file. */
export interface QuarantineItem {
  readonly id: string;
  readonly bytes: number;
  /** When it entered quarantine, Unix ms. */
  readonly quarantinedAtMs: number;
}

/** Grace period and byte bound of the quarantine, with the injected clock. */
export interface QuarantineBound {
  readonly nowMs: number;
  /** 0 means no age limit. */
  readonly maxAgeMs: number;
  /** 0 means no byte bound. */
  readonly maxBytes: number;
}

/** What stays and what goes. */
export interface QuarantineReceipt {
  /** Always a list, empty when nothing stays. */
  keep: { id: string; bytes: number; quarantined_at: string }[];
  purge?: Decision[];
  before_bytes: number;
  reclaimed_bytes: number;
  after_bytes: number;
}

function purgeRow(item: QuarantineItem, reason: string): Decision {
  return { id: item.id, class: "expired", bytes: item.bytes, expire: true, reason };
}

/** Bounds the quarantine by age then bytes, oldest first; pure and deterministic. */
export function boundQuarantine(items: readonly QuarantineItem[], bound: QuarantineBound): QuarantineReceipt {
  requireClock(bound.nowMs, "now");
  requireCount(bound.maxAgeMs, "max_age");
  requireCount(bound.maxBytes, "max_bytes");
  requireUniqueIds(items.map((i) => i.id), "items");
  items.forEach((it, i) => {
    requireCount(it.bytes, `items[${i}].bytes`);
    requireTime(it.quarantinedAtMs, `items[${i}].quarantined_at`);
  });
  const sorted = [...items].sort((a, b) => a.quarantinedAtMs - b.quarantinedAtMs || compareText(a.id, b.id));
  const purge: Decision[] = [];
  let kept: QuarantineItem[] = [];
  let before = 0;
  let after = 0;
  for (const it of sorted) {
    before += it.bytes;
    if (bound.maxAgeMs > 0 && bound.nowMs - it.quarantinedAtMs > bound.maxAgeMs) purge.push(purgeRow(it, REASON_GRACE));
    else {
      kept.push(it);
      after += it.bytes;
    }
  }
  if (bound.maxBytes > 0) {
    while (after > bound.maxBytes && kept.length > 0) {
      const [oldest, ...rest] = kept;
      if (oldest === undefined) break;
      purge.push(purgeRow(oldest, REASON_QUARANTINE_CAP));
      after -= oldest.bytes;
      kept = rest;
    }
  }
  return {
    keep: kept.map((it) => ({ id: it.id, bytes: it.bytes, quarantined_at: new Date(it.quarantinedAtMs).toISOString() })),
    ...(purge.length > 0 ? { purge } : {}),
    before_bytes: before,
    reclaimed_bytes: before - after,
    after_bytes: after,
  };
}
