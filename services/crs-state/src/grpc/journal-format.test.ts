import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { STATE_DOCUMENT_FORMAT } from "@crs/domain/state";
import { ClassicLevel } from "classic-level";
import { JOURNAL_RECORD_FORMAT, STATE_EVENT_FORMAT_IN_JOURNAL, decodeRecord, type JournalRecord } from "../journal/index.js";
import { keys } from "../store/level/level-keys.js";
import { decodeCheckpoint, encodeCheckpoint, type CheckpointValues } from "../snapshot/index.js";
import { appendNewer, newerCheckpointHead } from "./stored-edits.js";
import { expectError, removeDataDir, startTestServer } from "./test-support.js";

async function journalHas(dataDir: string, projectUid: string, seq: number): Promise<boolean> {
  const db = new ClassicLevel<string, Uint8Array>(dataDir, { keyEncoding: "utf8", valueEncoding: "view" });
  try {
    return (await db.get(keys.journal(projectUid, seq))) !== undefined;
  } finally {
    await db.close();
  }
}

// A newer checkpoint record is refused by every call that reads it and listed without the fields
// it holds; a newer state document inside a current record only by the calls that need the state.
// Either way the listing shows it flagged, with whatever of it this server can read.
const newerCheckpoints: [string, (stored: CheckpointValues, id: string) => CheckpointValues, string[], { readable: boolean }][] = [
  [
    "a newer checkpoint format",
    (stored) => ({ ...stored, head: newerCheckpointHead(stored.head) }),
    ["GetCheckpoint", "RestoreCheckpoint", "ForkProject"],
    { readable: false },
  ],
  [
    "a newer state document format",
    (stored, id) => {
      const d = decodeCheckpoint(stored, id);
      assert.ok(d.ok, "the checkpoint decodes");
      const c = d.value.checkpoint;
      return encodeCheckpoint({ ...c, document: { ...c.document, formatVersion: (STATE_DOCUMENT_FORMAT + 1) as 1 } });
    },
    ["RestoreCheckpoint", "ForkProject"],
    { readable: true },
  ],
];

const newer: Record<string, (r: JournalRecord) => JournalRecord> = {
  "a newer event format": (r) => ({
    ...r,
    eventFormat: STATE_EVENT_FORMAT_IN_JOURNAL + 1,
    event: r.event === null ? null : ({ ...r.event, formatVersion: STATE_EVENT_FORMAT_IN_JOURNAL + 1 } as never),
  }),
  "a newer record format": (r) => ({ ...r, format: JOURNAL_RECORD_FORMAT + 1 }),
};

