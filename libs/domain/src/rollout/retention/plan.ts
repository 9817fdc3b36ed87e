import { compareText } from "../corpus/order.js";
import { REASON_AGE, REASON_CAP, type Decision, type RetentionContract, type RetentionManifest, type SessionRecord } from "./types.js";
import { addBytes, requireBytes, requireClock, requireCount, requireProtectReasons, requireTime, requireUniqueIds } from "./validate.js";

/** A session with its size made exact, checked in input order. */
interface Sized {
  readonly session: SessionRecord;
  readonly bytes: bigint;
}

// Field names are the request's, so a refusal names what the caller sent.
function validate(sessions: readonly SessionRecord[], c: RetentionContract): { sized: Sized[]; cap: bigint } {
  requireClock(c.nowMs, "now_unix_ms");
  requireCount(c.activeWithinMs, "active_within_ms");
  requireCount(c.warmWithinMs, "warm_within_ms");
  const cap = requireBytes(c.rawBytesCap, "raw_bytes_cap");
  requireUniqueIds(
    sessions.map((s) => s.id),
    "sessions",
  );
  let total = 0n;
  const sized = sessions.map((s, i) => {
    const bytes = requireBytes(s.bytes, `sessions[${i}].bytes`);
    // Every byte figure of the plan is a part of this total, so none can overflow once it fits.
    total = addBytes(total, bytes, `sessions[${i}].bytes`);
    requireTime(s.modTimeMs, `sessions[${i}].mod_time_unix_ms`);
    requireProtectReasons(s.protected ?? [], `sessions[${i}].protect_reasons`);
    return { session: s, bytes };
  });
  return { sized, cap };
}

function classify({ session: s, bytes }: Sized, c: RetentionContract): Decision {
  const age = c.nowMs - s.modTimeMs;
  const protectedBy = s.protected ?? [];
  const d: Decision = { id: s.id, class: "warm_evidence", bytes };
  if (protectedBy.length > 0) d.protected = [...protectedBy];
  if (s.compacted === true) d.class = "compacted";
  else if (s.live === true || age <= c.activeWithinMs) d.class = "active";
  else if (protectedBy.length === 0 && age > c.warmWithinMs)
    Object.assign<Decision, Partial<Decision>>(d, { class: "expired", expire: true, reason: REASON_AGE });
  return d;
}

function sumBytes(decisions: readonly Decision[]): bigint {
  return decisions.reduce((n, d) => n + d.bytes, 0n);
}

/** Plans which sessions to expire; pure, deterministic, decisions in input order, byte figures exact. */
export function decideRetention(sessions: readonly SessionRecord[], contract: RetentionContract): RetentionManifest {
  const { sized, cap } = validate(sessions, contract);
  const decisions = sized.map((x) => classify(x, contract));
  const raw = decisions.filter((d) => d.class !== "compacted");
  const before = sumBytes(raw);
  let after = before - sumBytes(raw.filter((d) => d.expire === true));
  if (cap > 0n && after > cap) {
    // Only unprotected warm evidence may go for the cap: oldest first, then by id.
    const candidates = sessions
      .map((s, i) => ({ s, d: decisions[i] }))
      .filter((x): x is { s: SessionRecord; d: Decision } => x.d?.class === "warm_evidence" && x.d.protected === undefined)
      .sort((x, y) => x.s.modTimeMs - y.s.modTimeMs || compareText(x.s.id, y.s.id));
    for (const { d } of candidates) {
      if (after <= cap) break;
      Object.assign<Decision, Partial<Decision>>(d, { class: "expired", expire: true, reason: REASON_CAP });
      after -= d.bytes;
    }
  }
  const satisfied = cap <= 0n || after <= cap;
  const manifest: RetentionManifest = {
    decisions,
    before_bytes: before,
    reclaimed_bytes: before - after,
    after_bytes: after,
    raw_bytes_cap: cap,
    cap_satisfied: satisfied,
  };
  if (!satisfied) {
    const over = after - cap;
    const protectedBytes = sumBytes(decisions.filter((d) => d.class === "warm_evidence" && d.protected !== undefined));
    manifest.protected_over_cap_bytes = over < protectedBytes ? over : protectedBytes;
    manifest.active_over_cap_bytes = over - manifest.protected_over_cap_bytes;
  }
  const compacted = sumBytes(decisions.filter((d) => d.class === "compacted"));
  if (compacted > 0n) manifest.compacted_bytes = compacted;
  return manifest;
}
