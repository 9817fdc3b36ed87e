import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { credentials, status } from "@grpc/grpc-js";
import { createClient, errorDetailOf, type TypedClient } from "@crs/runtime";
import { ChangeKind } from "@crs/contracts/gen/crs/state/v1/delta_pb";
import { ProofStatus, SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { WatchService, type WatchRequest, type WatchResponse } from "@crs/contracts/gen/crs/state/v1/watch_pb";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { WatchRequestSchema } from "@crs/contracts/gen/crs/state/v1/watch_pb";
import { expectError, startTestServer, type TestServer } from "./test-support.js";
import { MAX_QUEUED_WATCH_MESSAGES } from "./watch-queue.js";

type Watcher = TypedClient<typeof WatchService.method>;

/** A soft proof delta over `nodes`. */
const proof = (...nodes: string[]) => ({
  source: SignalSource.SOFT,
  kind: {
    case: "proof" as const,
    value: {
      entries: nodes.map((nodeId) => ({
        nodeId,
        value: { proof: 3n, disproof: 10n, status: ProofStatus.EXPANDED, source: SignalSource.SOFT },
      })),
    },
  },
});

/** Pulls a watch's messages one at a time. */
class Reader {
  readonly #it: AsyncIterator<WatchResponse>;
  constructor(stream: AsyncIterable<WatchResponse>) {
    this.#it = stream[Symbol.asyncIterator]();
  }
  async next(): Promise<WatchResponse> {
    const r = await this.#it.next();
    assert.ok(r.done !== true, "the stream ended");
    return r.value;
  }
  /** Generations of the changes received until `through` is reached. */
  async changesThrough(through: bigint): Promise<bigint[]> {
    const out: bigint[] = [];
    while (out.at(-1) !== through) {
      const m = await this.next();
      assert.ok(m.changes.length > 0 || !m.created, "created comes once");
      for (const c of m.changes) out.push(c.generation);
    }
    return out;
  }
}

/** A sample of the service's /metrics. */
async function metric(s: TestServer, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${s.service.metricsPort}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  assert.ok(line !== undefined, `${name} is exported`);
  return Number(line.split(" ")[1]);
}

/** Waits until `name` reads `value`, for up to two seconds. */
async function metricReaches(s: TestServer, name: string, value: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await metric(s, name)) === value) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(await metric(s, name), value, name);
}

