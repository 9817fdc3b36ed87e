// Throughput of a unary call and of a server stream through the typed adapter (with metrics,
// tracing and call tracking), against a bare grpc-js server using the same serializers and no
// wrapper, measured in the same run on loopback.
import { cpus } from "node:os";
import { Server, ServerCredentials, credentials, type sendUnaryData, type ServerUnaryCall, type ServerWritableStream } from "@grpc/grpc-js";
import { create } from "@bufbuild/protobuf";
import { EchoResponseSchema, EchoService, EchoStreamResponseSchema } from "@crs/contracts/gen/crs/testing/v1/echo_pb";
import { createClient } from "./client.js";
import { toGrpcServiceDefinition } from "./service-definition.js";
import { startEchoServer } from "../testing/echo-server.js";

const CALLS = 4000;
const IN_FLIGHT = 50;
const STREAM_MESSAGES = 50_000;

async function bareServer(): Promise<{ port: number; stop: () => void }> {
  const server = new Server();
  server.addService(toGrpcServiceDefinition(EchoService), {
    echo: (call: ServerUnaryCall<{ message: string }, unknown>, callback: sendUnaryData<unknown>) =>
      callback(null, create(EchoResponseSchema, { message: call.request.message })),
    echoStream: (call: ServerWritableStream<{ message: string; count: number }, unknown>) => {
      for (let index = 0; index < call.request.count; index++)
        call.write(create(EchoStreamResponseSchema, { message: call.request.message, index }));
      call.end();
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return { port, stop: () => server.forceShutdown() };
}

async function measure(port: number): Promise<{ unaryPerSec: number; streamPerSec: number }> {
  const client = createClient(EchoService, `127.0.0.1:${port}`, { credentials: credentials.createInsecure() });
  try {
    await client.echo({ message: "warm" });
    let next = 0;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next++ < CALLS) await client.echo({ message: "x" });
      }),
    );
    const unarySeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const streamStart = process.hrtime.bigint();
    let received = 0;
    for await (const _ of client.echoStream({ message: "y", count: STREAM_MESSAGES })) received++;
    const streamSeconds = Number(process.hrtime.bigint() - streamStart) / 1e9;
    return { unaryPerSec: CALLS / unarySeconds, streamPerSec: received / streamSeconds };
  } finally {
    client.close();
  }
}

const best = (runs: { unaryPerSec: number; streamPerSec: number }[]) => ({
  unaryPerSec: Math.max(...runs.map((r) => r.unaryPerSec)),
  streamPerSec: Math.max(...runs.map((r) => r.streamPerSec)),
});

const bare = await bareServer();
// The same work as the bare handlers: no delays, no failure paths.
const typed = await startEchoServer(
  {},
  {
    echo: async (request) => ({ message: request.message }),
    async *echoStream(request) {
      for (let index = 0; index < request.count; index++) yield { message: request.message, index };
    },
  },
);
typed.client.close();
const bareRuns = [];
const typedRuns = [];
for (let round = 0; round < 3; round++) {
  bareRuns.push(await measure(bare.port));
  typedRuns.push(await measure(typed.port));
}
bare.stop();
await typed.server.shutdown(1000);
const b = best(bareRuns);
const t = best(typedRuns);
console.log(`machine: ${cpus()[0]?.model ?? "unknown"}, ${cpus().length} cores, node ${process.version}`);
console.log(
  `unary, ${IN_FLIGHT} in flight:  bare grpc-js ${Math.round(b.unaryPerSec)} calls/s, adapter ${Math.round(t.unaryPerSec)} calls/s, adapter/bare ${(t.unaryPerSec / b.unaryPerSec).toFixed(2)}x`,
);
console.log(
  `server stream:        bare grpc-js ${Math.round(b.streamPerSec)} msg/s, adapter ${Math.round(t.streamPerSec)} msg/s, adapter/bare ${(t.streamPerSec / b.streamPerSec).toFixed(2)}x`,
);
