/**
 * Whole-document imports of the store host. Replacing a project is a journaled mutation like a
 * checkpoint restore; creating one writes its first snapshot, as a fork does.
 */

import { DEFAULT_STATE_CONFIG, fromDocument, type ProjectState, type StateDocument } from "@crs/domain/state";
import { CrsStateError } from "../errors.js";
import { checkGeneration } from "./host-checks.js";
import type { ImportHost, MutationOutcome, MutationRequest, ProjectHeader } from "./project-host.js";
import { requireValidId } from "./project-ids.js";
import { replayOf } from "./replayed-answer.js";
import { projectIfExists } from "./shelf-writes.js";
import type { StoreHost } from "./store-host.js";

/** {@link ImportHost} of a {@link StoreHost}. */
export class HostImports implements ImportHost {
  /** Imports into the projects of `host`. */
  constructor(private readonly host: StoreHost) {}

  /** See {@link ImportHost.run}. */
  async run(
    projectId: string,
    doc: StateDocument,
    req: MutationRequest & { readonly replaceExisting: boolean },
    answer: (header: ProjectHeader, imported: ProjectState) => Uint8Array,
  ): Promise<MutationOutcome> {
    requireValidId(projectId, "project_id");
    // Decoded before anything is looked up or changed: a document that does not import changes nothing.
    const state = fromDocument(doc, DEFAULT_STATE_CONFIG);
    const existing = await projectIfExists(this.host, projectId, req.expectedUid);
    if (existing !== undefined) {
      // A retry answers as the first import did, even when it replaced a project that exists now.
      const replay = replayOf(existing, req);
      if (replay !== undefined) return replay;
      if (!req.replaceExisting) {
        throw new CrsStateError("PROJECT_EXISTS", `project ${projectId} already exists and replace_existing is false`, {
          field: "header.replace_existing",
          projectId,
        });
      }
      // The delta history is what happened to this project, so it stays; every other part is the document's.
      return this.host.mutate(
        projectId,
        req,
        (engine) => engine.importDocument(doc),
        (_result, header) => answer(header, state),
      );
    }
    checkGeneration(req.expectedGeneration, 0);
    const header = await this.host.locks.run(projectId, () => this.host.createHolding(projectId, "header.project_id", state));
    return { answer: answer(header, state), replayed: false, header };
  }
}
