/**
 * The no-op baseline of the Apply benchmark: a plain grpc-js server answering
 * crs.state.v1.StateService/Apply with the same protobuf-es message types (request decoded,
 * response built and encoded on every call) but doing no work, so the ratio measures what
 * crs-state adds over gRPC and protobuf themselves.
 */

import { Server, ServerCredentials, type sendUnaryData, type ServerUnaryCall, type ServiceDefinition } from "@grpc/grpc-js";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { ApplyRequestSchema, ApplyResponseSchema, type ApplyRequest } from "@crs/contracts/gen/crs/state/v1/state_pb";
import { DeltaType } from "@crs/contracts/gen/crs/state/v1/delta_pb";
import { IndexKind } from "@crs/contracts/gen/crs/state/v1/types_pb";

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

const definition = {
  apply: {
    path: "/crs.state.v1.StateService/Apply",
    requestStream: false,
    responseStream: false,
    requestSerialize: (message: never) => asBuffer(toBinary(ApplyRequestSchema, message)),
    requestDeserialize: (bytes: Buffer) => fromBinary(ApplyRequestSchema, bytes),
    responseSerialize: (message: never) => asBuffer(toBinary(ApplyResponseSchema, message)),
    responseDeserialize: (bytes: Buffer) => fromBinary(ApplyResponseSchema, bytes),
  },
} as unknown as ServiceDefinition;

/** A listening no-op Apply server on a free loopback port, and its stop. */
export async function startNoopApplyServer(): Promise<{ port: number; stop(): Promise<void> }> {
  // The transport options crs-state's server runs with, so the ratio counts no difference in them.
  const server = new Server({
    "grpc.max_receive_message_length": 16 * 2 ** 20,
    "grpc.max_send_message_length": 16 * 2 ** 20,
    "grpc.keepalive_time_ms": 60_000,
    "grpc.keepalive_timeout_ms": 20_000,
    "grpc.keepalive_permit_without_calls": 1,
    "grpc.max_connection_age_grace_ms": 30_000,
    "grpc.enable_channelz": 0,
  });
  let generation = 0n;
  server.addService(definition, {
    // An answer of the shape crs-state sends, so both sides encode and decode the same fields.
    apply: (call: ServerUnaryCall<ApplyRequest, unknown>, callback: sendUnaryData<unknown>) => {
      generation++;
      callback(
        null,
        create(ApplyResponseSchema, {
          header: { projectId: call.request.projectId, projectUid: "0123456789abcdef0123456789abcdef", generation },
          metrics: {
            deltaType: DeltaType.SIMILARITY,
            indexesUpdated: [IndexKind.SIMILARITY],
            entriesModified: 1n,
            oldGeneration: generation - 1n,
            newGeneration: generation,
          },
        }),
      );
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return { port, stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())) };
}
