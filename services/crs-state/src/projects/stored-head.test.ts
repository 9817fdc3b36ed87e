import assert from "node:assert/strict";
import { test } from "node:test";
import { MemoryStore } from "../store/memory-store.js";
import { answerOf, similarity } from "./host-conformance.js";
import { decodeMeta, encodeMeta } from "./project-meta.js";
import { StoreHost } from "./store-host.js";
import { storedHead } from "./stored-head.js";

async function metaOf(store: MemoryStore, projectId: string) {
  const meta = decodeMeta((await store.getMeta(projectId))?.bytes ?? new Uint8Array(), projectId);
  assert.ok(meta.ok, "metadata decodes");
  return meta.value;
}

test("an unloaded project's head comes from its newest record, its base generation, or for an older fork its snapshot", async () => {
  const store = new MemoryStore();
  const host = new StoreHost(store, { now: () => 5 });
  await host.create("p", {});
  for (const b of ["x", "y"]) await host.mutate("p", { method: "Apply" }, similarity("a", b, 1), answerOf);
  await host.fork("p", "f", { generation: 2 });
  assert.deepEqual(await storedHead(store, await metaOf(store, "p")), { generation: 2, lastChangeAt: 5 }, "from the newest record");
  assert.equal((await storedHead(store, await metaOf(store, "f")))?.generation, 2, "a fork without records is at its base generation");
  // A catalogue entry written before the base generation was kept: the fork's snapshot answers.
  const { baseGeneration: _, ...older } = await metaOf(store, "f");
  await store.write([{ op: "putMeta", projectId: "f", bytes: encodeMeta(older) }]);
  assert.equal((await storedHead(store, await metaOf(store, "f")))?.generation, 2, "read from the fork's snapshot");
  // A damaged newest record says nothing; recovery decides what it means.
  const p = await metaOf(store, "p");
  await store.write([{ op: "append", projectUid: p.projectUid, seq: 2, bytes: new Uint8Array([1, 2, 3]) }]);
  assert.equal(await storedHead(store, p), undefined, "no head from a damaged record");
  await host.close();
});
