import { compareText } from "../corpus/order.js";
import { REASON_AGE, REASON_CAP, type Decision, type RetentionContract, type RetentionManifest, type SessionRecord } from "./types.js";
import { requireClock, requireCount, requireProtectReasons, requireTime, requireUniqueIds } from "./validate.js";

function validate(sessions: readonly SessionRecord[], c: RetentionContract): void {
  requireClock(c.nowMs, "now");
  requireCount(c.activeWithinMs, "active_within");
  requireCount(c.warmWithinMs, "warm_within");
  requireCount(c.rawBytesCap, "raw_bytes_cap");
  requireUniqueIds(sessions.map((s) => s.id), "sessions");
  sessions.forEach((s, i) => {
    requireCount(s.bytes, `sessions[${i}].bytes`);
    requireTime(s.modTimeMs, `sessions[${i}].mod_time`);
    requireProtectReasons(s.protected ?? [], `sessions[${i}].protected`);
  });
}

function classify(s: SessionRecord, c: RetentionContract): Decision {
  const age = c.nowMs - s.modTimeMs;
  const protectedBy = s.protected ?? [];
  const d: Decision = { id: s.id, class: "warm_evidence", bytes: s.bytes };
  if (protectedBy.length > 0) d.protected = [...protectedBy];
  if (s.compacted === true) d.class = "compacted";
  else if (s.live === true || age <= c.activeWithinMs) d.class = "active";
  else if (protectedBy.length === 0 && age > c.warmWithinMs) Object.assign<Decision, Partial<Decision>>(d, { class: "expired", expire: true, reason: REASON_AGE });
  return d;
}

/** Plans which sessions to expire; pure, deterministic, decisions in input order. */
export function decideRetention(sessions: readonly SessionRecord[], contract: RetentionContract): RetentionManifest {
  validate(sessions, contract);
  const decisions = sessions.map((s) => classify(s, contract));
  const raw = decisions.filter((d) => d.class !== "compacted");
  const before = raw.reduce((n, d) => n + d.bytes, 0);
  const reclaimedByAge = raw.filter((d) => d.expire === true).reduce((n, d) => n + d.bytes, 0);
  let after = before - reclaimedByAge;
  const cap = contract.rawBytesCap;
  if (cap > 0 && after > cap) {
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
  const satisfied = cap <= 0 || after <= cap;
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
    const protectedBytes = decisions.filter((d) => d.class === "warm_evidence" && d.protected !== undefined).reduce((n, d) => n + d.bytes, 0);
    manifest.protected_over_cap_bytes = Math.min(over, protectedBytes);
    manifest.active_over_cap_bytes = over - manifest.protected_over_cap_bytes;
  }
  const compacted = decisions.filter((d) => d.class === "compacted").reduce((n, d) => n + d.bytes, 0);
  if (compacted > 0) manifest.compacted_bytes = compacted;
  return manifest;
}
