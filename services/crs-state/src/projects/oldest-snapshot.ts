/** The oldest generation a project can still be read at. */

import type { ProjectView } from "./project-host.js";

/** The oldest generation still readable as a snapshot (the engine keeps a contiguous run of them). */
export function oldestSnapshotGeneration(view: ProjectView): number {
  return view.engine.retainedSnapshots()[0]?.generation ?? view.header.generation;
}
