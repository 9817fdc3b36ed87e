import { toBinary, type DescFile } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";

/**
 * Serialized FileDescriptorProtos of `files` and everything they import, each file once,
 * dependencies first: the shape server reflection serves.
 */
export function fileDescriptorProtos(files: readonly DescFile[]): Uint8Array[] {
  const seen = new Set<string>();
  const out: Uint8Array[] = [];
  const visit = (file: DescFile): void => {
    if (seen.has(file.name)) return;
    seen.add(file.name);
    for (const dep of file.dependencies) visit(dep);
    out.push(toBinary(FileDescriptorProtoSchema, file.proto));
  };
  for (const file of files) visit(file);
  return out;
}
