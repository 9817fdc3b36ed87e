/**
 * The behaviour every project host must show, written once and run against the host over each
 * store (`hostConformance(factory)`, as abstract-level's suite is run by each implementation).
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { StateEngine } from "@crs/domain/state";
import { eventually } from "@crs/runtime/testing";
import { isCrsStateError } from "../errors.js";
import { FaultStore, enospc } from "../store/test-support.js";
import type { ProjectStore } from "../store/project-store.js";
import { StoreHost } from "./store-host.js";
import type { StoreHostOptions } from "./store-host-options.js";
import type { ProjectHeader } from "./project-host.js";

/** Makes a fresh store; `reopen` gives a new store over the same data (persistent stores only). */
export interface HostFixture {
  /** A fresh, empty store. */
  readonly store: ProjectStore;
  /** A new store over the same location, after the previous one was closed. */
  readonly reopen?: () => Promise<ProjectStore>;
  /** Removes what the fixture made. */
  readonly cleanup: () => Promise<void>;
}

const encoder = new TextEncoder();

/** Encodes a test answer: the header's generation and the result. */
export function answerOf<R>(result: R, header: ProjectHeader): Uint8Array {
  return encoder.encode(JSON.stringify({ generation: header.generation, result: result ?? null }));
}

/** A mutation body recording one similarity distance. */
export function similarity(a: string, b: string, distance: number): (e: StateEngine) => ReturnType<StateEngine["recordSimilarity"]> {
  return (e) => e.recordSimilarity({ a, b, distance });
}

/** Resolves to the code of the CrsStateError (or engine error code) `p` rejects with. */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return String((e as { code?: unknown }).code);
  }
  assert.fail("expected a rejection");
}

/** Runs `fn` on a host over a fresh store from `factory` (behind a {@link FaultStore}), then closes both. */
export function hostRunner(
  factory: () => Promise<HostFixture>,
): (fn: (host: StoreHost, faults: FaultStore, fx: HostFixture) => Promise<void>, options?: StoreHostOptions) => Promise<void> {
  return async (fn, options = {}) => {
    const fx = await factory();
    const faults = new FaultStore(fx.store);
    const host = new StoreHost(faults, { probeIntervalMs: 20, ...options });
    try {
      await fn(host, faults, fx);
    } finally {
      await host.close();
      await fx.cleanup();
    }
  };
}

