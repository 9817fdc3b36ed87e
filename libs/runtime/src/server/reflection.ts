import type { Server } from "@grpc/grpc-js";
import type { DescFile } from "@bufbuild/protobuf";
import { ReflectionService } from "@grpc/reflection";
import { fileDescriptorProtos } from "@crs/contracts";

/**
 * Serves gRPC reflection (v1 and v1alpha) from our own protobuf-es descriptors, so `buf curl` and
 * grpcurl-style tools can list and call every method of the `services` this server registers.
 */
export function addReflection(server: Server, files: readonly DescFile[], services: readonly string[]): void {
  // @grpc/reflection only reads the serialized descriptors of each entry, whatever loaded them.
  const packageDefinition = { descriptors: { fileDescriptorProtos: fileDescriptorProtos(files).map((b) => Buffer.from(b)) } };
  new ReflectionService(packageDefinition as never, { services: [...services] }).addToServer(server);
}
