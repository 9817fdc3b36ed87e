import { accessSync, constants, statSync } from "node:fs";
import { dirname, isAbsolute, resolve, win32 } from "node:path";
import type { Command } from "commander";
import { badField } from "../errors.js";
import { scanCorpus, type CacheNotWritten, type ScanResult } from "../scan/index.js";
import type { CliIo } from "./io.js";
import { parseInstant, parseInteger } from "./options.js";
import { scanProgressView } from "./progress.js";

/** Flags of every command that reads a store: which files, on how many threads, with which cache. */
export interface ReadFlags {
  cwd?: string;
  max: string;
  workers?: string;
  cache: boolean;
  cacheDir?: string;
}

/** Flags every scanning command shares: the read flags and the clock freshness is judged by. */
export interface ScanFlags extends ReadFlags {
  now?: string;
  freshMins: string;
}

/** Adds the read flags (the reference's `--cwd`, `--max`, plus ours). */
export function withReadFlags(command: Command): Command {
  return command
    .option("--cwd <dir>", "only rollouts whose session ran in this directory (a relative path is taken from the working directory)")
    .option("--max <n>", "scan only the newest N files (0: all)", "0")
    .option("--workers <n>", "threads reading files (default: up to one per core, as many as the bytes to read pay for)")
    .option("--no-cache", "read every file again instead of reusing cached per-file results")
    .option("--cache-dir <dir>", "where per-file results are cached (default: the user cache directory)");
}

/** Adds the shared scan flags (the reference's `--fresh-mins`, `--cwd`, `--max`, plus ours). */
export function withScanFlags(command: Command): Command {
  return withReadFlags(
    command
      .option("--now <time>", "the scan's clock: RFC 3339, YYYY-MM-DD or Unix ms (default: the current time)")
      .option("--fresh-mins <n>", "a rollout modified within this many minutes may still be running", "120"),
  );
}

/**
 * What is at a path: a folder, something else, nothing (or a file above it, found further up), or
 * unknown when it cannot be looked at (the caller's own read or write then finds out why).
 */
export function entryKind(path: string): "folder" | "other" | "missing" | "unknown" {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st === undefined ? "missing" : st.isDirectory() ? "folder" : "other";
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOTDIR" ? "missing" : "unknown";
  }
}

/**
 * Refuses, before any work, a `--cache-dir` that could never be a folder: empty, a file, or a
 * path under a file. A folder that exists but cannot be written is only warned about after the
 * read ({@link warnCacheNotWritten}): the cache is a saving, the report does not need it.
 */
export function checkCacheDir(io: CliIo, flags: ReadFlags): void {
  if (!flags.cache || flags.cacheDir === undefined) return;
  if (flags.cacheDir.trim() === "") throw badField("--cache-dir", "must name a folder");
  const path = resolve(io.cwd, flags.cacheDir);
  for (let at = path; ; at = dirname(at)) {
    const kind = entryKind(at);
    if (kind === "other")
      throw badField("--cache-dir", at === path ? `${path} is not a folder` : `${path} cannot be made: ${at} is not a folder`);
    if (kind !== "missing" || dirname(at) === at) return;
  }
}

/** Refuses, before any work, a store root that is not a folder that can be read, naming the argument and the path. */
export function checkStoreDir(io: CliIo, dir: string): void {
  const path = resolve(io.cwd, dir);
  let kind: ReturnType<typeof entryKind> | "unreadable" = entryKind(path);
  if (kind === "folder") {
    try {
      accessSync(path, constants.R_OK | constants.X_OK);
    } catch {
      kind = "unreadable";
    }
  }
  if (kind === "missing") throw badField("<dir>", `${path} does not exist`);
  if (kind === "other") throw badField("<dir>", `${path} is not a folder`);
  if (kind !== "folder") throw badField("<dir>", `${path} cannot be read`);
}

/** Tells once, on stderr, that the cache could not be written, so the next read will not be faster. */
export function warnCacheNotWritten(io: CliIo, failure: CacheNotWritten | null): void {
  if (failure !== null)
    io.err(`rollouts: warning: the cache ${failure.dir} cannot be written (${failure.code}), so nothing was cached; --no-cache skips it\n`);
}

/**
 * The `--cwd` scope as the scan compares it: a relative directory is resolved against the command's
 * working directory, like every other path argument; an absolute one (a Windows drive path too,
 * since rollouts may come from another machine) is kept as written for the lexical comparison.
 */
export function cwdScope(io: CliIo, flags: ReadFlags): { cwd?: string } {
  const dir = flags.cwd;
  if (dir === undefined) return {};
  // An empty scope stays empty: it scopes nothing, rather than naming the working directory.
  return { cwd: dir === "" || isAbsolute(dir) || win32.isAbsolute(dir) ? dir : resolve(io.cwd, dir) };
}

/** Runs a scan of `dir` with the shared flags, keeping the `topN` slowest tasks, showing progress on a terminal. */
export async function runScan(
  io: CliIo,
  dir: string,
  flags: ScanFlags,
  topN: number,
): Promise<{ result: ScanResult; root: string; now: number }> {
  const now = flags.now === undefined ? Date.now() : parseInstant("--now", flags.now);
  const root = resolve(io.cwd, dir);
  const view = scanProgressView(io);
  try {
    const result = await scanCorpus({
      root,
      now,
      freshMs: parseInteger("--fresh-mins", flags.freshMins, 0, 52_560_000) * 60_000,
      ...cwdScope(io, flags),
      limit: parseInteger("--max", flags.max, 0),
      topN,
      ...(flags.workers === undefined ? {} : { workers: parseInteger("--workers", flags.workers, 1, 256) }),
      cacheDir: flags.cache ? (flags.cacheDir === undefined ? undefined : resolve(io.cwd, flags.cacheDir)) : false,
      onProgress: (p) => view.update(p),
    });
    warnCacheNotWritten(io, result.cacheNotWritten);
    return { result, root: dir, now };
  } finally {
    view.stop();
  }
}
