import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { Metadata } from "@grpc/grpc-js";
import type { CallContext } from "@crs/runtime";
import {
  DeleteCheckpointRequestSchema,
  type DeleteCheckpointResponse,
  ForkProjectRequestSchema,
  GetCheckpointRequestSchema,
  type GetCheckpointResponse,
} from "@crs/contracts/gen/crs/state/v1/state_pb";
import {
  GetProjectStatusRequestSchema,
  type GetProjectStatusResponse,
  JournalBackend,
} from "@crs/contracts/gen/crs/state/v1/maintenance_pb";
import { IndexKind } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { openProjectHost, type ProjectHost } from "../projects/index.js";
import { answerOf, codeOf, similarity } from "../projects/host-conformance.js";
import { checkpointHandlers } from "./checkpoint-handlers.js";
import { maintenanceHandlers } from "./maintenance-handlers.js";

const call: CallContext = {
  method: "/crs.state.v1.StateService/ForkProject",
  metadata: new Metadata(),
  peer: "test",
  deadline: undefined,
  signal: new AbortController().signal,
  end: () => undefined,
};

/**
 * `host`, except that `action` runs once the call has begun: right after the first host method
 * named in `after` returns, or right before the first one named in `before` runs, as another
 * client's calls may land at any point of a call. Names are `read`, `status`, `fork`, or
 * `checkpoints.<method>`.
 */
function interleaved(host: ProjectHost, hooks: { after?: string[]; before?: string[] }, action: () => Promise<void>): ProjectHost {
  let done = false;
  const once = async (): Promise<void> => {
    if (done) return;
    done = true;
    await action();
  };
  const hooked = <T extends object>(target: T, prefix: string): T =>
    new Proxy(target, {
      get(t, key, receiver) {
        const value: unknown = Reflect.get(t, key, receiver);
        const name = `${prefix}${String(key)}`;
        if (name === "checkpoints") return hooked(value as object, "checkpoints.");
        if (typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          if (hooks.before?.includes(name)) await once();
          const result: unknown = await (value as (...a: unknown[]) => unknown).apply(t, args);
          if (hooks.after?.includes(name)) await once();
          return result;
        };
      },
    });
  return hooked(host, "");
}

/** `host`, except that the project `id` is deleted and created again with other content once the call has begun. */
function recreatedMidCall(host: ProjectHost, id: string, hooks: { after?: string[]; before?: string[] }): ProjectHost {
  return interleaved(host, hooks, async () => {
    await host.delete(id, {});
    await host.create(id, {});
    for (const b of ["new-1", "new-2", "new-3"]) await host.mutate(id, { method: "Apply" }, similarity("x", b, 0.5), answerOf);
  });
}

/** A project `src` at generation 1 in a fresh in-memory host, with handlers seeing it re-created mid-call. */
async function withRecreatedSource(
  hooks: { after?: string[]; before?: string[] },
  fn: (handlers: ReturnType<typeof checkpointHandlers>, host: ProjectHost, oldUid: string) => Promise<void>,
): Promise<void> {
  const host = await openProjectHost({});
  try {
    const oldUid = (await host.create("src", {})).projectUid;
    await host.mutate("src", { method: "Apply" }, similarity("x", "old", 0.1), answerOf);
    await host.checkpoints.create("src", { checkpointId: "cp" });
    await fn(
      checkpointHandlers({
        host: recreatedMidCall(host, "src", hooks),
        elapsed: () => 0,
        maxMessageBytes: 16 * 1024 * 1024,
        maxImportBytes: 1024,
      }),
      host,
      oldUid,
    );
  } finally {
    await host.close();
  }
}

