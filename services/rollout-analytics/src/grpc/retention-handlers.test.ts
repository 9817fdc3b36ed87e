import { test } from "node:test";
import assert from "node:assert/strict";
import { credentials, status, type ServiceError } from "@grpc/grpc-js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { createClient, errorDetailOf, type TypedClient } from "@crs/runtime";
import { ProtectReason, RetentionService, type SessionRecordSchema } from "@crs/contracts/gen/crs/analytics/v1/retention_pb";
import { MAX_RETENTION_ID_BYTES } from "./retention-mapper.js";
import { NOW_MS, rejection, withService } from "./test-support.js";

type RetentionClient = TypedClient<typeof RetentionService.method>;
type Session = MessageInitShape<typeof SessionRecordSchema>;

const DAY = 86_400_000n;
const UINT64_MAX = 2n ** 64n - 1n;

async function withRetention(fn: (client: RetentionClient) => Promise<void>): Promise<void> {
  await withService({}, async (_, running) => {
    const client = createClient(RetentionService, `127.0.0.1:${running.port}`, { credentials: credentials.createInsecure() });
    try {
      await fn(client);
    } finally {
      client.close();
    }
  });
}

const old = (id: string, bytes: bigint): Session => ({ id, bytes, modTimeUnixMs: NOW_MS - 30n * DAY });

function assertInvalid(error: ServiceError, field: string): void {
  const detail = errorDetailOf(error);
  assert.deepEqual(
    [error.code, detail?.reason, detail?.metadata["field"]],
    [status.INVALID_ARGUMENT, "INVALID_ARGUMENT", field],
    `${field}: ${error.message}`,
  );
}

const plan = (sessions: Session[]) => ({
  projectId: "demo",
  nowUnixMs: NOW_MS,
  policy: { activeWithinMs: DAY, warmWithinMs: 7n * DAY },
  sessions,
  includeReportJson: true,
});

test("retention byte sums are exact past 2^53, in the typed manifest and in report_json", async () => {
  await withRetention(async (client) => {
    const res = await client.planRetention(plan([old("a", 2n ** 53n - 1n), old("b", 2n), { id: "c", bytes: 1n, modTimeUnixMs: NOW_MS }]));
    const m = res.manifest;
    assert.deepEqual(
      [m?.beforeBytes, m?.reclaimedBytes, m?.afterBytes],
      [9_007_199_254_740_994n, 9_007_199_254_740_993n, 1n],
      "exact sums",
    );
    assert.match(
      res.reportJson,
      /"before_bytes":9007199254740994,"reclaimed_bytes":9007199254740993,"after_bytes":1,/,
      "report_json keeps every digit",
    );
    assert.equal((JSON.parse(res.reportJson) as { decisions: unknown[] }).decisions.length, 3, "report_json parses");
  });
});

test("an unmet cap splits its overage into protected and active bytes, and compacted bytes are reported, in typed fields", async () => {
  await withRetention(async (client) => {
    const sessions: Session[] = [
      { id: "active", bytes: 100n, modTimeUnixMs: NOW_MS },
      { ...old("kept", 50n), modTimeUnixMs: NOW_MS - 3n * DAY, protectReasons: [ProtectReason.ACTIVE_GOAL] },
      { ...old("folded", 30n), compacted: true },
    ];
    const m = (await client.planRetention({ ...plan(sessions), policy: { activeWithinMs: DAY, warmWithinMs: 7n * DAY, rawBytesCap: 60n } }))
      .manifest;
    assert.deepEqual(
      [m?.capSatisfied, m?.afterBytes, m?.protectedOverCapBytes, m?.activeOverCapBytes, m?.compactedBytes],
      [false, 150n, 50n, 40n, 30n],
      "90 bytes over the cap: 50 protected, 40 active; 30 compacted bytes outside the sums",
    );
  });
});

