import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Runs the test module `moduleUrl` again in a child process whose V8 heap is capped at `heapMb`
 * (so unbounded memory fails it by crashing), with `env` added; asserts it exited 0 (`done` says
 * what it did) and returns the JSON object its last line of output holds.
 */
export function runInCappedHeap<T>(moduleUrl: string, heapMb: number, env: Record<string, string>, done: string): T {
  const child = spawnSync(process.execPath, [`--max-old-space-size=${heapMb}`, "--import", "tsx", fileURLToPath(moduleUrl)], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  assert.equal(child.status, 0, `the child ${done} without running out of memory: ${child.stderr.slice(-1500)}`);
  return JSON.parse(child.stdout.trim().split("\n").pop() ?? "{}") as T;
}
