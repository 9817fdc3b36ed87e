import type { ServiceHandlers } from "@crs/runtime";
import { requireSafeCount } from "@crs/runtime";
import {
  CreateProjectRequestSchema,
  CreateProjectResponseSchema,
  ApplyRequestSchema,
  ApplyResponseSchema,
  UpdateProjectConfigRequestSchema,
  UpdateProjectConfigResponseSchema,
  type StateService,
} from "@crs/contracts/gen/crs/state/v1/state_pb";
import {
  StateError,
  deltaFromJson,
  deltasConflict,
  entryChangedSince,
  resolveConfig,
  type Delta,
  type StateEngine,
} from "@crs/domain/state";
import { configFieldPath, configIn, configOut, configUpdateIn, withConfigFields } from "./config-mapper.js";
import { requireChangeFits } from "./change-size.js";
import { applyMetricsOut, deltaIn } from "./delta-mapper.js";
import type { HandlerDeps } from "./deps.js";
import { optionalId, requireId, requireMetadata, requireTextAtMost } from "./ids.js";
import { applyFieldPath, withFieldPaths } from "./field-paths.js";
import { decodeAnswer, encodeAnswer, prepareMutation, runMutation } from "./mutations.js";
import { requestFingerprint } from "./request-fingerprint.js";
import { checkPreconditions } from "./project-reads.js";
import { oldestSnapshotGeneration } from "../projects/index.js";
import { readAt, responseHeader } from "./reads.js";
import { indexSizesOut, projectStateOut } from "./snapshot-mapper.js";

// SNAPSHOT_STALE beyond the staleness limit; DELTA_CONFLICT when a change since the client's
// snapshot touched an entry this delta touches, or a delta applied since conflicts with it.
function checkBasis(engine: Pick<StateEngine, "generation" | "config" | "snapshot">, delta: Delta, basis: number | undefined): void {
  if (basis === undefined) return;
  const behind = engine.generation - basis;
  if (behind < 0)
    throw new StateError("INVALID_ARGUMENT", `snapshot_generation ${basis} is newer than the project's ${engine.generation}`, {
      field: "snapshot_generation",
    });
  if (behind > engine.config.staleGenerationLimit) {
    throw new StateError(
      "SNAPSHOT_STALE",
      `snapshot is stale: ${behind} generations behind (limit ${engine.config.staleGenerationLimit})`,
      { field: "snapshot_generation" },
    );
  }
  const snapshot = engine.snapshot();
  // Every mutation since the snapshot counts, not only the deltas the history keeps: a proof
  // update or a recorded similarity changes an entry the delta would overwrite just as well.
  const changed = entryChangedSince(snapshot, delta, basis);
  if (changed !== undefined) {
    throw new StateError(
      "DELTA_CONFLICT",
      `the delta conflicts with the change of generation ${changed.generation} to ${changed.index} entry ${changed.key}, applied since snapshot ${basis}`,
      { field: "delta" },
    );
  }
  for (const record of snapshot.deltaHistory.range(basis, engine.generation)) {
    if (deltasConflict(deltaFromJson(record.delta), delta)) {
      throw new StateError(
        "DELTA_CONFLICT",
        `the delta conflicts with the change of generation ${record.generation}, applied since snapshot ${basis}`,
        { field: "delta" },
      );
    }
  }
}

