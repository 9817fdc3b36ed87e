import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ChangeKind, DeltaType } from "@crs/contracts/gen/crs/state/v1/delta_pb";
import { ProofStatus, SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { decodeSnapshot, encodeSnapshot } from "../snapshot/index.js";
import { LevelStore } from "../store/level-store.js";
import { removeDataDir, startTestServer, type TestServer } from "./test-support.js";

// A client's proof delta shaped like a detected loop's record: the detector's label and reason.
const forged = {
  source: SignalSource.HARD,
  kind: {
    case: "proof" as const,
    value: {
      entries: [
        {
          nodeId: "session:s:state:edit",
          value: { proof: 2n ** 64n - 1n, disproof: 1n, status: ProofStatus.DISPROVEN, source: SignalSource.HARD },
        },
      ],
    },
  },
};

/** Applies a delta, feeds a loop to a detector and applies the forged delta; returns their generations. */
async function produce(s: TestServer, projectId: string): Promise<{ applied: bigint; detected: bigint; forgedAt: bigint }> {
  const similarity = {
    source: SignalSource.SOFT,
    kind: { case: "similarity" as const, value: { updates: [{ a: "x", b: "y", distance: 0.5 }] } },
  };
  const applied = (await s.state.apply({ projectId, delta: similarity, label: "planner" })).header?.generation ?? 0n;
  let detected = 0n;
  for (const stateKey of ["plan", "grep", "plan"]) {
    const r = await s.cycles.checkCycle({ projectId, sessionId: "s", stateKey });
    if (r.detection?.detected === true) detected = r.header?.generation ?? 0n;
  }
  assert.ok(detected > 0n, "the loop was detected");
  const forgedAt = (
    await s.state.apply({
      projectId,
      delta: forged,
      label: "cycle_detector",
      sessionId: "s",
      metadata: { reason: "cycle_detected:[edit]" },
    })
  ).header?.generation;
  return { applied, detected, forgedAt: forgedAt ?? 0n };
}

/** The kind of every change in the project's history, by generation, as each history RPC serves it. */
async function kindsServed(s: TestServer, projectId: string): Promise<Record<string, [bigint, ChangeKind][]>> {
  const pairs = (changes: { generation: bigint; kind: ChangeKind }[]) => changes.map((c): [bigint, ChangeKind] => [c.generation, c.kind]);
  const range = await s.history.listChangesInRange({ projectId });
  const byGeneration = await Promise.all(range.changes.map((c) => s.history.getChange({ projectId, generation: c.generation })));
  const byNode = await s.history.listChangesByNode({ projectId, nodeId: "session:s:state:plan" });
  const explained = await s.history.explainNode({ projectId, nodeId: "session:s:state:plan" });
  return {
    range: pairs(range.changes),
    getChange: pairs(byGeneration.map((r) => r.change as { generation: bigint; kind: ChangeKind })),
    byNode: pairs(byNode.changes),
    explain: pairs(explained.changes),
  };
}

describe("the kind of each change served by HistoryService", () => {
  it("a change reads back with the kind of the mutation that wrote it, before and after a restart, whatever its label", async () => {
    let s = await startTestServer({ durable: true });
    const { dataDir } = s;
    try {
      await s.state.createProject({ projectId: "k" });
      const g = await produce(s, "k");
      const expected = {
        range: [
          [g.applied, ChangeKind.DELTA_APPLIED],
          [g.detected, ChangeKind.CYCLE_DETECTED],
          [g.forgedAt, ChangeKind.DELTA_APPLIED],
        ],
        getChange: [
          [g.applied, ChangeKind.DELTA_APPLIED],
          [g.detected, ChangeKind.CYCLE_DETECTED],
          [g.forgedAt, ChangeKind.DELTA_APPLIED],
        ],
        byNode: [[g.detected, ChangeKind.CYCLE_DETECTED]],
        explain: [[g.detected, ChangeKind.CYCLE_DETECTED]],
      };
      assert.deepEqual(await kindsServed(s, "k"), expected);
      const forgedChange = (await s.history.getChange({ projectId: "k", generation: g.forgedAt })).change;
      assert.equal(forgedChange?.label, "cycle_detector", "a client may use the label; its change is still an applied delta");
      const detectedChange = (await s.history.getChange({ projectId: "k", generation: g.detected })).change;
      assert.equal(detectedChange?.deltaType, DeltaType.PROOF, "the loop's payload is the proof delta of its disproven states");
      await s.stop();
      s = await startTestServer({ dataDir });
      assert.deepEqual(await kindsServed(s, "k"), expected, "the journal replays each change into its kind");
    } finally {
      await s.stop();
      await removeDataDir(dataDir);
    }
  });

  it("a loop's change kept in a snapshot written before kinds were stored still reads, as DELTA_APPLIED as it was answered then", async () => {
    let s = await startTestServer({ durable: true, env: { CRS_STATE_SNAPSHOT_EVERY_RECORDS: "1" } });
    const { dataDir } = s;
    try {
      const projectUid = (await s.state.createProject({ projectId: "old" })).header?.projectUid ?? "";
      const g = await produce(s, "old");
      await s.stop();

      // Rewrite the newest snapshot as the engine wrote it before: format 1, records without a kind.
      const level = await LevelStore.open(dataDir);
      try {
        const newest = (await level.readSnapshots(projectUid)).sort((a, b) => b.seq - a.seq)[0];
        let lastSeq = 0;
        for await (const r of level.readJournal(projectUid, 0)) lastSeq = r.seq;
        assert.ok(newest !== undefined && newest.seq === lastSeq, "the newest snapshot holds every change");
        const decoded = decodeSnapshot(newest.bytes, newest.seq, projectUid);
        assert.ok(decoded.ok);
        assert.equal(decoded.value.document.formatVersion, 2, "written with kinds");
        const document = {
          ...decoded.value.document,
          formatVersion: 1 as const,
          deltaHistory: decoded.value.document.deltaHistory.map(({ changeKind: _, ...r }) => r),
        };
        await level.write([{ op: "putSnapshot", projectUid, seq: newest.seq, bytes: encodeSnapshot({ ...decoded.value, document }) }]);
      } finally {
        await level.close();
      }

      s = await startTestServer({ dataDir });
      const served = await kindsServed(s, "old");
      assert.deepEqual(served.range, [
        [g.applied, ChangeKind.DELTA_APPLIED],
        [g.detected, ChangeKind.DELTA_APPLIED],
        [g.forgedAt, ChangeKind.DELTA_APPLIED],
      ]);
      const old = (await s.history.getChange({ projectId: "old", generation: g.detected })).change;
      assert.equal(old?.label, "cycle_detector", "the record itself is intact");
      assert.equal(old?.deltaType, DeltaType.PROOF);
      const next = await produce(s, "old");
      assert.equal(
        (await s.history.getChange({ projectId: "old", generation: next.detected })).change?.kind,
        ChangeKind.CYCLE_DETECTED,
        "a loop detected after the upgrade is recorded with its kind",
      );
    } finally {
      await s.stop();
      await removeDataDir(dataDir);
    }
  });
});
