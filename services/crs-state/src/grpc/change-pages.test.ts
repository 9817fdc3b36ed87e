import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { credentials } from "@grpc/grpc-js";
import { createClient, type TypedClient } from "@crs/runtime";
import { HistoryService } from "@crs/contracts/gen/crs/state/v1/history_pb";
import { ProofStatus, SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { startTestServer, type TestServer } from "./test-support.js";

const MiB = 1024 * 1024;
const SOFT = SignalSource.SOFT;
/** A delta at its entry limit, with long node ids: about 5 MiB on the wire, twice that as a change. */
const BIG_ENTRIES = 10_000;
const longId = (i: number) => `${"n".repeat(500)}${String(i).padStart(5, "0")}`;
const proofDelta = (ids: readonly string[], proof: bigint) => ({
  source: SOFT,
  kind: {
    case: "proof" as const,
    value: { entries: ids.map((nodeId) => ({ nodeId, value: { proof, disproof: 9n, status: ProofStatus.EXPANDED, source: SOFT } })) },
  },
});

type History = TypedClient<typeof HistoryService.method>;

/** Every generation of a listing read page by page, and the number of pages. */
async function allPages(
  list: (pageToken: string) => Promise<{ changes: readonly { generation: bigint }[]; nextPageToken: string }>,
): Promise<{ generations: bigint[]; pages: number }> {
  const generations: bigint[] = [];
  let pages = 0;
  let token = "";
  do {
    const page = await list(token);
    generations.push(...page.changes.map((c) => c.generation));
    pages++;
    token = page.nextPageToken;
  } while (token !== "");
  return { generations, pages };
}

describe("change listings of large deltas, through gRPC", () => {
  let s: TestServer;
  // A client that accepts what the server may send (16 MiB), not grpc-js' default of 4 MiB.
  let history: History;
  const big = Array.from({ length: BIG_ENTRIES }, (_, i) => longId(i));
  before(async () => {
    s = await startTestServer();
    history = createClient(HistoryService, `127.0.0.1:${s.service.port}`, {
      credentials: credentials.createInsecure(),
      channelOptions: { "grpc.max_receive_message_length": 16 * MiB },
    });
    await s.state.createProject({ projectId: "big" });
    // Generations 1-3 small, 4-6 near the delta limits, 7-8 small again.
    for (const i of [1, 2, 3]) await s.state.apply({ projectId: "big", delta: proofDelta([`small${i}`, big[0] as string], 1n) });
    for (const p of [2n, 3n, 4n]) await s.state.apply({ projectId: "big", delta: proofDelta(big, p) });
    for (const i of [7, 8]) await s.state.apply({ projectId: "big", delta: proofDelta([`small${i}`, big[0] as string], 1n) });
  });
  after(async () => {
    history.close();
    await s.stop();
  });

  it("pages ListChangesInRange by bytes instead of answering past the message limit, losing nothing", async () => {
    const { generations, pages } = await allPages((pageToken) =>
      history.listChangesInRange({ projectId: "big", pageSize: 1000, pageToken }),
    );
    assert.deepEqual(generations, [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n], "every change exactly once, in order");
    assert.equal(pages, 5, "each large change on a page of its own, the small ones sharing theirs");
    const first = await history.listChangesInRange({ projectId: "big", pageSize: 1000 });
    assert.deepEqual(
      first.changes.map((c) => c.generation),
      [1n, 2n, 3n],
    );
    const second = await history.listChangesInRange({ projectId: "big", pageSize: 1000, pageToken: first.nextPageToken });
    const delta = second.changes[0]?.delta?.kind;
    assert.equal(delta?.case === "proof" ? delta.value.entries.length : 0, BIG_ENTRIES, "the full delta is served");
  });

  it("pages ListChangesByNode by bytes the same way", async () => {
    const { generations } = await allPages((pageToken) =>
      history.listChangesByNode({ projectId: "big", nodeId: big[0] as string, pageSize: 1000, pageToken }),
    );
    assert.deepEqual(generations, [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n]);
  });
});
