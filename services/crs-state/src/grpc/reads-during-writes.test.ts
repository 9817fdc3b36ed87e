import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { errorDetailOf } from "@crs/runtime";
import { expectError, removeDataDir, startTestServer, type TestServer } from "./test-support.js";

const WRITERS = 16;
const WRITES_EACH = 12;
/** Generations readable by default (the project's snapshot_retention_generations). */
const RETAINED = 64;

describe("reads at a past generation while writes are in flight", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ durable: true });
    await s.state.createProject({ projectId: "rw" });
  });
  after(async () => {
    await s.stop();
    await removeDataDir(s.dataDir);
  });

  it("answers every acknowledged generation within the retained 64 while later writes wait for their sync", async () => {
    const failures: string[] = [];
    let reads = 0;
    const readAt = async (g: number): Promise<void> => {
      reads++;
      try {
        const r = await s.indexes.listConstraints({ projectId: "rw", atGeneration: BigInt(g) });
        if (r.header?.generation !== BigInt(g)) failures.push(`read at ${g} answered ${r.header?.generation}`);
      } catch (e) {
        // Compacted is right only once the committed generation moved 64 or more past it.
        const current = Number(errorDetailOf(e as Error)?.metadata["current_generation"] ?? Number.NaN);
        if (!(current - g >= RETAINED)) failures.push(`read at ${g} (current ${current}): ${(e as Error).message}`);
      }
    };
    // Writers keep several applies waiting for their sync at all times; each reads at the
    // generation its write was acknowledged with, and at one well inside the retained window.
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; i < WRITES_EACH; i++) {
          const r = await s.similarity.recordSimilarity({ projectId: "rw", a: `a${w}-${i}`, b: "b", distance: 1 });
          const g = Number(r.header?.generation ?? 0n);
          await Promise.all([readAt(g), readAt(Math.max(0, g - 40))]);
        }
      }),
    );
    assert.deepEqual(failures.slice(0, 5), [], `${failures.length} of ${reads} reads failed`);
    const gen = await s.state.getGeneration({ projectId: "rw" });
    assert.equal(gen.header?.generation, BigInt(WRITERS * WRITES_EACH));
    assert.equal(gen.oldestSnapshotGeneration, BigInt(WRITERS * WRITES_EACH - RETAINED + 1), "64 generations retained");
  });

  it("refuses a generation older than the retained ones as GENERATION_COMPACTED naming the oldest retained", async () => {
    const gen = await s.state.getGeneration({ projectId: "rw" });
    const oldest = gen.oldestSnapshotGeneration;
    const e = await expectError(
      s.indexes.listConstraints({ projectId: "rw", atGeneration: oldest - 1n }),
      status.OUT_OF_RANGE,
      "GENERATION_COMPACTED",
      "at_generation",
    );
    assert.equal(errorDetailOf(e)?.metadata["oldest_generation"], String(oldest));
  });

  it("refuses a fork from a compacted generation as GENERATION_COMPACTED naming the oldest retained and the current, as reads do", async () => {
    const gen = await s.state.getGeneration({ projectId: "rw" });
    const oldest = gen.oldestSnapshotGeneration;
    const e = await expectError(
      s.state.forkProject({ projectId: "rw", targetProjectId: "rw-fork", origin: { case: "atGeneration", value: oldest - 1n } }),
      status.OUT_OF_RANGE,
      "GENERATION_COMPACTED",
      "at_generation",
    );
    assert.deepEqual(
      [errorDetailOf(e)?.metadata["oldest_generation"], errorDetailOf(e)?.metadata["current_generation"]],
      [String(oldest), String(gen.header?.generation)],
    );
    await expectError(s.state.getGeneration({ projectId: "rw-fork" }), status.NOT_FOUND, "PROJECT_NOT_FOUND");
  });
});
