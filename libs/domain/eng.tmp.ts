import { StateEngine } from "./src/state/index.ts";
const e = new StateEngine({ config: { maxSimilarityPairs: 10_000_000 } });
const N = 40000;
for (const round of [0, 1, 2]) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    const m = e.apply({ kind: "similarity", source: "soft", updates: [{ a: `c${round}-${i}`, b: "hub", distance: 0.5 }] } as never, {} as never);
  }
  const c = process.cpuUsage(c0);
  console.log(`round ${round}: ${((c.user + c.system) / N).toFixed(1)} us/op, generation ${e.generation}`);
}
