import { MemoryStore } from "../store/memory-store.js";
import { checkpointConformance } from "./checkpoint-conformance.js";
import { hostConformance } from "./host-conformance.js";

const memory = async () => ({ store: new MemoryStore(), cleanup: async () => undefined });
hostConformance("the in-memory store", memory);
checkpointConformance("the in-memory store", memory);