/** Runs the host suite against stores made by `factory`. */
export function hostConformance(name: string, factory: () => Promise<HostFixture>): void {
  const withHost = hostRunner(factory);

  describe(`project host over ${name}`, () => {
    test("create refuses a taken id, but answers a retried create with its request id", async () => {
      await withHost(async (host) => {
        const first = await host.create("p1", { requestId: "r1" });
        assert.equal(first.generation, 0, "a new project starts at generation 0");
        const again = await host.create("p1", { requestId: "r1" });
        assert.deepEqual({ ...again, replayed: false }, first, "the retry answers the first header");
        assert.equal(again.replayed, true, "the retry is marked replayed");
        const other = host.create("p1", { requestId: "r1", fingerprint: "another request" });
        assert.equal(await codeOf(other), "REQUEST_ID_REUSED", "the id with another request is refused");
        assert.equal(await codeOf(host.create("p1", {})), "PROJECT_EXISTS", "a second create fails");
      });
    });

    test("rejects a malformed project id naming the field, and creates nothing", async () => {
      await withHost(async (host) => {
        for (const bad of ["", "a/b", "x".repeat(129), "ü"]) {
          const err = await host.create(bad, {}).then(
            () => undefined,
            (e: unknown) => e,
          );
          assert.ok(isCrsStateError(err, "INVALID_ARGUMENT"), `id ${JSON.stringify(bad)} is refused`);
          assert.equal(err.metadata.field, "project_id", "the field is named");
        }
        assert.deepEqual((await host.list({ pageSize: 10 })).projects, [], "nothing was created");
      });
    });

    test("a mutation of a missing project fails PROJECT_NOT_FOUND", async () => {
      await withHost(async (host) => {
        assert.equal(await codeOf(host.mutate("nope", { method: "Apply" }, similarity("a", "b", 1), answerOf)), "PROJECT_NOT_FOUND");
      });
    });

    test("a read during a pending write sees only the committed generation", async () => {
      await withHost(async (host, faults) => {
        await host.create("p", {});
        faults.hold();
        const pending = host.mutate("p", { method: "Apply" }, similarity("a", "b", 0.5), answerOf);
        await new Promise((r) => setImmediate(r));
        assert.equal(await host.read("p", (v) => v.snapshot.generation), 0, "the unsynced mutation is not visible");
        faults.release();
        const done = await pending;
        assert.equal(done.header.generation, 1, "the mutation moved the generation");
        assert.equal(await host.read("p", (v) => v.snapshot.generation), 1, "visible once durable");
      });
    });

    test("a retried request id answers the first result and does not apply twice", async () => {
      await withHost(async (host) => {
        await host.create("p", {});
        const fp = "content-1";
        const first = await host.mutate("p", { method: "Apply", requestId: "q1", fingerprint: fp }, similarity("a", "b", 0.5), answerOf);
        const retry = await host.mutate("p", { method: "Apply", requestId: "q1", fingerprint: fp }, similarity("a", "b", 0.5), answerOf);
        assert.equal(retry.replayed, true, "the retry is replayed");
        assert.deepEqual(retry.answer, first.answer, "with the first answer's bytes");
        assert.equal(await host.read("p", (v) => v.header.generation), 1, "applied once");
      });
    });

    test("a reused request id with other content fails REQUEST_ID_REUSED", async () => {
      await withHost(async (host) => {
        await host.create("p", {});
        await host.mutate("p", { method: "Apply", requestId: "q1", fingerprint: "one" }, similarity("a", "b", 0.5), answerOf);
        assert.equal(
          await codeOf(host.mutate("p", { method: "Apply", requestId: "q1", fingerprint: "two" }, similarity("a", "c", 0.5), answerOf)),
          "REQUEST_ID_REUSED",
        );
        assert.equal(
          await codeOf(
            host.mutate("p", { method: "UpdateProof", requestId: "q1", fingerprint: "one" }, similarity("a", "c", 0.5), answerOf),
          ),
          "REQUEST_ID_REUSED",
        );
        assert.equal(await host.read("p", (v) => v.header.generation), 1, "nothing else was applied");
      });
    });

    test("a duplicate arriving while the first is in flight waits for it and gets its answer", async () => {
      await withHost(async (host, faults) => {
        await host.create("p", {});
        faults.hold();
        const req = { method: "Apply", requestId: "dup", fingerprint: "x" };
        const a = host.mutate("p", req, similarity("a", "b", 0.5), answerOf);
        await new Promise((r) => setImmediate(r));
        const b = host.mutate("p", req, similarity("a", "b", 0.5), answerOf);
        faults.release();
        const [ra, rb] = await Promise.all([a, b]);
        assert.equal(ra.replayed, false, "the first is fresh");
        assert.equal(rb.replayed, true, "the duplicate is a replay");
        assert.deepEqual(rb.answer, ra.answer, "of the first answer");
        assert.equal(await host.read("p", (v) => v.header.generation), 1, "applied once");
      });
    });

    test("a failed mutation and a validate-only call are not remembered and change nothing", async () => {
      await withHost(async (host) => {
        await host.create("p", {});
        const code = await codeOf(host.mutate("p", { method: "Apply", requestId: "q" }, similarity("a", "b", -1), answerOf));
        assert.equal(code, "INVALID_ARGUMENT", "the engine refuses a negative distance");
        const dry = await host.mutate("p", { method: "Apply", requestId: "q", validateOnly: true }, similarity("a", "b", 0.5), answerOf);
        assert.equal(dry.replayed, false, "validate-only is answered fresh");
        assert.equal(await host.read("p", (v) => v.header.generation), 0, "validate-only changed nothing");
        const real = await host.mutate("p", { method: "Apply", requestId: "q", fingerprint: "z" }, similarity("a", "b", 0.5), answerOf);
        assert.equal(real.replayed, false, "the id was free for a real call");
      });
    });

    test("an expected generation that does not match fails GENERATION_MISMATCH and changes nothing", async () => {
      await withHost(async (host) => {
        await host.create("p", {});
        assert.equal(
          await codeOf(host.mutate("p", { method: "Apply", expectedGeneration: 5 }, similarity("a", "b", 0.5), answerOf)),
          "GENERATION_MISMATCH",
        );
        assert.equal(await host.read("p", (v) => v.header.generation), 0);
      });
    });

    test("an expected uid of another incarnation fails PROJECT_UID_MISMATCH; delete and create gives a new uid", async () => {
      await withHost(async (host) => {
        const first = await host.create("p", {});
        await host.delete("p", { expectedUid: first.projectUid });
        assert.equal(await codeOf(host.read("p", (v) => v.header)), "PROJECT_NOT_FOUND", "deleted");
        const second = await host.create("p", {});
        assert.notEqual(second.projectUid, first.projectUid, "a new incarnation");
        assert.equal(await codeOf(host.read("p", (v) => v, { expectedUid: first.projectUid })), "PROJECT_UID_MISMATCH");
        assert.equal(await codeOf(host.delete("p", { expectedUid: first.projectUid })), "PROJECT_UID_MISMATCH");
      });
    });

    test("concurrent mutations of several projects share synced batches", async () => {
      await withHost(async (host, faults) => {
        for (let i = 0; i < 4; i++) await host.create(`p${i}`, {});
        const before = faults.writes;
        faults.hold();
        const all = [];
        for (let i = 0; i < 40; i++) all.push(host.mutate(`p${i % 4}`, { method: "Apply" }, similarity(`a${i}`, "b", 0.5), answerOf));
        await new Promise((r) => setImmediate(r));
        faults.release();
        const out = await Promise.all(all);
        assert.ok(faults.writes - before < 40, `40 mutations took ${faults.writes - before} synced batches`);
        for (let i = 0; i < 4; i++) {
          const gens = out.filter((_, j) => j % 4 === i).map((o) => o.header.generation);
          assert.deepEqual(
            gens,
            Array.from({ length: 10 }, (_, k) => k + 1),
            `project p${i} generations are continuous`,
          );
        }
      });
    });

    test("a full disk fails unacknowledged mutations with STORE_UNAVAILABLE, stops serving, and recovers when space returns", async () => {
      await withHost(async (host, faults) => {
        await host.create("p", {});
        await host.mutate("p", { method: "Apply" }, similarity("a", "b", 0.1), answerOf);
        faults.failWith = enospc();
        const failed = await Promise.allSettled(
          [1, 2, 3].map((i) => host.mutate("p", { method: "Apply", requestId: `f${i}` }, similarity(`x${i}`, "y", 0.2), answerOf)),
        );
        for (const f of failed)
          assert.equal(
            f.status === "rejected" && (f.reason as { code: string }).code,
            "STORE_UNAVAILABLE",
            "every unacknowledged mutation fails",
          );
        assert.equal(host.serving(), false, "not serving while the disk is full");
        assert.equal(
          await codeOf(host.mutate("p", { method: "Apply" }, similarity("a", "c", 0.1), answerOf)),
          "STORE_UNAVAILABLE",
          "refused fast while not serving",
        );
        assert.equal(await host.read("p", (v) => v.header.generation), 1, "memory holds only journaled state");
        faults.failWith = undefined;
        await eventually(() => host.serving());
        assert.equal(host.serving(), true, "serving again after a probe succeeds");
        const next = await host.mutate("p", { method: "Apply", requestId: "f1" }, similarity("x1", "y", 0.2), answerOf);
        assert.equal(next.replayed, false, "a failed request id was not remembered");
        assert.equal(next.header.generation, 2, "the generation continues from the durable state");
      });
    });

    test("a checkpoint write that failed, landed or not, is counted as it stands against the per-project limit", async () => {
      await withHost(
        async (host, faults) => {
          await host.create("p", {});
          await host.checkpoints.create("p", { checkpointId: "c1" });
          faults.failWith = enospc();
          assert.equal(await codeOf(host.checkpoints.create("p", { checkpointId: "lost" })), "STORE_UNAVAILABLE");
          faults.failWith = undefined;
          await eventually(() => host.serving());
          // A sync that failed after the data was written: the checkpoint is there though the call failed.
          faults.failAfterWrite = enospc();
          assert.equal(await codeOf(host.checkpoints.create("p", { checkpointId: "c2" })), "STORE_UNAVAILABLE");
          faults.failAfterWrite = undefined;
          await eventually(() => host.serving());
          assert.deepEqual(
            (await host.checkpoints.list("p")).map((c) => c.checkpointId),
            ["c1", "c2"],
          );
          assert.equal(await codeOf(host.checkpoints.create("p", { checkpointId: "c3" })), "CHECKPOINT_LIMIT", "the landed one counts");
          await host.checkpoints.delete("p", "c2");
          await host.checkpoints.create("p", { checkpointId: "c3" });
        },
        { maxCheckpointsPerProject: 2 },
      );
    });

    test("list pages in id order with tokens, and refuses a forged token", async () => {
      await withHost(async (host) => {
        for (const id of ["b", "a", "c:1", "c"]) await host.create(id, {});
        const p1 = await host.list({ pageSize: 3 });
        assert.deepEqual(
          p1.projects.map((p) => p.projectId),
          ["a", "b", "c"],
        );
        const p2 = await host.list({ pageSize: 3, pageToken: p1.nextPageToken });
        assert.deepEqual(
          p2.projects.map((p) => p.projectId),
          ["c:1"],
        );
        assert.equal(p2.nextPageToken, "", "last page");
        assert.equal(await codeOf(host.list({ pageSize: 3, pageToken: "garbage" })), "INVALID_PAGE_TOKEN");
        assert.equal(await codeOf(host.list({ pageSize: 3, pageToken: p1.nextPageToken, openOnly: true })), "INVALID_PAGE_TOKEN");
        assert.equal(await codeOf(host.list({ pageSize: 0 })), "INVALID_ARGUMENT");
      });
    });

    test("list reports an unloaded project's generation and last change from its newest record, without loading it", async () => {
      let clock = 1000;
      await withHost(
        async (host) => {
          const rowOf = async (id: string) => (await host.list({ pageSize: 10 })).projects.find((r) => r.projectId === id);
          await host.create("a", {});
          for (let i = 0; i < 3; i++) await host.mutate("a", { method: "Apply" }, similarity(`n${i}`, "b", 0.1), answerOf);
          const whileLoaded = await rowOf("a");
          await host.fork("a", "f", { generation: 3 });
          assert.deepEqual(host.loadedProjectIds(), ["f"], "a is unloaded");
          const unloaded = await rowOf("a");
          assert.deepEqual(
            [unloaded?.generation, unloaded?.lastChangeAt, unloaded?.loaded],
            [3, whileLoaded?.lastChangeAt, false],
            "the same generation and change time as while loaded",
          );
          // A remembered request that changed nothing is the newest record, and still names the generation.
          await host.mutate("a", { method: "Gc", requestId: "gc" }, (e) => e.garbageCollectClauses(), answerOf);
          await host.create("z", {});
          assert.deepEqual(host.loadedProjectIds(), ["z"], "a and f are unloaded");
          assert.deepEqual(
            [(await rowOf("a"))?.generation, (await rowOf("f"))?.generation, (await rowOf("z"))?.generation],
            [3, 3, 0],
            "committed generations of unloaded projects, a fork included",
          );
          assert.deepEqual(host.loadedProjectIds(), ["z"], "listing loaded nothing");
        },
        { maxLoadedProjects: 1, snapshotEveryRecords: 2, now: () => clock++ },
      );
    });

    test("checkpoints are durable, restore is a journaled mutation, and fork copies a past state", async () => {
      await withHost(async (host) => {
        await host.create("p", {});
        await host.mutate("p", { method: "Apply" }, similarity("a", "b", 0.1), answerOf);
        const cp = await host.checkpoints.create("p", { checkpointId: "before" });
        assert.equal(cp.generation, 1);
        assert.equal(await codeOf(host.checkpoints.create("p", { checkpointId: "before" })), "CHECKPOINT_EXISTS");
        await host.mutate("p", { method: "Apply" }, similarity("a", "c", 0.2), answerOf);
        const restored = await host.checkpoints.restore("p", "before", { method: "RestoreCheckpoint" }, (h) =>
          encoder.encode(String(h.generation)),
        );
        assert.equal(restored.header.generation, 3, "restore moves the generation forward");
        assert.equal(await host.read("p", (v) => v.snapshot.similarity.distance("a", "c")), undefined, "the later pair is gone");
        const fork = await host.fork("p", "q", { generation: 2 });
        assert.equal(fork.generation, 2, "the fork starts at the source generation");
        assert.equal(await host.read("q", (v) => v.snapshot.similarity.distance("a", "c")), 0.2, "with that generation's state");
        const fromCp = await host.fork("p", "r", { checkpointId: "before" });
        assert.equal(fromCp.generation, 1);
        assert.deepEqual(
          (await host.checkpoints.list("p")).map((c) => c.checkpointId),
          ["before"],
        );
        await host.checkpoints.delete("p", "before");
        assert.equal(await codeOf(host.checkpoints.get("p", "before")), "CHECKPOINT_NOT_FOUND");
      });
    });

    test("an unloaded project reloads from the store with its state and remembered request ids", async () => {
      await withHost(
        async (host) => {
          for (let i = 0; i < 3; i++) await host.create(`p${i}`, {});
          const first = await host.mutate("p0", { method: "Apply", requestId: "k" }, similarity("a", "b", 0.3), answerOf);
          for (let i = 0; i < 5; i++) await host.mutate("p0", { method: "Apply" }, similarity(`n${i}`, "b", 0.3), answerOf);
          await host.read("p1", (v) => v);
          await host.read("p2", (v) => v);
          assert.ok(!host.loadedProjectIds().includes("p0"), "the least recently used project was unloaded");
          assert.equal(await host.read("p0", (v) => v.header.generation), 6, "state survives the reload (snapshots every 2 records)");
          const retry = await host.mutate("p0", { method: "Apply", requestId: "k" }, similarity("a", "b", 0.3), answerOf);
          assert.deepEqual(retry.answer, first.answer, "the request id survives the reload");
          const status = await host.status("p0");
          assert.deepEqual(
            [status.state, status.lastSnapshotGeneration, status.lastSequence, status.journalRecords],
            ["ok", 6, 6, 0],
            "status reports the snapshot and journal",
          );
        },
        { maxLoadedProjects: 2, snapshotEveryRecords: 2 },
      );
    });
  });
}
