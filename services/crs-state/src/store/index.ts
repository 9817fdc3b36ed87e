/** Stores: one contract, implemented in memory and on classic-level. */

export type { ProjectStore, StoreCapabilities, StoreOp } from "./project-store.js";
export type { CheckpointRange, ListedCheckpoint, MetaValue, SeqValue, StoredCheckpoint } from "./project-store.js";
export { MemoryStore } from "./memory-store.js";
export { LevelStore } from "./level-store.js";
export type { LevelStoreOptions } from "./level-store.js";
export type { BatchOp, BatchWriter } from "./level/durable-batch.js";
