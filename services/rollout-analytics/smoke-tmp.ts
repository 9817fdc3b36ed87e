import { scanCorpus } from "./src/scan/index.js";
for (const workers of [2, 2]) {
  const t0 = Date.now();
  const r = await scanCorpus({ root: "../../../shared/codex-rollouts-real", now: Date.now(), workers, cacheDir: false });
  console.log(workers, Date.now() - t0, r.partial.analytics.toolCalls);
}