describe("WatchService through gRPC", () => {
  let s: TestServer;
  let watch: Watcher;
  let n = 0;
  const open = (req: MessageInitShape<typeof WatchRequestSchema>, opts?: { signal?: AbortSignal; deadline?: number }) =>
    new Reader(watch.watch(req as WatchRequest, opts));
  const project = async (config = {}) => {
    const projectId = `w${++n}`;
    const created = await s.state.createProject({ projectId, config });
    return { projectId, uid: created.header?.projectUid ?? "" };
  };
  before(async () => {
    s = await startTestServer();
    watch = createClient(WatchService, `127.0.0.1:${s.service.port}`, { credentials: credentials.createInsecure() });
  });
  after(async () => {
    watch.close();
    await s.stop();
  });

  it("a new watch sends created with the project's uid and generation, then only changes after it", async () => {
    const { projectId, uid } = await project();
    await s.state.apply({ projectId, delta: proof("a") });
    await s.state.apply({ projectId, delta: proof("b") });
    const ac = new AbortController();
    const r = open({ projectId }, { signal: ac.signal });
    const created = await r.next();
    assert.equal(created.created, true);
    assert.deepEqual([created.header?.projectId, created.header?.projectUid, created.header?.generation], [projectId, uid, 2n]);
    assert.equal(created.changes.length, 0);
    await s.state.apply({ projectId, delta: proof("c") });
    const live = await r.next();
    assert.equal(live.created, false);
    assert.deepEqual(
      live.changes.map((c) => c.generation),
      [3n],
      "no change at or before the watch's start",
    );
    assert.equal(live.header?.generation, 3n);
    assert.equal(live.changes[0]?.delta?.kind.case, "proof", "payloads by default");
    ac.abort();
  });

  it("catch-up and live changes leave no gap and repeat none while applies run concurrently", async () => {
    const { projectId } = await project();
    for (let i = 0; i < 5; i++) await s.state.apply({ projectId, delta: proof(`n${i}`) });
    const ac = new AbortController();
    const applies = Promise.all(Array.from({ length: 40 }, (_, i) => s.state.apply({ projectId, delta: proof(`m${i}`) })));
    const r = open({ projectId, startGeneration: 2n }, { signal: ac.signal });
    assert.equal((await r.next()).created, true);
    await applies;
    const got = await r.changesThrough(45n);
    assert.deepEqual(
      got,
      Array.from({ length: 44 }, (_, i) => BigInt(i + 2)),
    );
    ac.abort();
  });

  it("a start generation of the next one sends only live changes, and one beyond it is OUT_OF_RANGE / GENERATION_IN_FUTURE", async () => {
    const { projectId } = await project();
    await s.state.apply({ projectId, delta: proof("a") });
    const error = await expectError(
      open({ projectId, startGeneration: 3n }).next(),
      status.OUT_OF_RANGE,
      "GENERATION_IN_FUTURE",
      "start_generation",
    );
    assert.equal(errorDetailOf(error)?.metadata["current_generation"], "1");
    const ac = new AbortController();
    const r = open({ projectId, startGeneration: 2n }, { signal: ac.signal });
    assert.equal((await r.next()).header?.generation, 1n);
    await s.state.apply({ projectId, delta: proof("b") });
    assert.deepEqual(await r.changesThrough(2n), [2n]);
    ac.abort();
  });

  it("a start generation the history no longer holds is OUT_OF_RANGE / GENERATION_COMPACTED naming the oldest held", async () => {
    const { projectId } = await project({ maxChangeRecords: 3 });
    for (let i = 0; i < 5; i++) await s.state.apply({ projectId, delta: proof(`n${i}`) });
    const error = await expectError(
      open({ projectId, startGeneration: 2n }).next(),
      status.OUT_OF_RANGE,
      "GENERATION_COMPACTED",
      "start_generation",
    );
    assert.equal(errorDetailOf(error)?.metadata["oldest_generation"], "3");
    assert.equal(errorDetailOf(error)?.metadata["current_generation"], "5");
    const ac = new AbortController();
    const r = open({ projectId, startGeneration: 3n }, { signal: ac.signal });
    await r.next();
    assert.deepEqual(await r.changesThrough(5n), [3n, 4n, 5n]);
    ac.abort();
  });

  it("refuses a watch of another incarnation, an unknown project and malformed fields before registering it", async () => {
    const { projectId } = await project();
    await expectError(open({ projectId, expectedProjectUid: "0123abcd" }).next(), status.FAILED_PRECONDITION, "PROJECT_UID_MISMATCH");
    await expectError(open({ projectId: "absent" }).next(), status.NOT_FOUND, "PROJECT_NOT_FOUND");
    await expectError(open({ projectId: "" }).next(), status.INVALID_ARGUMENT, "INVALID_ARGUMENT", "project_id");
    await expectError(open({ projectId, startGeneration: 0n }).next(), status.INVALID_ARGUMENT, "INVALID_ARGUMENT", "start_generation");
    await expectError(open({ projectId, nodeIds: ["ok", "bad id"] }).next(), status.INVALID_ARGUMENT, "INVALID_ARGUMENT", "node_ids[1]");
    await expectError(open({ projectId, kinds: [99 as ChangeKind] }).next(), status.INVALID_ARGUMENT, "INVALID_ARGUMENT", "kinds[0]");
    await expectError(
      open({ projectId, progressIntervalMs: 2 ** 31 }).next(),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "progress_interval_ms",
    );
    await metricReaches(s, "crs_state_watch_listeners", 0);
  });

  it("filters by node, by kind and to summaries without sending what does not match", async () => {
    const { projectId } = await project();
    const ac = new AbortController();
    const byNode = open({ projectId, nodeIds: ["b"], summaryOnly: true }, { signal: ac.signal });
    const byKind = open({ projectId, kinds: [ChangeKind.CYCLE_DETECTED] }, { signal: ac.signal });
    await byNode.next();
    await byKind.next();
    await s.state.apply({ projectId, delta: proof("a") });
    await s.state.apply({ projectId, delta: proof("a", "b") });
    let detected = 0n;
    for (const stateKey of ["plan", "grep", "plan"]) {
      const r = await s.cycles.checkCycle({ projectId, sessionId: "s", stateKey });
      if (r.detection?.detected === true) detected = r.header?.generation ?? 0n;
    }
    assert.ok(detected > 0n, "a loop was detected");
    const nodeMessage = await byNode.next();
    assert.deepEqual(
      nodeMessage.changes.map((c) => c.generation),
      [2n],
      "only the change touching b",
    );
    assert.equal(nodeMessage.changes[0]?.delta, undefined, "summaries only");
    assert.match(nodeMessage.changes[0]?.summary ?? "", /proof/i);
    const kindMessage = await byKind.next();
    assert.deepEqual(
      kindMessage.changes.map((c) => [c.generation, c.kind]),
      [[detected, ChangeKind.CYCLE_DETECTED]],
    );
    ac.abort();
  });

  it("sends an empty progress message with the current header after the interval without changes", async () => {
    const { projectId, uid } = await project();
    await s.state.apply({ projectId, delta: proof("a") });
    const ac = new AbortController();
    const r = open({ projectId, progressIntervalMs: 50, nodeIds: ["elsewhere"] }, { signal: ac.signal });
    await r.next();
    await s.state.apply({ projectId, delta: proof("a") });
    const progress = await r.next();
    assert.equal(progress.created, false);
    assert.equal(progress.changes.length, 0);
    assert.deepEqual([progress.header?.projectUid, progress.header?.generation], [uid, 2n], "the generation heard, though filtered out");
    ac.abort();
  });

  it("a cancelled or timed-out watch releases its commit listener", async () => {
    const { projectId } = await project();
    await metricReaches(s, "crs_state_watch_listeners", 0);
    const ac = new AbortController();
    const r = open({ projectId }, { signal: ac.signal });
    await r.next();
    assert.equal(await metric(s, "crs_state_watch_listeners"), 1);
    ac.abort();
    await assert.rejects(r.next(), (e: { code: number }) => e.code === status.CANCELLED);
    await metricReaches(s, "crs_state_watch_listeners", 0);
    const timed = open({ projectId }, { deadline: 300 });
    await timed.next();
    await assert.rejects(timed.next(), (e: { code: number }) => e.code === status.DEADLINE_EXCEEDED);
    await metricReaches(s, "crs_state_watch_listeners", 0);
  });

  it("a deleted project ends its watch NOT_FOUND and releases the listener", async () => {
    const { projectId } = await project();
    const r = open({ projectId });
    await r.next();
    await s.state.deleteProject({ projectId });
    await expectError(r.next(), status.NOT_FOUND, "PROJECT_NOT_FOUND");
    await metricReaches(s, "crs_state_watch_listeners", 0);
  });

  it("a consumer that stops reading is ended RESOURCE_EXHAUSTED / WATCH_SLOW_CONSUMER instead of queueing without bound", async () => {
    const { projectId } = await project();
    const r = open({ projectId });
    await r.next();
    // Large changes fill the transport's window soon; the server then queues, up to its bound.
    const nodes = Array.from({ length: 200 }, (_, i) => `node-with-a-long-name-${i}`);
    let applied = 0;
    let peak = 0;
    while ((await metric(s, "crs_state_watch_listeners")) > 0) {
      assert.ok(applied < 5000, "the watch ended before 5000 unread changes");
      for (let i = 0; i < 25; i++) await s.state.apply({ projectId, delta: proof(...nodes) });
      applied += 25;
      peak = Math.max(peak, await metric(s, "crs_state_watch_queued_messages"));
    }
    assert.ok(peak <= MAX_QUEUED_WATCH_MESSAGES, `queued ${peak} at most ${MAX_QUEUED_WATCH_MESSAGES}`);
    assert.equal(await metric(s, "crs_state_watch_queued_messages"), 0, "nothing is kept for the ended watch");
    // The call itself ends on the server while the client still reads nothing: no write waits on it.
    for (let i = 0; i < 100 && s.service.server.tracker.size > 0; i++) await new Promise((done) => setTimeout(done, 20));
    assert.equal(s.service.server.tracker.size, 0, "the stream's call has ended before the consumer read again");
    let received = 0;
    const error = await expectError(
      (async () => {
        for (;;) received += (await r.next()).changes.length;
      })(),
      status.RESOURCE_EXHAUSTED,
      "WATCH_SLOW_CONSUMER",
    );
    assert.equal(errorDetailOf(error)?.metadata["limit"], String(MAX_QUEUED_WATCH_MESSAGES));
    assert.ok(received < applied, `the consumer got ${received} of ${applied} changes before the end`);
  });
});

describe("WatchService at shutdown", () => {
  it("shutdown ends an open watch UNAVAILABLE / SERVER_SHUTTING_DOWN instead of leaving it hanging", async () => {
    const s = await startTestServer();
    const watch: Watcher = createClient(WatchService, `127.0.0.1:${s.service.port}`, { credentials: credentials.createInsecure() });
    try {
      await s.state.createProject({ projectId: "down" });
      const r = new Reader(watch.watch({ projectId: "down" } as WatchRequest));
      assert.equal((await r.next()).created, true);
      const stopping = s.stop();
      await expectError(r.next(), status.UNAVAILABLE, "SERVER_SHUTTING_DOWN");
      await stopping;
    } finally {
      watch.close();
    }
  });
});
