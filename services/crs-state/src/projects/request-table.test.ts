import assert from "node:assert/strict";
import { test } from "node:test";
import type { StoredRequest } from "../journal/record.js";
import { RequestTable } from "./request-table.js";

const stored = (requestId: string, generation = 1): StoredRequest =>
  ({ requestId, method: "Apply", fingerprint: "f", generation, answer: "" }) as unknown as StoredRequest;

test("a table past its retention forgets its oldest ids first and keeps the rest in commit order", () => {
  const table = new RequestTable(3);
  for (const id of ["a", "b", "c", "d", "e"]) table.remember(stored(id));
  assert.deepEqual(
    table.entries().map((r) => r.requestId),
    ["c", "d", "e"],
  );
  assert.equal(table.lookup("b", "Apply", "f"), undefined, "an evicted id is unknown");
  assert.equal(table.lookup("e", "Apply", "f")?.requestId, "e");
});

test("an id remembered again keeps its later place and is not evicted by its earlier one", () => {
  const table = new RequestTable(3);
  table.remember(stored("a", 1));
  table.remember(stored("b", 2));
  table.remember(stored("a", 3));
  table.remember(stored("c", 4));
  table.remember(stored("d", 5));
  assert.deepEqual(
    table.entries().map((r) => [r.requestId, r.generation]),
    [
      ["a", 3],
      ["c", 4],
      ["d", 5],
    ],
  );
});

test("a long run of requests keeps exactly the last `retention` of them, whatever the churn", () => {
  const retention = 100;
  const table = new RequestTable(retention);
  for (let i = 0; i < 5_000; i++) table.remember(stored(`r${i}`, i));
  assert.equal(table.size, retention);
  assert.deepEqual(
    table.entries().map((r) => r.requestId),
    Array.from({ length: retention }, (_, k) => `r${4_900 + k}`),
  );
});