describe("a project deleted and created again under its id while a call is in flight", () => {
  it("ForkProject never copies the new incarnation when it named the old uid", async () => {
    await withRecreatedSource({ after: ["read"], before: ["fork"] }, async (handlers, host, oldUid) => {
      const request = create(ForkProjectRequestSchema, {
        projectId: "src",
        targetProjectId: "copy",
        origin: { case: "atGeneration", value: 1n },
        expectedProjectUid: oldUid,
      });
      const outcome = await codeOf(handlers.forkProject!(request, call) as Promise<unknown>);
      assert.equal(outcome, "PROJECT_UID_MISMATCH", "the state of another incarnation is never copied");
      assert.equal(await codeOf(host.read("copy", (v) => v.header)), "PROJECT_NOT_FOUND", "no fork was made");
    });
  });

  it("GetCheckpoint and DeleteCheckpoint answer the uid of the incarnation that held the checkpoint, not the new one", async () => {
    await withRecreatedSource({ after: ["checkpoints.get"] }, async (handlers, _host, oldUid) => {
      const got = await handlers.getCheckpoint!(create(GetCheckpointRequestSchema, { projectId: "src", checkpointId: "cp" }), call);
      assert.equal((got as GetCheckpointResponse).header?.projectUid, oldUid, "GetCheckpoint");
    });
    await withRecreatedSource({ after: ["checkpoints.delete"] }, async (handlers, _host, oldUid) => {
      const deleted = await handlers.deleteCheckpoint!(
        create(DeleteCheckpointRequestSchema, { projectId: "src", checkpointId: "cp" }),
        call,
      );
      assert.equal((deleted as DeleteCheckpointResponse).header?.projectUid, oldUid, "DeleteCheckpoint");
    });
  });
});

/** The similarity pairs a GetProjectStatus answer counts in its index sizes. */
function similarityPairs(r: GetProjectStatusResponse): bigint | undefined {
  return r.status?.indexSizes.find((i) => i.index === IndexKind.SIMILARITY)?.entries;
}

describe("GetProjectStatus while another client's call lands between its storage facts and its snapshot read", () => {
  const facts = (host: ProjectHost) => ({
    host,
    version: "0.0.0",
    startedAtUnixMs: 0,
    now: () => 0,
    draining: () => false,
    journalBackend: JournalBackend.MEMORY,
  });
  const request = create(GetProjectStatusRequestSchema, { projectId: "src" });

  it("never reports a generation other than the snapshot its index sizes come from, and names it in the header", async () => {
    const host = await openProjectHost({});
    try {
      await host.create("src", {});
      await host.mutate("src", { method: "Apply" }, similarity("x", "a", 0.1), answerOf);
      const writeMidCall = interleaved(host, { after: ["status"] }, async () => {
        await host.mutate("src", { method: "Apply" }, similarity("x", "b", 0.1), answerOf);
      });
      const r = (await maintenanceHandlers(facts(writeMidCall)).getProjectStatus!(request, call)) as GetProjectStatusResponse;
      // Every write added one pair, so the generation read equals the pairs counted.
      assert.deepEqual([r.status?.generation, similarityPairs(r)], [2n, 2n], "generation and index sizes of one snapshot");
      assert.equal(r.header?.generation, 2n, "the header names the generation read");
      assert.equal(r.header?.projectUid, r.status?.projectUid);
    } finally {
      await host.close();
    }
  });

  it("never mixes the storage facts of one incarnation with the snapshot of the next", async () => {
    const host = await openProjectHost({});
    try {
      const oldUid = (await host.create("src", {})).projectUid;
      const handlers = maintenanceHandlers(facts(recreatedMidCall(host, "src", { after: ["status"] })));
      const r = (await handlers.getProjectStatus!(request, call)) as GetProjectStatusResponse;
      const newUid = await host.read("src", (v) => v.header.projectUid);
      assert.notEqual(newUid, oldUid);
      assert.deepEqual([r.header?.projectUid, r.status?.projectUid], [newUid, newUid], "the new incarnation, asked about again");
      assert.deepEqual([r.header?.generation, r.status?.generation, similarityPairs(r), r.status?.journalTailRecords], [3n, 3n, 3n, 3n]);
    } finally {
      await host.close();
    }
  });
});
