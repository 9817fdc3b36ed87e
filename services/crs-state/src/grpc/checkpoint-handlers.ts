import type { MessageInitShape } from "@bufbuild/protobuf";
import { requireSafeCount, type ServiceHandlers } from "@crs/runtime";
import {
  RestoreCheckpointRequestSchema,
  RestoreCheckpointResponseSchema,
  type CheckpointInfoSchema,
  type StateService,
} from "@crs/contracts/gen/crs/state/v1/state_pb";
import type { CheckpointInfo, ForkSource } from "../projects/index.js";
import type { HandlerDeps } from "./deps.js";
import { optionalId, requireId } from "./ids.js";
import { keysetPageToken, openKeysetPage } from "./page-token.js";
import { responseHeader } from "./reads.js";
import { decodeAnswer, encodeAnswer, prepareRestore, withOptionPath } from "./mutations.js";

const uidOption = (uid: string): { expectedUid?: string } => (uid === "" ? {} : { expectedUid: uid });

/** A checkpoint on the wire. */
function checkpointOut(c: CheckpointInfo): MessageInitShape<typeof CheckpointInfoSchema> {
  return {
    checkpointId: c.checkpointId,
    generation: BigInt(c.generation),
    createdAtUnixMs: BigInt(c.createdAt),
    sizeBytes: BigInt(c.sizeBytes),
    damaged: c.damaged,
    unsupportedFormat: c.unsupportedFormat,
  };
}

/** StateService's checkpoint and fork methods, through the host's durable checkpoints. */
export function checkpointHandlers({ host }: HandlerDeps): ServiceHandlers<typeof StateService.method> {
  return {
    async createCheckpoint(req) {
      const projectId = requireId(req.projectId, "project_id");
      const checkpointId = optionalId(req.checkpointId, "checkpoint_id");
      const created = await host.checkpoints.create(projectId, {
        ...(checkpointId === "" ? {} : { checkpointId }),
        ...uidOption(req.expectedProjectUid),
      });
      // The generation captured, not one a concurrent write reached while the checkpoint was stored.
      return { header: responseHeader(created.header), checkpoint: checkpointOut(created) };
    },

    async listCheckpoints(req) {
      const projectId = requireId(req.projectId, "project_id");
      const header = await host.read(projectId, (view) => view.header);
      const cursor = openKeysetPage(req.pageToken, req.pageSize, header.projectUid, "checkpoints");
      // Checkpoints come and go between pages: a page continues after the last id returned, in id
      // order, and reads only its own checkpoints (one more tells whether a next page exists).
      const after = cursor.after;
      const rest = await host.checkpoints.list(projectId, {
        expectedUid: header.projectUid,
        ...(after === undefined ? {} : { after }),
        limit: cursor.size + 1,
      });
      const page = rest.slice(0, cursor.size);
      const generation = cursor.generation ?? header.generation;
      const last = page.at(-1)?.checkpointId ?? "";
      return {
        header: responseHeader(header, generation),
        checkpoints: page.map(checkpointOut),
        nextPageToken: keysetPageToken(rest.length > page.length, header.projectUid, generation, "checkpoints", last),
      };
    },

    async getCheckpoint(req) {
      const projectId = requireId(req.projectId, "project_id");
      const checkpointId = requireId(req.checkpointId, "checkpoint_id");
      const info = await host.checkpoints.get(projectId, checkpointId);
      return { header: responseHeader(info.header), checkpoint: checkpointOut(info) };
    },

    async deleteCheckpoint(req) {
      const projectId = requireId(req.projectId, "project_id");
      const checkpointId = requireId(req.checkpointId, "checkpoint_id");
      const header = await host.checkpoints.delete(projectId, checkpointId, uidOption(req.expectedProjectUid));
      return { header: responseHeader(header) };
    },

    async restoreCheckpoint(req) {
      const projectId = requireId(req.projectId, "project_id");
      const checkpointId = requireId(req.checkpointId, "checkpoint_id");
      const call = {
        method: "RestoreCheckpoint",
        projectId,
        requestSchema: RestoreCheckpointRequestSchema,
        request: req,
        responseSchema: RestoreCheckpointResponseSchema,
      };
      const request = prepareRestore(call);
      const outcome = await host.checkpoints
        .restore(projectId, checkpointId, request, (header, restoredFrom) =>
          encodeAnswer(RestoreCheckpointResponseSchema, { header: responseHeader(header), restoredFromGeneration: BigInt(restoredFrom) }),
        )
        .catch((e: unknown) => {
          throw withOptionPath(e);
        });
      return decodeAnswer(RestoreCheckpointResponseSchema, outcome);
    },

    async forkProject(req) {
      const projectId = requireId(req.projectId, "project_id");
      const targetId = requireId(req.targetProjectId, "target_project_id");
      const origin = req.origin;
      // Every field is checked before the source is looked up; the source is then read once, by
      // the fork, so `expected_project_uid` holds for the state copied.
      const from: ForkSource =
        origin.case === "checkpointId"
          ? { checkpointId: requireId(origin.value, "checkpoint_id") }
          : origin.case === "atGeneration"
            ? { generation: requireSafeCount(origin.value, "at_generation") }
            : {};
      // A fork starts at its source's generation.
      const header = await host.fork(projectId, targetId, from, uidOption(req.expectedProjectUid));
      return { header: responseHeader(header), sourceGeneration: BigInt(header.generation) };
    },
  };
}
