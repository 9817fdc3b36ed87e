// The idempotency table at steady state (full, every new id evicting the oldest) beside a bare
// Map get + set of the same ids measured in the same run: eviction must stay a constant cost.
import type { StoredRequest } from "../journal/record.js";
import { RequestTable } from "./request-table.js";

const OPS = 200_000;

function stored(requestId: string): StoredRequest {
  return { requestId, method: "Apply", fingerprint: "f", generation: 1, answer: "" } as unknown as StoredRequest;
}

function perOpNs(run: (id: string) => void, from: number): number {
  const started = performance.now();
  for (let i = from; i < from + OPS; i++) run(`req-${i}`);
  return ((performance.now() - started) * 1e6) / OPS;
}

for (const retention of [10_000, 100_000]) {
  const table = new RequestTable(retention);
  const bare = new Map<string, StoredRequest>();
  const tableOp = (id: string): void => {
    if (table.lookup(id, "Apply", "f") === undefined) table.remember(stored(id));
  };
  const bareOp = (id: string): void => {
    if (bare.get(id) === undefined) bare.set(id, stored(id));
  };
  // Fill both past the retention, then measure in alternating turns.
  perOpNs(tableOp, -retention * 2);
  perOpNs(bareOp, -retention * 2);
  let tableNs = 0;
  let bareNs = 0;
  for (let turn = 0; turn < 3; turn++) {
    tableNs += perOpNs(tableOp, turn * OPS);
    bareNs += perOpNs(bareOp, turn * OPS);
  }
  console.log(
    `request table, retention ${retention.toLocaleString("en-US")}, full: ${(tableNs / 3).toFixed(0)} ns per new request; bare Map get + set ${(bareNs / 3).toFixed(0)} ns; ratio x${(tableNs / bareNs).toFixed(2)}`,
  );
}
