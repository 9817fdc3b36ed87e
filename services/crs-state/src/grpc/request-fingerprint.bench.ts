/**
 * The idempotency fingerprint of an Apply request with a request id: SHA-256 over the canonical
 * encoding (maps in key order), beside the plain encoding of the same copy as the baseline
 * (clone, clear the id, toBinary, SHA-256), for a small delta and for 1,000 entries with metadata,
 * each with its maps already in key order and out of order.
 * BENCH_ITERATIONS sets the calls per figure (default 20,000; a tenth for the large request).
 */

import { createHash } from "node:crypto";
import { cpus } from "node:os";
import { clone, create, toBinary } from "@bufbuild/protobuf";
import { ApplyRequestSchema, type ApplyRequest } from "@crs/contracts/gen/crs/state/v1/state_pb";
import { SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { requestFingerprint } from "./request-fingerprint.js";

const ITERATIONS = Number(process.env["BENCH_ITERATIONS"] ?? 20_000);

function request(entries: number, ordered: boolean): ApplyRequest {
  const inner = ordered ? { y: "2", z: "1" } : { z: "1", y: "2" };
  return create(ApplyRequestSchema, {
    projectId: "p",
    metadata: ordered ? { a: "1", b: "2", c: "3" } : { b: "2", a: "1", c: "3" },
    options: { requestId: "r" },
    delta: {
      source: SignalSource.SOFT,
      kind: {
        case: "history",
        value: {
          entries: Array.from({ length: entries }, (_, i) => ({
            id: `h${i}`,
            action: "read",
            result: "ok",
            source: SignalSource.SOFT,
            metadata: inner,
          })),
        },
      },
    },
  });
}

function plain(req: ApplyRequest): Uint8Array {
  const copy = clone(ApplyRequestSchema, req);
  if (copy.options !== undefined) copy.options.requestId = "";
  return createHash("sha256").update("Apply").update(toBinary(ApplyRequestSchema, copy)).digest();
}

function perCallUs(n: number, fn: () => unknown): number {
  for (let i = 0; i < Math.min(n, 1000); i++) fn();
  const started = performance.now();
  for (let i = 0; i < n; i++) fn();
  return ((performance.now() - started) * 1000) / n;
}

console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, node ${process.version}`);
for (const [label, entries, n, ordered] of [
  ["1 entry, maps in key order", 1, ITERATIONS, true],
  ["1 entry, maps out of order", 1, ITERATIONS, false],
  ["1,000 entries, maps in key order", 1000, Math.max(1, Math.floor(ITERATIONS / 100)), true],
  ["1,000 entries, maps out of order", 1000, Math.max(1, Math.floor(ITERATIONS / 100)), false],
] as const) {
  const req = request(entries, ordered);
  const base = perCallUs(n, () => plain(req));
  const canonical = perCallUs(n, () => requestFingerprint("Apply", ApplyRequestSchema, req));
  console.log(`${label}: plain ${base.toFixed(1)} us, canonical ${canonical.toFixed(1)} us (${(canonical / base).toFixed(2)}x)`);
}
