import type { ServiceHandlers } from "@crs/runtime";
import { invalidArgument } from "@crs/runtime";
import {
  RecordSimilarityRequestSchema,
  RecordSimilarityResponseSchema,
  type SimilarityService,
} from "@crs/contracts/gen/crs/state/v1/similarity_pb";
import { compareUtf8 } from "@crs/domain/state";
import { CrsStateError } from "../errors.js";
import type { HandlerDeps } from "./deps.js";
import { requireId, requireKey } from "./ids.js";
import { runMutation } from "./mutations.js";
import { readAt, readPage, responseHeader } from "./reads.js";
import { similarityOut } from "./value-mapper.js";

/** Most neighbours one query may ask for. */
export const MAX_NEIGHBORS = 1000;

/** The pair in canonical (byte-wise) order. */
function canonical(a: string, b: string): [string, string] {
  return compareUtf8(a, b) <= 0 ? [a, b] : [b, a];
}

/** A `k` within 1..{@link MAX_NEIGHBORS}; INVALID_ARGUMENT naming `field` otherwise. */
export function requireK(k: number, field: string): number {
  if (k < 1 || k > MAX_NEIGHBORS) throw invalidArgument(field, `must be from 1 to ${MAX_NEIGHBORS}`);
  return k;
}

/** SimilarityService: distances between keys. */
export function similarityHandlers({ host }: HandlerDeps): ServiceHandlers<typeof SimilarityService.method> {
  return {
    async recordSimilarity(req) {
      const projectId = requireId(req.projectId, "project_id");
      const a = requireKey(req.a, "a");
      const b = requireKey(req.b, "b");
      const [x, y] = canonical(a, b);
      return runMutation(
        host,
        {
          method: "RecordSimilarity",
          projectId,
          requestSchema: RecordSimilarityRequestSchema,
          request: req,
          responseSchema: RecordSimilarityResponseSchema,
        },
        (engine, options) => {
          const existed = engine.snapshot().similarity.distance(a, b) !== undefined;
          const m = engine.recordSimilarity({ a, b, distance: req.distance }, options);
          return { ...m, result: existed };
        },
        (existed, header) => ({
          header: responseHeader(header),
          pair: { a: x, b: y, distance: req.distance, modGeneration: BigInt(header.generation) },
          updated: existed,
        }),
      );
    },

    async getSimilarity(req) {
      const projectId = requireId(req.projectId, "project_id");
      const [x, y] = canonical(requireKey(req.a, "a"), requireKey(req.b, "b"));
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => {
        const distance = snapshot.similarity.distance(x, y);
        if (distance === undefined)
          throw new CrsStateError("SIMILARITY_NOT_FOUND", `no similarity is recorded for ${x} and ${y}`, { a: x, b: y });
        return { header, pair: similarityOut(snapshot, x, y, distance) };
      });
    },

    async nearestNeighbors(req) {
      const projectId = requireId(req.projectId, "project_id");
      const key = requireKey(req.key, "key");
      const k = requireK(req.k, "k");
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => ({
        header,
        neighbors: snapshot.similarity.nearestNeighbors(key, k).map((n) => ({ key: n.id, distance: n.distance })),
      }));
    },

    async listSimilarityPairs(req) {
      requireId(req.projectId, "project_id");
      const page = await readPage(host, req, "listSimilarityPairs", "pairs", (snapshot) => snapshot.similarity.allPairs().pairs);
      return {
        header: page.header,
        pairs: page.rows.map((p) => similarityOut(page.snapshot, p.from, p.to, p.distance)),
        nextPageToken: page.nextPageToken,
        totalSize: BigInt(page.total),
      };
    },
  };
}