/** StateService without its checkpoint and fork methods (see checkpoint-handlers.ts). */
export function projectHandlers({ host, elapsed, maxMessageBytes }: HandlerDeps): ServiceHandlers<typeof StateService.method> {
  return {
    async createProject(req) {
      const projectId = requireId(req.projectId, "project_id");
      const requestId = optionalId(req.requestId, "request_id");
      const config = configIn(req.config);
      const resolved = withConfigFields(() => resolveConfig(config));
      const created = await host.create(projectId, {
        config,
        ...(requestId === "" ? {} : { requestId, fingerprint: requestFingerprint("CreateProject", CreateProjectRequestSchema, req) }),
        answer: (header) => encodeAnswer(CreateProjectResponseSchema, { header: responseHeader(header), config: configOut(resolved) }),
      });
      if (created.answer !== undefined) {
        return decodeAnswer(CreateProjectResponseSchema, { answer: created.answer, replayed: created.replayed, header: created });
      }
      // A create recorded before its answer was kept: answered with the configuration the project has now.
      const current = await host.read(projectId, (view) => configOut(view.config), { expectedUid: created.projectUid });
      return { header: responseHeader(created), config: current };
    },

    async apply(req) {
      const projectId = requireId(req.projectId, "project_id");
      const sessionId = optionalId(req.sessionId, "session_id");
      const label = requireTextAtMost(req.label, 256, "label");
      const metadata = requireMetadata(req.metadata, 64, "metadata");
      const delta = deltaIn(req.delta);
      const basis = req.snapshotGeneration === undefined ? undefined : requireSafeCount(req.snapshotGeneration, "snapshot_generation");
      // Before anything is read or written: a change no answer can carry is never acknowledged.
      requireChangeFits(delta, { sessionId, label, metadata }, maxMessageBytes);
      const call = {
        method: "Apply",
        projectId,
        requestSchema: ApplyRequestSchema,
        request: req,
        responseSchema: ApplyResponseSchema,
        fieldPath: (f: string) => applyFieldPath(delta, f),
      };
      if (req.validateOnly) {
        // A dry run refuses every option the real call would, and remembers nothing.
        prepareMutation({ ...call, validateOnly: true });
        return host.read(projectId, (view) => {
          checkPreconditions(view, req.options);
          const started = elapsed();
          checkBasis(view.engine, delta, basis);
          withFieldPaths(
            (f) => applyFieldPath(delta, f),
            () => view.engine.validate(delta),
          );
          const validationMs = elapsed() - started;
          const g = view.header.generation;
          return { header: responseHeader(view.header), metrics: applyMetricsOut(delta, g, g, { validationMs, applyMs: 0 }) };
        });
      }
      let timing = { validationMs: 0, applyMs: 0 };
      return runMutation(
        host,
        call,
        (engine, options) => {
          const started = elapsed();
          checkBasis(engine, delta, basis);
          const checked = elapsed();
          const mutation = engine.apply(delta, { ...options, sessionId, metadata, label });
          timing = { validationMs: checked - started, applyMs: elapsed() - checked };
          return mutation;
        },
        (_result, header) => ({
          header: responseHeader(header),
          metrics: applyMetricsOut(delta, header.generation - 1, header.generation, timing),
        }),
      );
    },

    async getGeneration(req) {
      const projectId = requireId(req.projectId, "project_id");
      return host.read(projectId, (view) => ({
        header: responseHeader(view.header),
        oldestSnapshotGeneration: BigInt(oldestSnapshotGeneration(view)),
        oldestChangeGeneration: BigInt(view.snapshot.deltaHistory.all()[0]?.generation ?? 0),
      }));
    },

    async getSnapshot(req) {
      const projectId = requireId(req.projectId, "project_id");
      return readAt(host, projectId, req.atGeneration, ({ snapshot, view, header }) => ({
        header,
        snapshot: {
          committedAtUnixMs: BigInt(snapshot.createdAt),
          indexSizes: indexSizesOut(snapshot),
          generationsBehind: BigInt(view.header.generation - snapshot.generation),
        },
        ...(req.includeState ? { state: projectStateOut(snapshot) } : {}),
      }));
    },

    async deleteProject(req) {
      const projectId = requireId(req.projectId, "project_id");
      const header = await host.read(
        projectId,
        (view) => view.header,
        req.expectedProjectUid === "" ? {} : { expectedUid: req.expectedProjectUid },
      );
      // Deleting by the uid just read never removes a project created again meanwhile.
      await host.delete(projectId, { expectedUid: header.projectUid });
      return { header: responseHeader(header) };
    },

    async getProjectConfig(req) {
      const projectId = requireId(req.projectId, "project_id");
      return host.read(projectId, (view) => ({ header: responseHeader(view.header), config: configOut(view.config) }));
    },

    async updateProjectConfig(req) {
      const projectId = requireId(req.projectId, "project_id");
      const update = configUpdateIn(req.config, req.updateMask);
      return runMutation(
        host,
        {
          method: "UpdateProjectConfig",
          projectId,
          requestSchema: UpdateProjectConfigRequestSchema,
          request: req,
          responseSchema: UpdateProjectConfigResponseSchema,
          validateOnly: req.validateOnly,
          fieldPath: configFieldPath,
        },
        (engine, options) => engine.updateConfig(update, options),
        (config, header) => ({ header: responseHeader(header), config: configOut(config) }),
      );
    },
  };
}
