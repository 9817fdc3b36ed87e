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
import { openProjectHost, type ProjectHost } from "../projects/index.js";
import { answerOf, codeOf, similarity } from "../projects/host-conformance.js";
import { checkpointHandlers } from "./checkpoint-handlers.js";

const call: CallContext = {
  method: "/crs.state.v1.StateService/ForkProject",
  metadata: new Metadata(),
  peer: "test",
  deadline: undefined,
  signal: new AbortController().signal,
};

/**
 * `host`, except that the project `id` is deleted and created again with other content once the
 * call has begun: right after the first host method named in `after` returns, or right before the
 * first one named in `before` runs, as another client's calls may land at any point of a call.
 * Names are `read`, `fork`, or `checkpoints.<method>`.
 */
function recreatedMidCall(host: ProjectHost, id: string, hooks: { after?: string[]; before?: string[] }): ProjectHost {
  let swapped = false;
  const swap = async (): Promise<void> => {
    if (swapped) return;
    swapped = true;
    await host.delete(id, {});
    await host.create(id, {});
    for (const b of ["new-1", "new-2", "new-3"]) await host.mutate(id, { method: "Apply" }, similarity("x", b, 0.5), answerOf);
  };
  const hooked = <T extends object>(target: T, prefix: string): T =>
    new Proxy(target, {
      get(t, key, receiver) {
        const value: unknown = Reflect.get(t, key, receiver);
        const name = `${prefix}${String(key)}`;
        if (name === "checkpoints") return hooked(value as object, "checkpoints.");
        if (typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          if (hooks.before?.includes(name)) await swap();
          const result: unknown = await (value as (...a: unknown[]) => unknown).apply(t, args);
          if (hooks.after?.includes(name)) await swap();
          return result;
        };
      },
    });
  return hooked(host, "");
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
      checkpointHandlers({ host: recreatedMidCall(host, "src", hooks), elapsed: () => 0, maxMessageBytes: 16 * 1024 * 1024 }),
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
