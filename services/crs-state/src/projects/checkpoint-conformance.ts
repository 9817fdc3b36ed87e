/**
 * How a host keeps, lists and checks stored checkpoints, written once and run over each store
 * (`checkpointConformance(factory)`, beside `hostConformance`): listings read heads only, every
 * read of the whole checkpoint checks head and body, and format-1 checkpoints keep working.
 */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import type { StoredCheckpoint } from "../store/project-store.js";
import { answerOf, codeOf, type HostFixture, hostRunner, similarity } from "./host-conformance.js";
import type { CheckpointInfo } from "./project-host.js";
import type { StoreHost } from "./store-host.js";

// Checkpoint "golden" at generation 1 (similarity node-a/node-b 0.25) as format 1 stored it, whole.
const FORMAT_1 = new Uint8Array(readFileSync(new URL("../snapshot/testdata/checkpoint-v1.bin", import.meta.url)));

function flipped(bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  const at = Math.floor(out.length / 2);
  out[at] = (out[at] as number) ^ 0x04;
  return out;
}

async function described(host: StoreHost, checkpointId: string): Promise<CheckpointInfo> {
  const { header: _, ...info } = await host.checkpoints.get("p", checkpointId);
  return info;
}

const restoreOf = (host: StoreHost, checkpointId: string) =>
  host.checkpoints.restore("p", checkpointId, { method: "RestoreCheckpoint" }, (h) => new TextEncoder().encode(String(h.generation)));

/** Runs the checkpoint suite against stores made by `factory`. */
export function checkpointConformance(name: string, factory: () => Promise<HostFixture>): void {
  const withHost = hostRunner(factory);

  describe(`stored checkpoints over ${name}`, () => {
    test("a checkpoint is listed from its head alone with the very row create and get answer", async () => {
      await withHost(async (host, faults) => {
        const { projectUid } = await host.create("p", {});
        await host.mutate("p", { method: "Apply" }, similarity("a", "b", 0.1), answerOf);
        const { header: _, ...created } = await host.checkpoints.create("p", { checkpointId: "c" });
        const stored = (await faults.inner.getCheckpoint(projectUid, "c")) as StoredCheckpoint;
        assert.ok(stored.body !== undefined, "the document is in a body beside the head");
        assert.equal(created.sizeBytes, stored.head.length + stored.body.length, "the stored size is head and body");
        assert.deepEqual(await host.checkpoints.list("p"), [created]);
        assert.deepEqual(await described(host, "c"), created);
      });
    });

    test("a format-1 checkpoint already stored is listed, read, restored and forked from as it was written", async () => {
      await withHost(async (host, faults) => {
        const { projectUid } = await host.create("p", {});
        await faults.inner.write([{ op: "putCheckpoint", projectUid, checkpointId: "golden", head: FORMAT_1 }]);
        const row = {
          checkpointId: "golden",
          generation: 1,
          createdAt: 1780000000123,
          sizeBytes: FORMAT_1.length,
          damaged: false,
          unsupportedFormat: false,
        };
        assert.deepEqual(await host.checkpoints.list("p"), [row], "listed as format 1 listed it");
        assert.deepEqual(await described(host, "golden"), row);
        await restoreOf(host, "golden");
        assert.equal(await host.read("p", (v) => v.snapshot.similarity.distance("node-a", "node-b")), 0.25, "its state restores");
        await host.fork("p", "q", { checkpointId: "golden" });
        assert.equal(await host.read("q", (v) => v.snapshot.similarity.distance("node-a", "node-b")), 0.25, "and forks");
      });
    });

    test("a damaged head is listed flagged damaged, by id and stored size, refused on get, and deleted like any other", async () => {
      await withHost(async (host, faults) => {
        const { projectUid } = await host.create("p", {});
        await host.checkpoints.create("p", { checkpointId: "a" });
        await host.checkpoints.create("p", { checkpointId: "bad" });
        const { head, body } = (await faults.inner.getCheckpoint(projectUid, "bad")) as StoredCheckpoint;
        await faults.inner.write([
          { op: "putCheckpoint", projectUid, checkpointId: "bad", head: flipped(head), ...(body ? { body } : {}) },
        ]);
        const rows = await host.checkpoints.list("p");
        assert.deepEqual(rows[1], {
          checkpointId: "bad",
          generation: 0,
          createdAt: 0,
          sizeBytes: head.length + (body?.length ?? 0),
          damaged: true,
          unsupportedFormat: false,
        });
        assert.equal(rows[0]?.damaged, false, "the other is intact");
        assert.equal(await codeOf(host.checkpoints.get("p", "bad")), "CHECKPOINT_CORRUPTED");
        await host.checkpoints.delete("p", "bad");
        assert.deepEqual(
          (await host.checkpoints.list("p")).map((c) => c.checkpointId),
          ["a"],
        );
      });
    });

    test("a damaged or missing body is refused CHECKPOINT_CORRUPTED by get, restore and fork, though a listing reads no body", async () => {
      await withHost(async (host, faults) => {
        const { projectUid } = await host.create("p", {});
        await host.mutate("p", { method: "Apply" }, similarity("a", "b", 0.1), answerOf);
        for (const checkpointId of ["flipped", "bodiless"]) await host.checkpoints.create("p", { checkpointId });
        const flip = (await faults.inner.getCheckpoint(projectUid, "flipped")) as StoredCheckpoint;
        const bodiless = (await faults.inner.getCheckpoint(projectUid, "bodiless")) as StoredCheckpoint;
        await faults.inner.write([
          { op: "putCheckpoint", projectUid, checkpointId: "flipped", head: flip.head, body: flipped(flip.body ?? new Uint8Array()) },
          { op: "putCheckpoint", projectUid, checkpointId: "bodiless", head: bodiless.head },
        ]);
        assert.deepEqual(
          (await host.checkpoints.list("p")).map((c) => [c.checkpointId, c.damaged, c.generation]),
          [
            ["bodiless", false, 1],
            ["flipped", false, 1],
          ],
          "each head verifies",
        );
        for (const checkpointId of ["flipped", "bodiless"]) {
          assert.equal(await codeOf(host.checkpoints.get("p", checkpointId)), "CHECKPOINT_CORRUPTED", `get ${checkpointId}`);
          assert.equal(await codeOf(restoreOf(host, checkpointId)), "CHECKPOINT_CORRUPTED", `restore ${checkpointId}`);
          assert.equal(await codeOf(host.fork("p", "q", { checkpointId })), "CHECKPOINT_CORRUPTED", `fork ${checkpointId}`);
        }
        assert.equal(await host.read("p", (v) => v.snapshot.generation), 1, "nothing was restored");
      });
    });
  });
}
