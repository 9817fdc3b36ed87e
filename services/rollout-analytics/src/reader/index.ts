/** The one streaming rollout reader: uploads, scans and workers decode rollouts through it. */
export { RolloutReader, DEFAULT_MAX_LINE_BYTES, type ReaderLimits } from "./rollout-reader.js";
export {
  readRolloutFile,
  readRolloutFileSync,
  foldRolloutFile,
  foldRolloutFileSync,
  foldRolloutFileInTurns,
  foldRolloutStream,
  readChunks,
  READ_CHUNK_BYTES,
  fileChunks,
  type ReadRollout,
  type FoldedFile,
  type FoldedStream,
  type FoldFileOptions,
  TURN_BYTES,
} from "./read-file.js";
export { LineSplitter, HEAD_BYTES, type LineSink } from "./line-splitter.js";
