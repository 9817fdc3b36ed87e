// Line decoder throughput on a deterministic synthetic corpus, beside a plain JSON.parse
// of the same lines measured in the same run. Run: node --import tsx <this file>
import os from "node:os";
import { decodeLine } from "./decode/decode-line.js";
import { collectRollout } from "./decode/collect.js";
import { partialOfRollout } from "./corpus/partial.js";
import {
  callLine,
  completeLine,
  customCallLine,
  messageLine,
  metaLine,
  outputLine,
  startLine,
  tokenLine,
  turnContextLine,
  unifiedOutput,
} from "./testing/lines.js";

const TURNS = 4_000;
const ROUNDS = 5;

// Deterministic linear congruential generator: the corpus is identical on every run.
let seed = 0x2545f491;
function next(n: number): number {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed % n;
}

function body(len: number): string {
  const words = ["build", "src/index.ts", "passed", "error:", "warning", "ok", "TODO", "const x = 1;", "\u00e9t\u00e9"];
  let s = "";
  while (s.length < len) s += `${words[next(words.length)]} `;
  return s;
}

function corpus(): string[] {
  const lines = [metaLine("bench-rollout")];
  let t = 0;
  for (let turn = 0; turn < TURNS; turn += 1) {
    const id = `turn-${turn}`;
    lines.push(startLine((t += 1), id), turnContextLine(t, "gpt-bench", id));
    const calls = 1 + next(6);
    for (let c = 0; c < calls; c += 1) {
      const callId = `c-${turn}-${c}`;
      if (next(5) === 0) {
        lines.push(
          customCallLine(
            (t += 1),
            callId,
            "apply_patch",
            `*** Begin Patch\n*** Update File: src/f${next(20)}.ts\n@@\n-${body(80)}\n+${body(80)}\n*** End Patch`,
          ),
        );
        lines.push(outputLine((t += 1), callId, "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess."));
      } else {
        lines.push(callLine((t += 1), callId, "exec_command", { cmd: `rg -n ${body(20)}`, yield_time_ms: 1000 }));
        lines.push(outputLine((t += 2), callId, unifiedOutput(next(3), body(200 + next(2000)))));
      }
      lines.push(tokenLine(t, 20_000 + next(80_000)));
    }
    lines.push(messageLine((t += 1), body(300), "final_answer"), completeLine((t += 1), id, { duration_ms: 5000 }));
  }
  return lines;
}

function measure(lines: readonly string[], fn: (line: string) => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  let sink = 0;
  for (let r = 0; r < ROUNDS; r += 1) {
    const start = performance.now();
    for (const line of lines) if (fn(line) !== undefined) sink += 1;
    best = Math.min(best, performance.now() - start);
  }
  if (sink === 0) console.log("(no results)");
  return best;
}

const lines = corpus();
const bytes = lines.reduce((n, l) => n + Buffer.byteLength(l), 0);
measure(lines.slice(0, 5_000), decodeLine);
const parseMs = measure(lines, (l) => JSON.parse(l) as unknown);
const decodeMs = measure(lines, decodeLine);
const rate = (ms: number): string =>
  `${Math.round(lines.length / (ms / 1000)).toLocaleString("en-US")} lines/s, ${(bytes / 1_048_576 / (ms / 1000)).toFixed(1)} MB/s`;

console.log(`machine: ${os.cpus()[0]?.model ?? "unknown cpu"}, ${os.cpus().length} cores, node ${process.version}`);
console.log(
  `corpus: ${lines.length.toLocaleString("en-US")} lines, ${(bytes / 1_048_576).toFixed(1)} MB (synthetic, deterministic); best of ${ROUNDS} rounds`,
);
console.log(`JSON.parse baseline: ${rate(parseMs)}`);
console.log(`decodeLine:          ${rate(decodeMs)}`);
console.log(`ratio decodeLine / JSON.parse time: ${(decodeMs / parseMs).toFixed(2)}x`);
const foldStart = performance.now();
const partial = partialOfRollout({ rollout: collectRollout(lines), fresh: false });
const foldMs = performance.now() - foldStart;
console.log(
  `decode + fold + partial of the whole corpus as one rollout: ${rate(foldMs)} (${partial.analytics.tasks} tasks, ${partial.analytics.toolCalls} calls)`,
);
