import assert from "node:assert/strict";
import { test } from "node:test";
import { eventually } from "@crs/runtime/testing";
import { MemoryStore } from "../store/memory-store.js";
import { FaultStore } from "../store/test-support.js";
import { answerOf, codeOf, similarity } from "./host-conformance.js";
import { StoreHost } from "./store-host.js";

const request = { method: "RecordSimilarity", requestId: "r", fingerprint: "01" };

for (const [mode, replayed] of [
  ["failWith", false],
  ["failAfterWrite", true],
] as const) {
  test(`a duplicate in flight shares a failed write's error, and the retry after it is ${replayed ? "answered from the write that landed" : "applied anew"} (${mode})`, async () => {
    const store = new FaultStore(new MemoryStore());
    const host = new StoreHost(store, { probeIntervalMs: 10 });
    try {
      await host.create("p", {});
      store.hold();
      store[mode] = new Error("io");
      const first = codeOf(host.mutate("p", request, similarity("a", "b", 0.5), answerOf));
      const duplicate = codeOf(host.mutate("p", request, similarity("a", "b", 0.5), answerOf));
      store.release();
      assert.deepEqual([await first, await duplicate], ["STORE_UNAVAILABLE", "STORE_UNAVAILABLE"]);
      store[mode] = undefined;
      await eventually(() => host.serving());
      const retry = await host.mutate("p", request, similarity("a", "b", 0.5), answerOf);
      assert.deepEqual([retry.replayed, retry.header.generation], [replayed, 1]);
    } finally {
      await host.close();
    }
  });
}
