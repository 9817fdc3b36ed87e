/**
 * @crs/contracts: the protobuf-es code generated from proto/ (under ./gen, imported by subpath
 * as `@crs/contracts/gen/<package path>/<file>_pb`) and the hand-written helpers beside it.
 */
export { fileDescriptorProtos } from "./descriptors.js";
export { crsStateFiles, crsAnalyticsFiles } from "./files.js";
