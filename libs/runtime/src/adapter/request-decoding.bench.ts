// CPU time per decode of a realistic Apply request (one similarity update, a request id, a source;
// the request crs-state's Apply bench sends) by the schema-driven decoder, against protobuf-es
// fromBinary measured in the same run, in interleaved rounds.
import { cpus } from "node:os";
import { isDeepStrictEqual } from "node:util";
import { create, fromBinary, toBinary, type DescMessage } from "@bufbuild/protobuf";
import { SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { ApplyRequestSchema } from "@crs/contracts/gen/crs/state/v1/state_pb";
import { decodeMessage } from "./message-decoder.js";
import { useBufferTextEncoding } from "./text-encoding.js";

const CALLS = 200_000;
const ROUNDS = 7;

useBufferTextEncoding();
const request = create(ApplyRequestSchema, {
  projectId: "bench-3",
  delta: { source: SignalSource.SOFT, kind: { case: "similarity", value: { updates: [{ a: "c3-18734", b: "hub", distance: 0.5 }] } } },
  options: { requestId: "c3-18734" },
});
// A Buffer, as grpc-js hands a request over.
const bytes = Buffer.from(toBinary(ApplyRequestSchema, request));
if (!isDeepStrictEqual(decodeMessage(ApplyRequestSchema, bytes), fromBinary(ApplyRequestSchema, bytes)))
  throw new TypeError("the decoder and fromBinary disagree on the bench request");

type Decode = (desc: DescMessage, bytes: Uint8Array) => unknown;

let sink: unknown;
// CPU microseconds of user + system time per call.
function cpuPerCall(decode: Decode): number {
  const start = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) sink = decode(ApplyRequestSchema, bytes);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / CALLS;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const subjects: Record<string, Decode> = { fromBinary, decoder: decodeMessage };
for (const decode of Object.values(subjects)) cpuPerCall(decode); // warm-up
const runs: Record<string, number[]> = { fromBinary: [], decoder: [] };
for (let round = 0; round < ROUNDS; round++) for (const [name, decode] of Object.entries(subjects)) runs[name]?.push(cpuPerCall(decode));
void sink;

const base = median(runs["fromBinary"] as number[]);
const ours = median(runs["decoder"] as number[]);
console.log(`machine: ${cpus()[0]?.model ?? "unknown"}, ${cpus().length} cores, node ${process.version}`);
console.log(
  `ApplyRequest (${bytes.length} bytes), CPU per decode, median of ${ROUNDS} interleaved rounds of ${CALLS}: ` +
    `fromBinary ${(base * 1000).toFixed(0)} ns, decoder ${(ours * 1000).toFixed(0)} ns, decoder/fromBinary ${(ours / base).toFixed(2)}x`,
);
