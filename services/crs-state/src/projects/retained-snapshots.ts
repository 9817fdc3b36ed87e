/** The generations a project can still be read at, and reading one of them. */

import { StateError, isStateError, type Snapshot } from "@crs/domain/state";
import { generationInFuture } from "../errors.js";
import type { ProjectView } from "./project-host.js";

/** The oldest generation still readable as a snapshot (the engine keeps a contiguous run of them). */
export function oldestSnapshotGeneration(view: ProjectView): number {
  return view.engine.retainedSnapshots()[0]?.generation ?? view.header.generation;
}

/**
 * The snapshot at `generation` (undefined: the committed one), for reads and forks alike;
 * OUT_OF_RANGE naming `field` when it is not held: GENERATION_IN_FUTURE with `current_generation`,
 * or GENERATION_COMPACTED with `oldest_generation` and `current_generation`.
 */
export function snapshotOf(view: ProjectView, generation: number | undefined, field = "at_generation"): Snapshot {
  const current = view.header.generation;
  if (generation === undefined || generation === current) return view.snapshot;
  if (generation > current) throw generationInFuture(field, generation, current);
  try {
    return view.engine.snapshotAt(generation);
  } catch (e) {
    if (!isStateError(e)) throw e;
    // The engine names its own parameter; the client sent `field`.
    const metadata: Readonly<Record<string, string>> =
      e.code === "SNAPSHOT_NOT_FOUND"
        ? { oldest_generation: String(oldestSnapshotGeneration(view)), current_generation: String(current) }
        : e.metadata;
    throw new StateError(e.code, e.message, { field, cause: e, metadata });
  }
}
