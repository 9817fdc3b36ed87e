import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { credentials, status, type ServiceError } from "@grpc/grpc-js";
import { createClient } from "@crs/runtime";
import { eventually } from "@crs/runtime/testing";
import { SimilarityService } from "@crs/contracts/gen/crs/state/v1/similarity_pb";
import { StateService } from "@crs/contracts/gen/crs/state/v1/state_pb";
import { LevelStore } from "@crs/crs-state/store";
import { startServiceProcess, type ServiceProcess } from "../support/service-process.js";

const insecure = { credentials: credentials.createInsecure() };
const noticeOf = (service: ServiceProcess, event: string) => service.logs.find((l) => l["event"] === event);

test("crs-state logs store notices as structured lines: a project in DATA_LOSS at error, a skipped corruption at warn", async () => {
  const dir = await mkdtemp(join(tmpdir(), "crs-notices-"));
  try {
    const first = await startServiceProcess("crs-state", { CRS_STATE_DATA_DIR: dir });
    const state = createClient(StateService, `127.0.0.1:${first.port}`, insecure);
    const similarity = createClient(SimilarityService, `127.0.0.1:${first.port}`, insecure);
    let uid = "";
    try {
      uid = (await state.createProject({ projectId: "hurt" })).header?.projectUid ?? "";
      for (const b of ["y", "z", "w"]) await similarity.recordSimilarity({ projectId: "hurt", a: "x", b, distance: 1 });
    } finally {
      state.close();
      similarity.close();
      await first.stop();
    }
    // Garbage in place of the first of three records: damage in the middle of the journal.
    const store = await LevelStore.open(dir);
    await store.write([{ op: "append", projectUid: uid, seq: 1, bytes: new Uint8Array([1, 2, 3]) }]);
    await store.close();

    const second = await startServiceProcess("crs-state", { CRS_STATE_DATA_DIR: dir });
    const again = createClient(StateService, `127.0.0.1:${second.port}`, insecure);
    try {
      const code = await again.getGeneration({ projectId: "hurt" }).then(
        () => status.OK,
        (e: ServiceError) => e.code,
      );
      assert.equal(code, status.DATA_LOSS, "the damaged project is refused");
      await eventually(() => noticeOf(second, "project-data-loss") !== undefined);
      const line = noticeOf(second, "project-data-loss");
      assert.equal(line?.["level"], 50, "logged at error");
      assert.equal(line?.["projectId"], "hurt", "naming the project");
    } finally {
      again.close();
      await second.stop();
    }

    const third = await startServiceProcess("crs-state", { CRS_STATE_DATA_DIR: dir, CRS_STATE_SKIP_CORRUPTED: "true" });
    const skipping = createClient(StateService, `127.0.0.1:${third.port}`, insecure);
    try {
      await skipping.getGeneration({ projectId: "hurt" });
      await eventually(() => noticeOf(third, "cut-after-corruption") !== undefined);
      const line = noticeOf(third, "cut-after-corruption");
      assert.equal(line?.["level"], 40, "a skip is logged at warn");
      assert.equal(line?.["records"], 3, "with the records cut aside");
      const metrics = await (await fetch(`http://127.0.0.1:${third.metricsPort}/metrics`)).text();
      assert.match(metrics, /^crs_state_journal_records_skipped_total 3$/m, "and counted on /metrics");
    } finally {
      skipping.close();
      await third.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
