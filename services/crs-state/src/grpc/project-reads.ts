import type { MutationOptions } from "@crs/contracts/gen/crs/state/v1/common_pb";
import { requireSafeCount } from "@crs/runtime";
import { StateError } from "@crs/domain/state";
import { CrsStateError } from "../errors.js";
import type { ProjectView } from "../projects/index.js";
import { expectedEntries } from "./mutations.js";

/**
 * Checks a mutation's preconditions against committed state, for calls answered without a
 * mutation (validate_only): the uid, the generation and every entry precondition.
 */
export function checkPreconditions(view: ProjectView, options: MutationOptions | undefined): void {
  const uid = options?.expectedProjectUid ?? "";
  if (uid !== "" && uid !== view.header.projectUid) {
    throw new CrsStateError("PROJECT_UID_MISMATCH", `project ${view.header.projectId} has uid ${view.header.projectUid}, not ${uid}`, {
      field: "options.expected_project_uid",
      expected_project_uid: uid,
      project_uid: view.header.projectUid,
    });
  }
  const generation = options?.expectedGeneration;
  if (generation !== undefined && requireSafeCount(generation, "options.expected_generation") !== view.header.generation) {
    throw new StateError("GENERATION_MISMATCH", `expected generation ${generation}, current is ${view.header.generation}`, {
      field: "options.expected_generation",
      metadata: { expected_generation: String(generation), current_generation: String(view.header.generation) },
    });
  }
  expectedEntries(options).forEach((e, i) => {
    const actual = view.snapshot.modGeneration(e.index, e.key);
    if (actual !== e.modGeneration) {
      // Named and described as the engine does for a mutation, so validate_only answers alike.
      throw new StateError("ENTRY_MODIFIED", `${e.index} entry ${e.key} was last changed at generation ${actual}, not ${e.modGeneration}`, {
        field: `options.expected_entries[${i}].key`,
        metadata: { index: e.index, key: e.key, expected: String(e.modGeneration), actual: String(actual) },
      });
    }
  });
}
