/** Stores: one contract, implemented in memory and on classic-level. */

export type { CheckpointRange, MetaValue, ProjectStore, SeqValue, StoreCapabilities, StoreOp } from "./project-store.js";
export { MemoryStore } from "./memory-store.js";
export { LevelStore } from "./level-store.js";
export type { LevelStoreOptions } from "./level-store.js";
export type { BatchOp, BatchWriter } from "./level/durable-batch.js";
