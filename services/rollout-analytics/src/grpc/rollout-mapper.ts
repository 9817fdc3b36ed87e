import type { MessageInitShape } from "@bufbuild/protobuf";
import { limitExceeded, requireId, requireSafeCount } from "@crs/runtime";
import {
  foldReportJson,
  isFresh,
  reportJson,
  sessionHealthJson,
  rolloutAnalyticsJson,
  sessionOfFile,
  type RolloutAnalytics,
  type SessionHealth,
} from "@crs/domain/rollout";
import type { AnalyzeRolloutResponseSchema, RolloutUpload } from "@crs/contracts/gen/crs/analytics/v1/rollout_pb";
import { badField, clockRequired } from "../errors.js";
import type { DeclaredContent, ReceivedRollout } from "../upload/index.js";
import { analyticsMessage, metaMessage } from "./rollout-analytics-mapper.js";
import { labelledReports } from "./answer-labels.js";
import { censusMessage } from "./census-mapper.js";
import { MAX_CRITICAL, MAX_OUTCOMES, MAX_ROWS } from "./listing-caps.js";
import { healthMessage } from "./rollout-health-mapper.js";
import { int64 } from "./proto-values.js";
import { lifecycleMessage } from "./rollout-lifecycle-mapper.js";

/** Longest `file_name` and `request_id` accepted, in characters. */
export const MAX_NAME_LENGTH = 1024;

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** A validated upload's metadata, in domain terms. */
export interface UploadRequest extends DeclaredContent {
  readonly projectId: string;
  /** File base name without `.jsonl`; "" when the client gave none. */
  readonly session: string;
  readonly requestId: string;
  readonly nowMs: number;
  /** Whether the rollout may still be written: the fold's input, from the caller's clock. */
  readonly fresh: boolean;
  readonly includeHealth: boolean;
  readonly includeReportJson: boolean;
}

function requireShortText(value: string, field: string): string {
  if (value.length > MAX_NAME_LENGTH)
    throw limitExceeded(field, MAX_NAME_LENGTH, `has ${value.length} characters; at most ${MAX_NAME_LENGTH} are accepted`);
  return value;
}

/** The upload metadata validated, every field named by its proto path. */
export function uploadOf(upload: RolloutUpload): UploadRequest {
  const projectId = requireId(upload.projectId, "upload.project_id");
  if (upload.nowUnixMs <= 0n) throw clockRequired("upload.now_unix_ms");
  const nowMs = requireSafeCount(upload.nowUnixMs, "upload.now_unix_ms");
  const mtimeMs = requireSafeCount(upload.modifiedAtUnixMs, "upload.modified_at_unix_ms");
  const freshWithinMs = requireSafeCount(upload.freshWithinMs, "upload.fresh_within_ms");
  const sha256 = upload.sha256.toLowerCase();
  if (sha256 !== "" && !SHA256_HEX.test(sha256)) throw badField("upload.sha256", "must be 64 hex digits");
  return {
    projectId,
    session: sessionOfFile(requireShortText(upload.fileName, "upload.file_name")),
    requestId: requireShortText(upload.requestId, "upload.request_id"),
    nowMs,
    // The domain's rule, shared with scans: within the window either side of the clock.
    fresh: isFresh({ nowMs, mtimeMs, freshWithinMs }),
    // Exact: a declared size past the server limit is ROLLOUT_TOO_LARGE however large it is.
    sizeBytes: upload.sizeBytes,
    sha256,
    includeHealth: upload.includeHealth,
    includeReportJson: upload.includeReportJson,
  };
}

/** The health session name: the upload's file name, else the rollout id. */
export function sessionName(upload: UploadRequest, analytics: RolloutAnalytics): string {
  return upload.session !== "" ? upload.session : analytics.meta.rolloutId;
}

/**
 * The reference-compatible JSON of one rollout: `{"lifecycle":…,"analytics":…,"health":…}`, its
 * lists capped as the typed reports are, and `labels_truncated: true` after them when a label was cut.
 */
export function rolloutReportJson(analytics: RolloutAnalytics, health: SessionHealth | undefined, labelsTruncated: boolean): string {
  return reportJson({
    lifecycle: foldReportJson(analytics.lifecycle, { maxRows: MAX_ROWS }),
    analytics: rolloutAnalyticsJson(analytics, { maxOutcomes: MAX_OUTCOMES, maxRows: MAX_ROWS, maxCritical: MAX_CRITICAL }),
    ...(health === undefined ? {} : { health: sessionHealthJson(health, { maxRows: MAX_ROWS }) }),
    ...(labelsTruncated ? { labels_truncated: true } : {}),
  });
}

/**
 * The response to an analysed upload, every listed label at most `MAX_LABEL_BYTES` long (the same
 * text typed and in `report_json`); `answer-budget.ts` bounds its encoded size.
 */
export function responseOf(
  upload: UploadRequest,
  received: ReceivedRollout,
  folded: RolloutAnalytics,
  foldedHealth: SessionHealth | undefined,
): MessageInitShape<typeof AnalyzeRolloutResponseSchema> {
  const { analytics, health, labelsTruncated } = labelledReports(folded, foldedHealth);
  return {
    meta: metaMessage(analytics.meta),
    fresh: upload.fresh,
    lifecycle: lifecycleMessage(analytics.lifecycle),
    analytics: analyticsMessage(analytics),
    ...(health === undefined ? {} : { health: healthMessage(health) }),
    census: censusMessage(received.census),
    upload: {
      bytesReceived: int64(received.bytes),
      sha256: received.sha256,
      lines: int64(received.lines),
      linesSkipped: int64(received.linesSkipped),
    },
    reportJson: upload.includeReportJson ? rolloutReportJson(analytics, health, labelsTruncated) : "",
    labelsTruncated,
  };
}
