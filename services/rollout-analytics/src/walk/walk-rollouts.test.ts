import { test } from "node:test";
import assert from "node:assert/strict";
import { chmod, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, normalize, relative } from "node:path";
import { AnalyticsError } from "../errors.js";
import { childPath, walkRollouts } from "./walk-rollouts.js";

async function withTree(fn: (root: string, outside: string) => Promise<void>): Promise<void> {
  const base = await mkdtemp(join(tmpdir(), "walk-"));
  try {
    const root = join(base, "sessions");
    const outside = join(base, "elsewhere");
    await mkdir(outside, { recursive: true });
    await mkdir(root, { recursive: true });
    await fn(root, outside);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

async function put(path: string, mtimeS: number): Promise<void> {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, "{}\n");
  await utimes(path, mtimeS, mtimeS);
}

test("walks dated folders newest first, equal mtimes ordered by path, and cuts to the limit", async () => {
  await withTree(async (root) => {
    await put(join(root, "2026/03/01/rollout-b.jsonl"), 1000);
    await put(join(root, "2026/03/01/rollout-a.jsonl"), 1000);
    await put(join(root, "2026/03/02/rollout-c.jsonl"), 2000);
    await put(join(root, "2026/03/02/notes.txt"), 3000);
    await put(join(root, "old.jsonl"), 500);
    const all = await walkRollouts(root);
    assert.deepEqual(
      all.files.map((f) => relative(root, f.path)),
      ["2026/03/02/rollout-c.jsonl", "2026/03/01/rollout-a.jsonl", "2026/03/01/rollout-b.jsonl", "old.jsonl"],
      "order",
    );
    const two = await walkRollouts(root, { limit: 2 });
    assert.deepEqual(
      two.files.map((f) => relative(root, f.path)),
      ["2026/03/02/rollout-c.jsonl", "2026/03/01/rollout-a.jsonl"],
      "limit keeps the newest",
    );
    assert.equal(all.files[0]?.size, 3, "size from stat");
  });
});

test("does not follow symbolic links that leave the root, nor linked directories; keeps a linked file inside", async () => {
  await withTree(async (root, outside) => {
    await put(join(outside, "secret.jsonl"), 1000);
    await put(join(root, "2026/03/01/rollout-a.jsonl"), 1000);
    await symlink(join(outside, "secret.jsonl"), join(root, "escape.jsonl"));
    await symlink(outside, join(root, "linked-dir"));
    await symlink(root, join(root, "2026/loop"));
    await symlink(join(root, "2026/03/01/rollout-a.jsonl"), join(root, "alias.jsonl"));
    const walk = await walkRollouts(root);
    assert.deepEqual(
      walk.files.map((f) => relative(root, f.path)).sort(),
      ["2026/03/01/rollout-a.jsonl", "alias.jsonl"],
      "inside only, no cycle",
    );
    assert.equal(walk.outsideRoot, 1, "the link out is counted");
  });
});

test("a dangling link is counted as unreadable, not a failure of the walk", async () => {
  await withTree(async (root) => {
    await symlink(join(root, "gone.jsonl"), join(root, "dangling.jsonl"));
    await put(join(root, "ok.jsonl"), 1000);
    const walk = await walkRollouts(root);
    assert.deepEqual([walk.files.length, walk.unreadable], [1, 1], "one file, one unreadable");
  });
});

// Root reads every directory whatever its mode, so only another user can see one fail to list.
const AS_ROOT = process.getuid?.() === 0 ? "root lists a directory of mode 000" : false;

test("a directory that cannot be listed is counted as an unreadable directory, not as a rollout", { skip: AS_ROOT }, async () => {
  await withTree(async (root) => {
    await put(join(root, "2026/03/01/rollout-a.jsonl"), 1000);
    await put(join(root, "2026/03/02/rollout-b.jsonl"), 1000);
    const locked = join(root, "2026/03/02");
    await chmod(locked, 0o000);
    try {
      const walk = await walkRollouts(root);
      assert.deepEqual(
        [walk.files.map((f) => relative(root, f.path)), walk.unreadable, walk.unreadableDirs],
        [["2026/03/01/rollout-a.jsonl"], 0, 1],
        "the readable file, no unreadable rollout, one unreadable directory",
      );
    } finally {
      await chmod(locked, 0o755);
    }
  });
});

test("a root that is missing or not a directory is INVALID_ARGUMENT naming root", async () => {
  await withTree(async (root) => {
    await put(join(root, "file.jsonl"), 1000);
    for (const bad of [join(root, "missing"), join(root, "file.jsonl")]) {
      await assert.rejects(
        walkRollouts(bad),
        (e: unknown) => e instanceof AnalyticsError && e.code === "INVALID_ARGUMENT" && e.metadata["field"] === "root",
        bad,
      );
    }
  });
});

test("a child's path is what path.join gives for every shape of root, so cache keys and listings do not change", () => {
  for (const root of [".", "./", "/", "sessions", "sessions/", "./sessions", "../store//sessions/", "/abs/./store/"]) {
    const dir = normalize(root);
    for (const name of ["2026", "rollout-a.jsonl", ".hidden"]) assert.equal(childPath(dir, name), join(root, name), `${root} + ${name}`);
  }
});
