/** A bounded ring of the most recent snapshots, indexed by generation. */

import type { Snapshot } from "../snapshot.js";

/**
 * Keeps the last `capacity` snapshots; older ones are dropped. Slots are taken as snapshots come, so
 * a large capacity (a project may ask for billions) costs only the snapshots actually held.
 */
export class SnapshotRing {
  private slots: Snapshot[] = [];
  /** Slot of the newest snapshot; -1 while empty. */
  private newest = -1;

  /** `capacity` must be positive. */
  constructor(private capacity: number) {}

  /** Changes the capacity, keeping the newest snapshots that fit. */
  resize(capacity: number): void {
    const kept = this.snapshots().slice(-capacity);
    this.capacity = capacity;
    this.slots = [];
    this.newest = -1;
    for (const s of kept) this.push(s);
  }

  /** Adds the newest snapshot; a snapshot of the same generation replaces it. */
  push(s: Snapshot): void {
    const prev = this.latest();
    if (prev !== undefined && prev.generation === s.generation) {
      this.slots[this.newest] = s;
      return;
    }
    this.newest = this.slots.length < this.capacity ? this.slots.length : (this.newest + 1) % this.capacity;
    this.slots[this.newest] = s;
  }

  /** The newest snapshot. */
  latest(): Snapshot | undefined {
    return this.slots[this.newest];
  }

  /** The retained snapshot of generation `g`. */
  at(g: number): Snapshot | undefined {
    return this.slots.find((s) => s.generation === g);
  }

  /** Retained snapshots, oldest first. */
  snapshots(): Snapshot[] {
    return [...this.slots].sort((a, b) => a.generation - b.generation);
  }

  /** Retained generations, oldest first. */
  generations(): number[] {
    return this.slots.map((s) => s.generation).sort((a, b) => a - b);
  }
}
