/** A bounded ring of the most recent snapshots, indexed by generation. */

import type { Snapshot } from "../snapshot.js";

/** Keeps the last `capacity` snapshots; older ones are dropped. */
export class SnapshotRing {
  private slots: (Snapshot | undefined)[];
  private next = 0;

  /** `capacity` must be positive. */
  constructor(private capacity: number) {
    this.slots = new Array<Snapshot | undefined>(capacity).fill(undefined);
  }

  /** Changes the capacity, keeping the newest snapshots that fit. */
  resize(capacity: number): void {
    const kept = this.slots
      .filter((s): s is Snapshot => s !== undefined)
      .sort((a, b) => a.generation - b.generation)
      .slice(-capacity);
    this.capacity = capacity;
    this.slots = new Array<Snapshot | undefined>(capacity).fill(undefined);
    this.next = 0;
    for (const s of kept) this.push(s);
  }

  /** Adds the newest snapshot; a snapshot of the same generation replaces it. */
  push(s: Snapshot): void {
    const prev = this.latest();
    if (prev !== undefined && prev.generation === s.generation) {
      this.slots[(this.next - 1 + this.capacity) % this.capacity] = s;
      return;
    }
    this.slots[this.next] = s;
    this.next = (this.next + 1) % this.capacity;
  }

  /** The newest snapshot. */
  latest(): Snapshot | undefined {
    return this.slots[(this.next - 1 + this.capacity) % this.capacity];
  }

  /** The retained snapshot of generation `g`. */
  at(g: number): Snapshot | undefined {
    return this.slots.find((s) => s !== undefined && s.generation === g);
  }

  /** Retained snapshots, oldest first. */
  snapshots(): Snapshot[] {
    return this.slots.filter((s): s is Snapshot => s !== undefined).sort((a, b) => a.generation - b.generation);
  }

  /** Retained generations, oldest first. */
  generations(): number[] {
    return this.slots
      .filter((s): s is Snapshot => s !== undefined)
      .map((s) => s.generation)
      .sort((a, b) => a - b);
  }
}
