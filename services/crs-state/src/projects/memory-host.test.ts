import { MemoryStore } from "../store/memory-store.js";
import { hostConformance } from "./host-conformance.js";

hostConformance("the in-memory store", async () => ({ store: new MemoryStore(), cleanup: async () => undefined }));
