/**
 * Paged listing: walking every page of a 5,000-pair similarity listing (50 pages of 100) with the
 * listing kept between pages, beside the same walk with the listing recomputed for every page
 * (the kept listings cleared before each call), and beside the same number of GetGeneration calls
 * (the RPC round trip with no listing at all) as the baseline. In-process server, in memory.
 * BENCH_ROUNDS sets how many walks each figure takes (default 5).
 */

import { cpus } from "node:os";
import { SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { listings } from "./list-cache.js";
import { startTestServer, type TestServer } from "./test-support.js";

const PAIRS = 5000;
const PAGE = 100;
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 5);

async function walk(s: TestServer, before: () => void): Promise<number> {
  let token = "";
  let pages = 0;
  do {
    before();
    const page = await s.similarity.listSimilarityPairs({ projectId: "bench", pageSize: PAGE, pageToken: token });
    token = page.nextPageToken;
    pages++;
  } while (token !== "");
  return pages;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let r = 0; r < ROUNDS; r++) await fn();
  return (performance.now() - started) / ROUNDS;
}

const s = await startTestServer();
try {
  await s.state.createProject({ projectId: "bench", config: { maxSimilarityPairs: PAIRS } });
  const updates = Array.from({ length: PAIRS }, (_, i) => ({ a: `n${i}`, b: `m${i % 97}`, distance: (i * 7919) % 1000 }));
  await s.state.apply({ projectId: "bench", delta: { source: SignalSource.SOFT, kind: { case: "similarity", value: { updates } } } });
  const pages = await walk(s, () => undefined);
  // Warm both paths once so neither pays for compilation in its figure.
  await walk(s, () => listings.clear());
  const baseline = await timed(async () => {
    for (let i = 0; i < pages; i++) await s.state.getGeneration({ projectId: "bench" });
  });
  const recomputed = await timed(() => walk(s, () => listings.clear()));
  const kept = await timed(() => walk(s, () => undefined));
  console.log(
    `machine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, node ${process.version}; ${PAIRS} pairs, ${pages} pages of ${PAGE}`,
  );
  console.log(`baseline (${pages} GetGeneration calls): ${baseline.toFixed(1)} ms per walk`);
  console.log(`listing recomputed per page:  ${recomputed.toFixed(1)} ms per walk  (${(recomputed / baseline).toFixed(2)}x baseline)`);
  console.log(`listing kept between pages:   ${kept.toFixed(1)} ms per walk  (${(kept / baseline).toFixed(2)}x baseline)`);
  console.log(`kept vs recomputed: ${(recomputed / kept).toFixed(2)}x faster`);
} finally {
  await s.stop();
}
