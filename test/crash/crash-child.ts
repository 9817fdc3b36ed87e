/**
 * The process the crash test kills: a project host on classic-level in the directory given as
 * argv[2], driven by JSON lines on stdin and answering JSON lines on stdout, one per request,
 * written only once the host has acknowledged (synced) the mutation.
 */

import { createInterface } from "node:readline";
import { StoreHost } from "@crs/crs-state/projects";
import { LevelStore } from "@crs/crs-state/store";

/** One request line. */
type Request =
  | { id: number; op: "create"; project: string }
  | { id: number; op: "mutate"; project: string; key: string; requestId: string }
  | { id: number; op: "probe"; project: string; keys: string[] };

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const dir = process.argv[2] ?? "";
const host = new StoreHost(await LevelStore.open(dir), { snapshotEveryRecords: Number(process.argv[3] ?? "50") });

function reply(value: object): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

async function handle(r: Request): Promise<object> {
  switch (r.op) {
    case "create":
      try {
        const h = await host.create(r.project, { config: { maxSimilarityPairs: 1_000_000 }, requestId: `create-${r.project}` });
        return { generation: h.generation };
      } catch (e) {
        return { error: (e as { code?: string }).code ?? String(e) };
      }
    case "mutate": {
      const out = await host.mutate(
        r.project,
        { method: "RecordSimilarity", requestId: r.requestId, fingerprint: encoder.encode(r.key) },
        (engine) => engine.recordSimilarity({ a: r.key, b: "hub", distance: 1 }),
        (_result, header) => encoder.encode(JSON.stringify({ generation: header.generation, key: r.key })),
      );
      return { answer: decoder.decode(out.answer), replayed: out.replayed, generation: out.header.generation };
    }
    case "probe":
      return host.read(r.project, (v) => ({ generation: v.header.generation, present: r.keys.filter((k) => v.snapshot.similarity.distance(k, "hub") !== undefined) }));
  }
}

createInterface({ input: process.stdin }).on("line", (line) => {
  const r = JSON.parse(line) as Request;
  handle(r).then(
    (value) => reply({ id: r.id, ...value }),
    (e: unknown) => reply({ id: r.id, error: (e as { code?: string }).code ?? String(e) }),
  );
});
reply({ id: 0, ready: true });
