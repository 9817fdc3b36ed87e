/**
 * Commit notification: per project, the listeners that hear each committed mutation once its
 * journal record is durable, in generation order, and the project's deletion. The watch stream
 * subscribes here; nothing else may delay a commit, so a listener only takes note and returns.
 */

import type { Snapshot, StateEvent } from "@crs/domain/state";
import type { ProjectHeader } from "./project-host.js";

/** What a listener hears about one project. */
export type CommitEvent =
  /**
   * A mutation is durable: the header and snapshot of the generation it committed, and whether it
   * replaced the whole state (a checkpoint or backup restore, an import over the project).
   */
  | { readonly type: "committed"; readonly header: ProjectHeader; readonly snapshot: Snapshot; readonly replaced: boolean }
  /** The incarnation `projectUid` was deleted. */
  | { readonly type: "deleted"; readonly projectUid: string };

/** The event of a durable mutation, which journaled `event` (none when it only remembered a request). */
export function committed(header: ProjectHeader, snapshot: Snapshot, event: StateEvent | undefined): CommitEvent {
  const replaced = event?.type === "state_restored" || event?.type === "state_imported";
  return { type: "committed", header, snapshot, replaced };
}

/** Hears a project's commit events; it must not throw, as the commit it hears about is already acknowledged. */
export type CommitListener = (event: CommitEvent) => void;

/** Subscriptions to the commits of projects. */
export interface CommitSource {
  /** Adds `listener` to `projectId`'s commits; returns its removal (which may be called more than once). */
  subscribe(projectId: string, listener: CommitListener): () => void;
  /** How many listeners are registered, over all projects. */
  readonly listeners: number;
}

/** The host's commit notifications. */
export class CommitFeed implements CommitSource {
  readonly #byProject = new Map<string, Set<CommitListener>>();
  #count = 0;

  /** See {@link CommitSource.subscribe}. */
  subscribe(projectId: string, listener: CommitListener): () => void {
    let set = this.#byProject.get(projectId);
    if (set === undefined) {
      set = new Set();
      this.#byProject.set(projectId, set);
    }
    // The same function twice is two subscriptions: wrapping keeps each removal its own.
    const own: CommitListener = (event) => listener(event);
    set.add(own);
    this.#count++;
    return () => {
      const current = this.#byProject.get(projectId);
      if (current === undefined || !current.delete(own)) return;
      this.#count--;
      if (current.size === 0) this.#byProject.delete(projectId);
    };
  }

  /** See {@link CommitSource.listeners}. */
  get listeners(): number {
    return this.#count;
  }

  /** Tells `projectId`'s listeners about `event`. */
  publish(projectId: string, event: CommitEvent): void {
    const set = this.#byProject.get(projectId);
    if (set === undefined) return;
    for (const listener of [...set]) listener(event);
  }
}
