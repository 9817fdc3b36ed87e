// test-isolation: own process (it sets V8 flags, which are the process's)
import assert from "node:assert/strict";
import { test } from "node:test";
import { getHeapSpaceStatistics } from "node:v8";
import { enterScan, holdYoungGeneration, leaveScan } from "./young-generation.js";

const youngBytes = (): number => getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? 0;

// Allocates objects that survive a while, as a file's fold state does, which makes V8 grow the
// young generation; calls `between` as a scan calls it between files.
function churn(rounds: number, between: () => void): number {
  let most = 0;
  let kept: { n: number; text: string }[] = [];
  for (let i = 0; i < rounds; i += 1) {
    kept.push({ n: i, text: `value ${i}` });
    if (kept.length > 200_000) kept = [];
    if (i % 10_000 === 0) {
      between();
      most = Math.max(most, youngBytes());
    }
  }
  return most;
}

test("the scanning thread's young generation stops at a worker's size during a scan and grows again after it", () => {
  enterScan();
  const during = churn(4_000_000, holdYoungGeneration);
  leaveScan();
  assert.equal(during, 16 * 2 ** 20, "held at two 8 MiB semi-spaces");
  const after = churn(4_000_000, () => {});
  assert.ok(after > during, `grows past the hold once the scan is over (${after} bytes)`);
});
