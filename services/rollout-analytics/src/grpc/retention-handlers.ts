import { requireSafeCount, type ServiceHandlers } from "@crs/runtime";
import { boundQuarantine, decideRetention, retentionJson } from "@crs/domain/rollout";
import type { RetentionService } from "@crs/contracts/gen/crs/analytics/v1/retention_pb";
import { decisionMessage, itemsOf, requireClock, requirePolicy, sessionsOf } from "./retention-mapper.js";

/** Retention planning and quarantine bounding: pure, with the caller's clock; byte figures stay exact. */
export function retentionHandlers(): ServiceHandlers<typeof RetentionService.method> {
  return {
    async planRetention(request) {
      const nowMs = requireClock(request.nowUnixMs);
      const sessions = sessionsOf(request);
      const policy = requirePolicy(request.policy);
      const manifest = decideRetention(sessions, {
        nowMs,
        activeWithinMs: requireSafeCount(policy.activeWithinMs, "policy.active_within_ms"),
        warmWithinMs: requireSafeCount(policy.warmWithinMs, "policy.warm_within_ms"),
        rawBytesCap: policy.rawBytesCap,
      });
      return {
        manifest: {
          decisions: manifest.decisions.map(decisionMessage),
          beforeBytes: manifest.before_bytes,
          reclaimedBytes: manifest.reclaimed_bytes,
          afterBytes: manifest.after_bytes,
          rawBytesCap: manifest.raw_bytes_cap,
          capSatisfied: manifest.cap_satisfied,
          protectedOverCapBytes: manifest.protected_over_cap_bytes ?? 0n,
          activeOverCapBytes: manifest.active_over_cap_bytes ?? 0n,
          compactedBytes: manifest.compacted_bytes ?? 0n,
        },
        reportJson: request.includeReportJson ? retentionJson(manifest) : "",
      };
    },
    async boundQuarantine(request) {
      const nowMs = requireClock(request.nowUnixMs);
      const items = itemsOf(request);
      const byId = new Map(items.map((item) => [item.id, item]));
      const receipt = boundQuarantine(items, {
        nowMs,
        maxAgeMs: requireSafeCount(request.bound?.maxAgeMs ?? 0n, "bound.max_age_ms"),
        maxBytes: request.bound?.maxBytes ?? 0n,
      });
      return {
        receipt: {
          purge: (receipt.purge ?? []).map(decisionMessage),
          keep: receipt.keep.map((k) => ({ id: k.id, bytes: k.bytes, quarantinedAtUnixMs: BigInt(byId.get(k.id)?.quarantinedAtMs ?? 0) })),
          beforeBytes: receipt.before_bytes,
          reclaimedBytes: receipt.reclaimed_bytes,
          afterBytes: receipt.after_bytes,
        },
        reportJson: request.includeReportJson ? retentionJson(receipt) : "",
      };
    },
  };
}
