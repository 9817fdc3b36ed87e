import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ListCache, listings } from "./list-cache.js";
import { startTestServer } from "./test-support.js";

describe("paged listings", () => {
  it("keep one listing per key and state, recompute for another state, and drop the least recently used", () => {
    const cache = new ListCache(2);
    const a = {};
    let computed = 0;
    const list = (key: string, state: object) => cache.rows(key, state, () => [++computed]);
    assert.deepEqual([list("k1", a), list("k1", a)], [[1], [1]], "a second page reuses the listing");
    assert.deepEqual(list("k1", {}), [2], "another state value under the same key is computed again");
    list("k2", a);
    list("k3", a);
    assert.deepEqual(list("k1", a), [5], "beyond the bound the least recently used is dropped");
  });

  it("let the pages after the first slice the listing the first computed, until the generation moves", async () => {
    const s = await startTestServer();
    try {
      await s.state.createProject({ projectId: "pages" });
      for (let i = 0; i < 25; i++)
        await s.similarity.recordSimilarity({ projectId: "pages", a: `n${String(i).padStart(2, "0")}`, b: "hub", distance: i });
      const before = listings.computed;
      const seen: string[] = [];
      let token = "";
      do {
        const page = await s.similarity.listSimilarityPairs({ projectId: "pages", pageSize: 10, pageToken: token });
        seen.push(...page.pairs.map((p) => `${p.a}-${p.b}`));
        token = page.nextPageToken;
      } while (token !== "");
      assert.equal(seen.length, 25, "every pair listed once");
      assert.equal(new Set(seen).size, 25, "no pair twice");
      assert.equal(listings.computed - before, 1, "three pages, one sort");
      await s.similarity.recordSimilarity({ projectId: "pages", a: "extra", b: "hub", distance: 1 });
      const fresh = await s.similarity.listSimilarityPairs({ projectId: "pages", pageSize: 100 });
      assert.equal(fresh.pairs.length, 26, "a new generation is listed anew");
      assert.equal(listings.computed - before, 2, "computed for the new generation");
    } finally {
      await s.stop();
    }
  });
});
