// Writes seeded rollout corpora for tests, benchmarks and demos.
export { writeCorpus, type WriteCorpusOptions, type WriteCorpusResult } from "./write-corpus.js";
