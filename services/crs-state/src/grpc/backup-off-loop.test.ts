import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { TypedClient } from "@crs/runtime";
import type { PersistenceService } from "@crs/contracts/gen/crs/state/v1/persistence_pb";
import { SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { client, closeAll } from "./persistence-test-support.js";
import { startTestServer, type TestServer } from "./test-support.js";

/** A proof delta of `count` nodes whose random ids compress poorly, so gzip has real work. */
const wideProofDelta = (count: number) => ({
  source: SignalSource.SOFT,
  kind: {
    case: "proof" as const,
    value: {
      entries: Array.from({ length: count }, () => ({
        nodeId: `n-${randomBytes(40).toString("hex")}`,
        value: { proof: 1n, disproof: 2n, source: SignalSource.SOFT },
      })),
    },
  },
});

describe("a large backup compressing on the in-process server", () => {
  let s: TestServer;
  let persistence: TypedClient<typeof PersistenceService.method>;
  before(async () => {
    s = await startTestServer();
    persistence = client(s);
    await s.state.createProject({ projectId: "big" });
    // Several megabytes of state document (each entry is in the proof index and in the change history).
    for (let i = 0; i < 4; i++) await s.state.apply({ projectId: "big", delta: wideProofDelta(10_000) });
    await s.state.createProject({ projectId: "small" });
  });
  after(() => closeAll([persistence], [s]));

  it("answers a cheap call sent while a large backup compresses, instead of stalling it until the backup is done", async () => {
    const answered: string[] = [];
    const backup = persistence.createBackup({ projectId: "big" }).then((r) => {
      answered.push("backup");
      return r;
    });
    // Turns enough for the server to read the backup request and start on it; a compression on the
    // event loop would finish the whole backup within the turn that started it.
    for (let i = 0; i < 20; i++) await nextTurn();
    assert.equal(answered.length, 0, "the backup is still compressing");
    await s.state.getGeneration({ projectId: "small" });
    answered.push("cheap");
    const created = await backup;
    assert.deepEqual(answered, ["cheap", "backup"], "the cheap call was answered while the backup compressed");
    assert.ok((created.backup?.uncompressedSize ?? 0n) > 4_000_000n, "a large backup");
    const verified = await persistence.verifyBackup({ projectId: "big", backupId: created.backup?.backupId ?? "" });
    assert.equal(verified.ok, true, "and it verifies, decompressed off the event loop too");
  });
});
