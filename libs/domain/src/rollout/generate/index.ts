// Public surface of the seeded corpus generator.
export { createPrng, type Prng } from "./prng.js";
export { PLANTED_SECRET_MARKER, secretPlanter, type SecretPlace, type SecretPlanter } from "./secrets.js";
export { corpusRollouts, DEFAULT_CORPUS_FROM_MS, DEFAULT_CORPUS_SPAN_DAYS, type CorpusOptions } from "./corpus.js";
export { generateRollout, type GeneratedRollout, type RolloutSpec } from "./rollout.js";
export type { RolloutEra } from "./session.js";
