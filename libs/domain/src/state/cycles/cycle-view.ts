/** Read-only view of the sessions' cycle detectors in one state value. */

import { compareUtf8 } from "../bytes.js";
import type { ProjectState } from "../project-state.js";
import { detectorStats, type CycleDetectorStats } from "./detector-state.js";

/** Cycle detector view. */
export class CycleView {
  /** Wraps one state value. */
  constructor(private readonly state: ProjectState) {}

  /** Counters of the session's detector; undefined when the session has none. */
  stats(sessionId: string): CycleDetectorStats | undefined {
    const d = this.state.cycles.get(sessionId);
    return d === undefined ? undefined : detectorStats(d);
  }

  /** The states in the session's window, oldest first (empty when it has no detector). */
  window(sessionId: string): string[] {
    return this.state.cycles.get(sessionId)?.window.toArray() ?? [];
  }

  /** Sessions with a detector, sorted byte-wise. */
  sessions(): string[] {
    return [...this.state.cycles.keys()].sort(compareUtf8);
  }
}