test("sessions up to 2^64 - 1 bytes are planned; a total past it is INVALID_ARGUMENT naming the session, not INTERNAL", async () => {
  await withRetention(async (client) => {
    const res = await client.planRetention(plan([old("a", UINT64_MAX)]));
    assert.deepEqual([res.manifest?.beforeBytes, res.manifest?.reclaimedBytes], [UINT64_MAX, UINT64_MAX], "the largest uint64");
    assertInvalid(await rejection(client.planRetention(plan([old("a", UINT64_MAX), old("b", 1n)]))), "sessions[1].bytes");
    const items = [
      { id: "a", bytes: UINT64_MAX, quarantinedAtUnixMs: NOW_MS },
      { id: "b", bytes: UINT64_MAX, quarantinedAtUnixMs: NOW_MS },
    ];
    assertInvalid(await rejection(client.boundQuarantine({ projectId: "demo", nowUnixMs: NOW_MS, items })), "items[1].bytes");
  });
});

test("a plan without its policy is refused INVALID_ARGUMENT naming policy instead of expiring every session a moment old", async () => {
  await withRetention(async (client) => {
    const { policy: _, ...withoutPolicy } = plan([{ id: "fresh", bytes: 1n, modTimeUnixMs: NOW_MS - 1n }]);
    assertInvalid(await rejection(client.planRetention(withoutPolicy)), "policy");
    // A policy that is sent, even with every window at zero, is the caller's explicit choice.
    const explicit = await client.planRetention({ ...withoutPolicy, policy: { activeWithinMs: 1n } });
    assert.deepEqual(
      explicit.manifest?.decisions.map((d) => [d.id, d.expire]),
      [["fresh", false]],
      "within the active window it is kept",
    );
  });
});

test("out-of-range times are refused under their proto field names", async () => {
  await withRetention(async (client) => {
    const far = 9_000_000_000_000_000n;
    assertInvalid(
      await rejection(client.planRetention(plan([old("a", 1n), { id: "b", bytes: 1n, modTimeUnixMs: far }]))),
      "sessions[1].mod_time_unix_ms",
    );
    const items = [{ id: "a", bytes: 1n, quarantinedAtUnixMs: -far }];
    assertInvalid(
      await rejection(client.boundQuarantine({ projectId: "demo", nowUnixMs: NOW_MS, items })),
      "items[0].quarantined_at_unix_ms",
    );
  });
});

test("a session or quarantine item id over 256 UTF-8 bytes is refused INVALID_ARGUMENT with LIMIT_EXCEEDED naming its path, and one of 256 bytes is planned", async () => {
  assert.equal(MAX_RETENTION_ID_BYTES, 256, "the bound the contract states");
  await withRetention(async (client) => {
    // Two bytes per character: the bound is counted in bytes, not characters.
    const longest = "é".repeat(128);
    const res = await client.planRetention(plan([old("a", 1n), old(longest, 2n)]));
    assert.deepEqual(
      res.manifest?.decisions.map((d) => d.id),
      ["a", longest],
      "a 256-byte id is planned and returned whole",
    );
    const tooLong = `${longest}x`;
    const error = await rejection(client.planRetention(plan([old("a", 1n), old("b", 1n), old("c", 1n), old(tooLong, 1n)])));
    const detail = errorDetailOf(error);
    assert.deepEqual(
      [error.code, detail?.reason, detail?.metadata["field"], detail?.metadata["limit"]],
      [status.INVALID_ARGUMENT, "LIMIT_EXCEEDED", "sessions[3].id", "256"],
      error.message,
    );
    assert.match(error.details, /is 257 bytes; at most 256 are accepted/);
    const items = [
      { id: "a", bytes: 1n, quarantinedAtUnixMs: NOW_MS },
      { id: tooLong, bytes: 1n, quarantinedAtUnixMs: NOW_MS },
    ];
    const itemError = errorDetailOf(await rejection(client.boundQuarantine({ projectId: "demo", nowUnixMs: NOW_MS, items })));
    assert.deepEqual([itemError?.reason, itemError?.metadata["field"]], ["LIMIT_EXCEEDED", "items[1].id"], "items are bounded alike");
  });
});
