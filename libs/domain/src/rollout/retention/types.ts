/** Retention class of a session. */
export type RetentionClass = "compacted" | "active" | "warm_evidence" | "expired";

/** Why a session must be kept whatever its age. */
export type ProtectReason = "active_goal" | "referee_evidence" | "unresolved_issue" | "pin";

/** The accepted protect reasons. */
export const PROTECT_REASONS: readonly ProtectReason[] = ["active_goal", "referee_evidence", "unresolved_issue", "pin"];

/** Expiry reason for sessions past the warm window. */
export const REASON_AGE = "age_past_warm_window";
/** Expiry reason for sessions expired to meet the byte cap. */
export const REASON_CAP = "raw_bytes_over_cap";
/** Purge reason for quarantine items past their grace period. */
export const REASON_GRACE = "quarantine_past_grace";
/** Purge reason for quarantine items over the byte bound. */
export const REASON_QUARANTINE_CAP = "quarantine_bytes_over_cap";

/** A byte count: a safe integer or a bigint; totals are kept exact as bigints. */
export type ByteCount = number | bigint;

/** The largest byte count or byte total a plan carries (a uint64 on the wire). */
export const MAX_BYTES = 2n ** 64n - 1n;

/** One stored session offered to the planner. */
export interface SessionRecord {
  readonly id: string;
  readonly bytes: ByteCount;
  /** Last modification, Unix ms. */
  readonly modTimeMs: number;
  /** An open writer. */
  readonly live?: boolean;
  /** Already reduced to a scrubbed aggregate. */
  readonly compacted?: boolean;
  readonly protected?: readonly ProtectReason[];
}

/** The policy and the injected clock. */
export interface RetentionContract {
  /** Plan time, Unix ms; required. */
  readonly nowMs: number;
  readonly activeWithinMs: number;
  readonly warmWithinMs: number;
  /** 0 means no cap. */
  readonly rawBytesCap: ByteCount;
}

/** The planner's verdict on one session or quarantine item. */
export interface Decision {
  id: string;
  class: RetentionClass;
  bytes: bigint;
  protected?: ProtectReason[];
  expire?: boolean;
  reason?: string;
}

/** The retention plan; byte figures are exact bigints (render with `retentionJson`). */
export interface RetentionManifest {
  decisions: Decision[];
  before_bytes: bigint;
  reclaimed_bytes: bigint;
  after_bytes: bigint;
  raw_bytes_cap: bigint;
  cap_satisfied: boolean;
  /** Over-cap bytes held by protected sessions. */
  protected_over_cap_bytes?: bigint;
  /** Over-cap bytes held by active sessions. */
  active_over_cap_bytes?: bigint;
  /** Bytes of compacted sessions, outside all other arithmetic. */
  compacted_bytes?: bigint;
}
