import { compareText } from "../corpus/order.js";
import { REASON_GRACE, REASON_QUARANTINE_CAP, type ByteCount, type Decision } from "./types.js";
import { addBytes, requireBytes, requireClock, requireCount, requireTime, requireUniqueIds } from "./validate.js";
import { rfc3339 } from "../../go-time.js";

/** One quarantined file. */
export interface QuarantineItem {
  readonly id: string;
  readonly bytes: ByteCount;
  /** When it entered quarantine, Unix ms. */
  readonly quarantinedAtMs: number;
}

/** Grace period and byte bound of the quarantine, with the injected clock. */
export interface QuarantineBound {
  readonly nowMs: number;
  /** 0 means no age limit. */
  readonly maxAgeMs: number;
  /** 0 means no byte bound. */
  readonly maxBytes: ByteCount;
}

/** What stays and what goes; byte figures are exact bigints (render with `retentionJson`). */
export interface QuarantineReceipt {
  /** Always a list, empty when nothing stays. */
  keep: { id: string; bytes: bigint; quarantined_at: string }[];
  purge?: Decision[];
  before_bytes: bigint;
  reclaimed_bytes: bigint;
  after_bytes: bigint;
}

/** A quarantine item with its size made exact. */
interface SizedItem {
  readonly id: string;
  readonly bytes: bigint;
  readonly quarantinedAtMs: number;
}

function purgeRow(item: SizedItem, reason: string): Decision {
  return { id: item.id, class: "expired", bytes: item.bytes, expire: true, reason };
}

// Field names are the request's, so a refusal names what the caller sent.
function validate(items: readonly QuarantineItem[], bound: QuarantineBound): { sized: SizedItem[]; maxBytes: bigint } {
  requireClock(bound.nowMs, "now_unix_ms");
  requireCount(bound.maxAgeMs, "max_age_ms");
  const maxBytes = requireBytes(bound.maxBytes, "max_bytes");
  requireUniqueIds(
    items.map((i) => i.id),
    "items",
  );
  let total = 0n;
  const sized = items.map((it, i) => {
    const bytes = requireBytes(it.bytes, `items[${i}].bytes`);
    // Every byte figure of the receipt is a part of this total, so none can overflow once it fits.
    total = addBytes(total, bytes, `items[${i}].bytes`);
    requireTime(it.quarantinedAtMs, `items[${i}].quarantined_at_unix_ms`);
    return { id: it.id, bytes, quarantinedAtMs: it.quarantinedAtMs };
  });
  return { sized, maxBytes };
}

/** Bounds the quarantine by age then bytes, oldest first; pure and deterministic, byte figures exact. */
export function boundQuarantine(items: readonly QuarantineItem[], bound: QuarantineBound): QuarantineReceipt {
  const { sized, maxBytes } = validate(items, bound);
  const sorted = [...sized].sort((a, b) => a.quarantinedAtMs - b.quarantinedAtMs || compareText(a.id, b.id));
  const purge: Decision[] = [];
  let kept: SizedItem[] = [];
  let before = 0n;
  let after = 0n;
  for (const it of sorted) {
    before += it.bytes;
    if (bound.maxAgeMs > 0 && bound.nowMs - it.quarantinedAtMs > bound.maxAgeMs) purge.push(purgeRow(it, REASON_GRACE));
    else {
      kept.push(it);
      after += it.bytes;
    }
  }
  if (maxBytes > 0n) {
    while (after > maxBytes && kept.length > 0) {
      const [oldest, ...rest] = kept;
      if (oldest === undefined) break;
      purge.push(purgeRow(oldest, REASON_QUARANTINE_CAP));
      after -= oldest.bytes;
      kept = rest;
    }
  }
  return {
    keep: kept.map((it) => ({ id: it.id, bytes: it.bytes, quarantined_at: rfc3339(it.quarantinedAtMs) })),
    ...(purge.length > 0 ? { purge } : {}),
    before_bytes: before,
    reclaimed_bytes: before - after,
    after_bytes: after,
  };
}
