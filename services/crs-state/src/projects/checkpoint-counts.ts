/**
 * How many checkpoints each project holds, for the per-project limit. A count is read once from
 * the store's keys and then kept up to date by the writes that change it, because counting keys
 * on classic-level still walks the blocks that hold the values under them (small heads, but a
 * format-1 checkpoint whole): counting on every create would read every earlier one again,
 * quadratic in a client filling its quota.
 *
 * Not safe on its own: callers read and update a project's count under that project's checkpoint
 * lock, so no two writes of one project interleave between the read and the update.
 */

import type { ProjectStore, Shelf } from "../store/project-store.js";

/** Checkpoint counts by project uid; at most `capacity` are kept, the least recently used dropped first. */
export class CheckpointCounts {
  // Map order is insertion order: re-inserting on use keeps the least recently used first.
  private readonly counts = new Map<string, number>();

  /** Counts from `store`, keeping at most `capacity` projects' counts (a dropped one is counted again). */
  constructor(
    private readonly store: ProjectStore,
    private readonly capacity: number,
    private readonly shelf: Shelf = "checkpoint",
  ) {}

  /** The project's checkpoints: the kept count, or one read from the store's keys. */
  async of(projectUid: string): Promise<number> {
    const count = this.counts.get(projectUid) ?? (await this.store.countCheckpoints(projectUid, this.shelf));
    this.set(projectUid, count);
    return count;
  }

  /** Records that a write of the project's checkpoints changed its count by `delta`; a count not kept stays unknown. */
  changed(projectUid: string, delta: number): void {
    const count = this.counts.get(projectUid);
    if (count !== undefined) this.set(projectUid, count + delta);
  }

  /** Forgets the project's count (a write failed and may or may not have landed): the next call counts keys again. */
  forget(projectUid: string): void {
    this.counts.delete(projectUid);
  }

  private set(projectUid: string, count: number): void {
    this.counts.delete(projectUid);
    this.counts.set(projectUid, count);
    if (this.counts.size > this.capacity) this.counts.delete(this.counts.keys().next().value as string);
  }
}
