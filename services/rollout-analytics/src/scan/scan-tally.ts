import { CorpusSum, outOfScopePartial, sameCwd, unreadablePartial, type CorpusPartial } from "@crs/domain/rollout";
import type { RolloutFile } from "../walk/index.js";
import type { FileResult } from "./worker-pool.js";
import type { FileOutcome, ScanFiles, ScanResult } from "./types.js";

/** One walked file and the freshness decided for it. */
export interface ScanSlot {
  /** Position in the walk's order. */
  readonly index: number;
  readonly file: RolloutFile;
  readonly fresh: boolean;
}

/**
 * Folds each file's outcome into the scan's result as it arrives, in any order: counts, the
 * per-file list (kept in walk order) and the merged partial. Per-file partials are merged
 * away at once, so a large corpus never holds them all.
 */
export class ScanTally {
  readonly #cwd: string;
  // Empty partials carry the scan's cut too: merging keeps the smallest.
  readonly #outlierKeep: number;
  readonly #sum = new CorpusSum();
  readonly #perFile: (FileOutcome | undefined)[];
  readonly #files = {
    scanned: 0,
    outOfScope: 0,
    unreadable: 0,
    unreadableDirs: 0,
    linksOutsideRoot: 0,
    reused: 0,
    bytes: 0,
    reusedBytes: 0,
  };

  constructor(files: number, cwd: string, outlierKeep: number) {
    this.#perFile = new Array<FileOutcome | undefined>(files);
    this.#cwd = cwd;
    this.#outlierKeep = outlierKeep;
  }

  /**
   * Records one file: its outcome (null when it could not be read) and whether it came from the
   * cache. An outcome without a partial was merged by the worker that read it.
   */
  add(slot: ScanSlot, scan: FileResult, reused: boolean): void {
    const f = this.#files;
    const outcome = { path: slot.file.path, size: slot.file.size, mtimeMs: slot.file.mtimeMs, fresh: slot.fresh, reused };
    if (scan === null) {
      f.unreadable += 1;
      this.#perFile[slot.index] = { ...outcome, status: "unreadable" };
      this.#sum.add(unreadablePartial(this.#outlierKeep));
      return;
    }
    const inScope = this.#cwd === "" || sameCwd(scan.cwd, this.#cwd);
    f.scanned += 1;
    f.bytes += scan.bytes;
    if (!inScope) f.outOfScope += 1;
    if (reused) {
      f.reused += 1;
      f.reusedBytes += scan.bytes;
    }
    this.#perFile[slot.index] = { ...outcome, status: inScope ? "scanned" : "out_of_scope" };
    if (scan.partial !== undefined) this.#sum.add(inScope ? scan.partial : outOfScopePartial(this.#outlierKeep));
  }

  /** Adds the merged partials of files already recorded with {@link add} (scope applied by whoever merged them). */
  addMerged(partial: CorpusPartial): void {
    this.#sum.add(partial);
  }

  /**
   * Files the walk found but could not stat, which count as unreadable rollouts; directories it
   * could not list and links out of the root it did not follow, which do not.
   */
  addUnreadableEntries(files: number, dirs: number, linksOut: number): void {
    this.#files.unreadable += files;
    this.#files.unreadableDirs += dirs;
    this.#files.linksOutsideRoot += linksOut;
    for (let i = 0; i < files; i += 1) this.#sum.add(unreadablePartial(this.#outlierKeep));
  }

  /** The scan's result; every slot must have been added. */
  result(): Omit<ScanResult, "cacheNotWritten"> {
    const partial: CorpusPartial = this.#sum.result();
    const files: ScanFiles = { ...this.#files };
    return { partial, files, perFile: this.#perFile.filter((o): o is FileOutcome => o !== undefined) };
  }
}
