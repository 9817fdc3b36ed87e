import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { create } from "@bufbuild/protobuf";
import { Metadata } from "@grpc/grpc-js";
import type { CallContext } from "@crs/runtime";
import { ForkProjectRequestSchema } from "@crs/contracts/gen/crs/state/v1/state_pb";
import { openProjectHost, type ProjectHost } from "../projects/index.js";
import { answerOf, codeOf, similarity } from "../projects/host-conformance.js";
import { checkpointHandlers } from "./checkpoint-handlers.js";
import { expectError, startTestServer } from "./test-support.js";

const call: CallContext = {
  method: "/crs.state.v1.StateService/ForkProject",
  metadata: new Metadata(),
  peer: "test",
  deadline: undefined,
  signal: new AbortController().signal,
};

/**
 * `host`, except that the project `id` is deleted and created again with other content once the
 * fork has begun: after the first read of it returns, or before the fork itself runs, whichever
 * comes first, as another client's calls may land at any point of a fork.
 */
function recreatedDuringFork(host: ProjectHost, id: string): ProjectHost {
  let swapped = false;
  const swap = async (): Promise<void> => {
    if (swapped) return;
    swapped = true;
    await host.delete(id, {});
    await host.create(id, {});
    for (const b of ["new-1", "new-2", "new-3"]) await host.mutate(id, { method: "Apply" }, similarity("x", b, 0.5), answerOf);
  };
  return new Proxy(host, {
    get(target, key, receiver) {
      if (key === "read") {
        return async (...args: Parameters<ProjectHost["read"]>) => {
          const value = await target.read(...args);
          await swap();
          return value;
        };
      }
      if (key === "fork") {
        return async (...args: Parameters<ProjectHost["fork"]>) => {
          await swap();
          return target.fork(...args);
        };
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

describe("ForkProject preconditions", () => {
  it("never copies a project created again under the same id after the fork named the old uid", async () => {
    const host = await openProjectHost({});
    try {
      const oldUid = (await host.create("src", {})).projectUid;
      await host.mutate("src", { method: "Apply" }, similarity("x", "old", 0.1), answerOf);
      const handlers = checkpointHandlers({ host: recreatedDuringFork(host, "src"), elapsed: () => 0 });
      const request = create(ForkProjectRequestSchema, {
        projectId: "src",
        targetProjectId: "copy",
        origin: { case: "atGeneration", value: 1n },
        expectedProjectUid: oldUid,
      });
      const outcome = await codeOf(handlers.forkProject!(request, call) as Promise<unknown>);
      assert.equal(outcome, "PROJECT_UID_MISMATCH", "the state of another incarnation is never copied");
      assert.equal(await codeOf(host.read("copy", (v) => v.header)), "PROJECT_NOT_FOUND", "no fork was made");
    } finally {
      await host.close();
    }
  });

  it("refuses a malformed checkpoint_id or at_generation as INVALID_ARGUMENT naming it, before looking up the source", async () => {
    const s = await startTestServer();
    try {
      for (const projectId of ["absent", "present"]) {
        if (projectId === "present") await s.state.createProject({ projectId });
        await expectError(
          s.state.forkProject({ projectId, targetProjectId: "t", origin: { case: "checkpointId", value: "not an id" } }),
          status.INVALID_ARGUMENT,
          "INVALID_ARGUMENT",
          "checkpoint_id",
        );
        await expectError(
          s.state.forkProject({ projectId, targetProjectId: "t", origin: { case: "atGeneration", value: 2n ** 60n } }),
          status.INVALID_ARGUMENT,
          "INVALID_ARGUMENT",
          "at_generation",
        );
      }
      await expectError(s.state.getGeneration({ projectId: "t" }), status.NOT_FOUND, "PROJECT_NOT_FOUND");
    } finally {
      await s.stop();
    }
  });
});