describe("a journal record written in a newer format than the server reads", () => {
  for (const [what, edit] of Object.entries(newer)) {
    it(`refuses the project with ${what} as FAILED_PRECONDITION / UNSUPPORTED_FORMAT, cuts nothing, and the others serve`, async () => {
      const first = await startTestServer({ durable: true });
      const dataDir = first.dataDir;
      let uid = "";
      try {
        uid = (await first.state.createProject({ projectId: "newer" })).header?.projectUid ?? "";
        await first.state.createProject({ projectId: "older" });
        for (const projectId of ["newer", "older"]) await first.similarity.recordSimilarity({ projectId, a: "a", b: "b", distance: 1 });
      } finally {
        await first.stop();
      }
      const seq = await appendNewer(dataDir, uid, edit);
      // Skipping corrupted records must not treat the newer record as damage either.
      const s = await startTestServer({ dataDir, env: { CRS_STATE_SKIP_CORRUPTED: "true" } });
      try {
        const e = await expectError(s.state.getGeneration({ projectId: "newer" }), status.FAILED_PRECONDITION, "UNSUPPORTED_FORMAT");
        assert.match(e.details, new RegExp(`journal record ${seq}: .*format \\d+ is newer than this server reads`));
        const other = await s.state.getGeneration({ projectId: "older" });
        assert.equal(other.header?.generation, 1n, "another project serves");
        await expectError(s.maintenance.getProjectStatus({ projectId: "newer" }), status.FAILED_PRECONDITION, "UNSUPPORTED_FORMAT");
      } finally {
        await s.stop();
      }
      assert.ok(await journalHas(dataDir, uid, seq), "the newer record is still there");
      await removeDataDir(dataDir);
    });
  }

  it("writes a record in the lowest event format that expresses it, so a config change alone needs the newer one", async () => {
    const s = await startTestServer({ durable: true });
    try {
      const uid = (await s.state.createProject({ projectId: "fmt" })).header?.projectUid ?? "";
      await s.similarity.recordSimilarity({ projectId: "fmt", a: "a", b: "b", distance: 1 });
      await s.state.updateProjectConfig({ projectId: "fmt", config: { maxClauses: 5 }, updateMask: { paths: ["max_clauses"] } });
      await s.stop();
      const db = new ClassicLevel<string, Uint8Array>(s.dataDir, { keyEncoding: "utf8", valueEncoding: "view" });
      const formats: number[] = [];
      try {
        for (const seq of [1, 2]) {
          const r = decodeRecord((await db.get(keys.journal(uid, seq))) ?? new Uint8Array(), seq);
          assert.ok(r.ok);
          formats.push(r.value.eventFormat);
        }
      } finally {
        await db.close();
      }
      assert.deepEqual(formats, [1, 2]);
    } finally {
      await removeDataDir(s.dataDir);
    }
  });

  for (const [what, edit, calls, { readable }] of newerCheckpoints) {
    it(`refuses a checkpoint with ${what} as FAILED_PRECONDITION / UNSUPPORTED_FORMAT, not as damage, lists it flagged, and keeps it`, async () => {
      const s = await startTestServer({ durable: true });
      const key = { uid: "", id: "later" };
      try {
        key.uid = (await s.state.createProject({ projectId: "cp" })).header?.projectUid ?? "";
        await s.similarity.recordSimilarity({ projectId: "cp", a: "a", b: "b", distance: 1 });
        await s.state.createCheckpoint({ projectId: "cp", checkpointId: key.id });
      } finally {
        await s.stop();
      }
      const db = new ClassicLevel<string, Uint8Array>(s.dataDir, { keyEncoding: "utf8", valueEncoding: "view" });
      try {
        const [head, body] = await db.getMany([keys.checkpoint(key.uid, key.id), keys.checkpointBody(key.uid, key.id)]);
        assert.ok(head !== undefined && body !== undefined, "the checkpoint is stored, head and body");
        const newer = edit({ head, body }, key.id);
        await db.put(keys.checkpoint(key.uid, key.id), newer.head);
        if (newer.body !== undefined) await db.put(keys.checkpointBody(key.uid, key.id), newer.body);
      } finally {
        await db.close();
      }
      const again = await startTestServer({ dataDir: s.dataDir });
      try {
        // Each call is made when its turn comes: a call made ahead would reject unawaited.
        const all: Record<string, () => Promise<unknown>> = {
          GetCheckpoint: () => again.state.getCheckpoint({ projectId: "cp", checkpointId: key.id }),
          RestoreCheckpoint: () => again.state.restoreCheckpoint({ projectId: "cp", checkpointId: key.id }),
          ForkProject: () =>
            again.state.forkProject({ projectId: "cp", targetProjectId: "fork", origin: { case: "checkpointId", value: key.id } }),
        };
        for (const method of calls) {
          const e = await expectError(all[method]!(), status.FAILED_PRECONDITION, "UNSUPPORTED_FORMAT");
          assert.match(
            e.details,
            new RegExp(`checkpoint ${key.id}: .*format \\d+ is (newer than this server reads|not supported)`),
            method,
          );
        }
        await expectError(again.state.getGeneration({ projectId: "fork" }), status.NOT_FOUND, "PROJECT_NOT_FOUND");
        // Listed, not failing the page: with its own fields only when its record reads.
        const [row] = (await again.state.listCheckpoints({ projectId: "cp" })).checkpoints;
        assert.deepEqual(
          [row?.checkpointId, row?.unsupportedFormat, row?.damaged, row?.generation, (row?.createdAtUnixMs ?? 0n) > 0n],
          [key.id, true, false, readable ? 1n : 0n, readable],
        );
        assert.ok((row?.sizeBytes ?? 0n) > 0n, "its stored size");
        if (readable)
          assert.equal((await again.state.getCheckpoint({ projectId: "cp", checkpointId: key.id })).checkpoint?.unsupportedFormat, true);
        assert.equal((await again.state.getGeneration({ projectId: "cp" })).header?.generation, 1n, "the project still serves");
      } finally {
        await again.stop();
      }
      await removeDataDir(s.dataDir);
    });
  }
});
