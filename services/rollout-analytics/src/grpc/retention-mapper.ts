import { invalidArgument, limitExceeded, requireId, requireMaxLength, requireSafeCount } from "@crs/runtime";
import type {
  Decision,
  ProtectReason as ProtectToken,
  QuarantineItem as DomainItem,
  RetentionClass as ClassToken,
  SessionRecord as DomainSession,
} from "@crs/domain/rollout";
import {
  ExpireReason,
  ProtectReason,
  RetentionClass,
  type BoundQuarantineRequest,
  type RetentionDecisionSchema,
  type PlanRetentionRequest,
  type RetentionPolicy,
} from "@crs/contracts/gen/crs/analytics/v1/retention_pb";
import { clockRequired } from "../errors.js";
import type { MessageInitShape } from "@bufbuild/protobuf";

/** Most sessions or quarantine items one request may carry. */
export const MAX_RETENTION_ITEMS = 100_000;

/**
 * Longest session or quarantine item id, in UTF-8 bytes. These ids are opaque labels (the CLI
 * uses rollout paths), not storage keys, so the resource id grammar does not apply; this only
 * bounds the work and the answer an id costs.
 */
export const MAX_RETENTION_ID_BYTES = 256;

const PROTECT_TOKEN: Record<ProtectReason, ProtectToken | undefined> = {
  [ProtectReason.UNSPECIFIED]: undefined,
  [ProtectReason.ACTIVE_GOAL]: "active_goal",
  [ProtectReason.REFEREE_EVIDENCE]: "referee_evidence",
  [ProtectReason.UNRESOLVED_ISSUE]: "unresolved_issue",
  [ProtectReason.PIN]: "pin",
};
const PROTECT_ENUM = new Map(Object.entries(PROTECT_TOKEN).map(([k, v]) => [v, Number(k) as ProtectReason]));

const CLASS_ENUM: Record<ClassToken, RetentionClass> = {
  compacted: RetentionClass.COMPACTED,
  active: RetentionClass.ACTIVE,
  warm_evidence: RetentionClass.WARM_EVIDENCE,
  expired: RetentionClass.EXPIRED,
};

const EXPIRE_ENUM: Record<string, ExpireReason> = {
  age_past_warm_window: ExpireReason.AGE_PAST_WARM_WINDOW,
  raw_bytes_over_cap: ExpireReason.RAW_BYTES_OVER_CAP,
  quarantine_past_grace: ExpireReason.QUARANTINE_PAST_GRACE,
  quarantine_bytes_over_cap: ExpireReason.QUARANTINE_BYTES_OVER_CAP,
};

/** The required, positive clock of a plan. */
export function requireClock(nowUnixMs: bigint, field = "now_unix_ms"): number {
  if (nowUnixMs <= 0n) throw clockRequired(field);
  return requireSafeCount(nowUnixMs, field);
}

/**
 * The plan's policy, which must be sent: an absent one reads as windows of zero, which would
 * expire every session that is neither live nor protected.
 */
export function requirePolicy(policy: RetentionPolicy | undefined): RetentionPolicy {
  if (policy === undefined)
    throw invalidArgument("policy", "is required: without it every session that is not live or protected would expire");
  return policy;
}

/** The latest time a JavaScript Date can hold, in Unix ms: every accepted time can be rendered. */
const MAX_UNIX_MS = 8_640_000_000_000_000n;

// An int64 time within the Date range, named by its proto path when out of it.
function requireUnixMs(value: bigint, field: string): number {
  if (value > MAX_UNIX_MS || value < -MAX_UNIX_MS) throw invalidArgument(field, `must be a Unix millisecond time within ±${MAX_UNIX_MS}`);
  return Number(value);
}

// Ids must be non-empty, bounded and unique; beyond that they are opaque to the planner.
function requireUniqueIds(ids: readonly string[], field: string): void {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (id === "") throw invalidArgument(`${field}[${i}].id`, "is required");
    const bytes = Buffer.byteLength(id, "utf8");
    if (bytes > MAX_RETENTION_ID_BYTES)
      throw limitExceeded(`${field}[${i}].id`, MAX_RETENTION_ID_BYTES, `is ${bytes} bytes; at most ${MAX_RETENTION_ID_BYTES} are accepted`);
    if (seen.has(id)) throw invalidArgument(`${field}[${i}].id`, `duplicates ${JSON.stringify(id)}`);
    seen.add(id);
  });
}

/** Domain sessions from a request, every field validated and named by its proto path. */
export function sessionsOf(request: PlanRetentionRequest): DomainSession[] {
  requireId(request.projectId, "project_id");
  requireMaxLength(request.sessions, MAX_RETENTION_ITEMS, "sessions");
  requireUniqueIds(
    request.sessions.map((s) => s.id),
    "sessions",
  );
  return request.sessions.map((s, i) => ({
    id: s.id,
    // uint64 on the wire, kept exact: the planner adds sizes as bigints.
    bytes: s.bytes,
    modTimeMs: requireUnixMs(s.modTimeUnixMs, `sessions[${i}].mod_time_unix_ms`),
    live: s.live,
    compacted: s.compacted,
    protected: s.protectReasons.map((r, j) => {
      const token = PROTECT_TOKEN[r];
      if (token === undefined) throw invalidArgument(`sessions[${i}].protect_reasons[${j}]`, "must name a protect reason");
      return token;
    }),
  }));
}

/** Domain quarantine items from a request, validated. */
export function itemsOf(request: BoundQuarantineRequest): DomainItem[] {
  requireId(request.projectId, "project_id");
  requireMaxLength(request.items, MAX_RETENTION_ITEMS, "items");
  requireUniqueIds(
    request.items.map((item) => item.id),
    "items",
  );
  return request.items.map((item, i) => ({
    id: item.id,
    bytes: item.bytes,
    quarantinedAtMs: requireUnixMs(item.quarantinedAtUnixMs, `items[${i}].quarantined_at_unix_ms`),
  }));
}

/** The proto form of one domain decision. */
export function decisionMessage(d: Decision): MessageInitShape<typeof RetentionDecisionSchema> {
  return {
    id: d.id,
    retentionClass: CLASS_ENUM[d.class],
    bytes: d.bytes,
    protectReasons: (d.protected ?? []).map((r) => PROTECT_ENUM.get(r) ?? ProtectReason.UNSPECIFIED),
    expire: d.expire ?? false,
    reason: d.reason === undefined ? ExpireReason.UNSPECIFIED : (EXPIRE_ENUM[d.reason] ?? ExpireReason.UNSPECIFIED),
  };
}
