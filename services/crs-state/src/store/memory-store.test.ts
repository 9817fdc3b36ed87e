import { MemoryStore } from "./memory-store.js";
import { storeConformance } from "./store-conformance.js";

storeConformance("in memory", async () => ({ store: new MemoryStore(), cleanup: async () => undefined }));
