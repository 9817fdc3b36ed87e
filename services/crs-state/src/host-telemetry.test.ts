import assert from "node:assert/strict";
import { test } from "node:test";
import { ClassicLevel } from "classic-level";
import { expectError, removeDataDir, startTestServer, type TestServer } from "./grpc/test-support.js";
import { keys } from "./store/level/level-keys.js";

/** The value of one sample line of the /metrics text (`name{labels} value`), or undefined. */
async function sample(s: TestServer, series: string): Promise<number | undefined> {
  const text = await (await fetch(`http://127.0.0.1:${s.service.metricsPort}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function similarities(s: TestServer, projectId: string): Promise<void> {
  await s.state.createProject({ projectId });
  for (const b of ["y", "z", "w"]) await s.similarity.recordSimilarity({ projectId, a: "x", b, distance: 1 });
}

test("host counters and notices reach /metrics: batches, sync latency, loads, unloads, DATA_LOSS and skipped records", async () => {
  const first = await startTestServer({ durable: true });
  let lostUid = "";
  try {
    await similarities(first, "kept");
    await similarities(first, "damaged");
    lostUid = (await first.state.getGeneration({ projectId: "damaged" })).header?.projectUid ?? "";
    assert.ok(((await sample(first, "crs_state_journal_batch_writes_count")) ?? 0) >= 8, "every create and mutation went through a batch");
    assert.ok(((await sample(first, 'crs_state_journal_sync_seconds_count{outcome="ok"}')) ?? 0) >= 8, "each batch's sync was timed");
  } finally {
    await first.stop();
  }
  // A flipped byte in the first of three records is corruption in the middle of the journal.
  const db = new ClassicLevel<string, Uint8Array>(first.dataDir, { keyEncoding: "utf8", valueEncoding: "view" });
  const key = keys.journal(lostUid, 1);
  const bytes = (await db.get(key)) as Uint8Array;
  const flipped = bytes.slice();
  flipped[20] = (flipped[20] as number) ^ 0x04;
  await db.put(key, flipped);
  await db.close();

  const second = await startTestServer({ dataDir: first.dataDir });
  try {
    assert.equal(await sample(second, "crs_state_projects_in_memory"), 0, "nothing loaded at start");
    await second.state.getGeneration({ projectId: "kept" });
    await expectError(second.state.getGeneration({ projectId: "damaged" }), 15, "PROJECT_CORRUPTED");
    assert.equal(await sample(second, "crs_state_projects_loaded_total"), 1, "one project recovered");
    assert.equal(await sample(second, "crs_state_projects_in_memory"), 1, "and held");
    assert.equal(await sample(second, "crs_state_projects_data_loss"), 1, "the damaged one is in DATA_LOSS");
    await second.state.deleteProject({ projectId: "kept" });
    assert.equal(await sample(second, 'crs_state_projects_unloaded_total{reason="deleted"}'), 1, "a delete unloads");
  } finally {
    await second.stop();
  }

  const third = await startTestServer({ dataDir: first.dataDir, env: { CRS_STATE_SKIP_CORRUPTED: "true" } });
  try {
    await third.state.getGeneration({ projectId: "damaged" });
    assert.equal(await sample(third, "crs_state_journal_corruption_cuts_total"), 1, "the skip is counted");
    assert.equal(await sample(third, "crs_state_journal_records_skipped_total"), 3, "with the records it cut aside");
    assert.equal(await sample(third, "crs_state_projects_data_loss"), 0, "no project lost");
  } finally {
    await third.stop();
    await removeDataDir(first.dataDir);
  }
});
