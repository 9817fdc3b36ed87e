import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { runCli } from "./program.js";
import { captureIo } from "./test-support.js";

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

test("generate writes dated rollouts whose mtime is their last line's time, the same for the same seed", async (t) => {
  const a = await mkdtemp(join(tmpdir(), "rollouts-gen-a-"));
  const b = await mkdtemp(join(tmpdir(), "rollouts-gen-b-"));
  t.after(() => Promise.all([rm(a, { recursive: true, force: true }), rm(b, { recursive: true, force: true })]));
  assert.equal(await runCli(["generate", a, "--seed", "5", "--files", "6"], captureIo()), 0);
  assert.equal(await runCli(["generate", b, "--seed", "5", "--size", "50KB"], captureIo()), 0);
  const written = await files(a);
  assert.equal(written.length, 6, "six files");
  for (const path of written) {
    const text = await readFile(path, "utf8");
    const stamps = [...text.matchAll(/"timestamp":"([^"]+)"/g)].map((m) => Date.parse(m[1] ?? ""));
    if (stamps.length === 0) continue; // the legacy layout has no line times
    const { mtimeMs } = await stat(path);
    assert.ok(Math.abs(mtimeMs - Math.max(...stamps)) < 1000, `${path}: mtime at its last line`);
  }
  const sized = await files(b);
  const bytes = (await Promise.all(sized.map((p) => stat(p)))).reduce((n, s) => n + s.size, 0);
  assert.ok(bytes >= 50_000, `at least the size asked for (${bytes})`);
  const first = sized[0] ?? "";
  assert.equal(await readFile(first, "utf8"), await readFile(first.replace(b, a), "utf8").catch(() => ""), "same seed, same first file");
});

test("generate refuses a malformed size naming the flag, and writes nothing", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-gen-bad-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  for (const args of [["--size", "12 parsecs"], ["--files", "-3"], ["--seed", "x", "--files", "1"], []]) {
    const io = captureIo();
    assert.equal(await runCli(["generate", dir, ...args], io), 2, `exit 2 for ${args.join(" ")}`);
    assert.match(io.stderr, /--(size|files|seed)/, `names the flag: ${io.stderr}`);
  }
  assert.deepEqual(await files(dir), [], "nothing written");
});

test("generate into a path under a file or on a file system that takes no new folders exits 2 naming <dir>, instead of failing late or never returning", {
  timeout: 30_000,
}, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-gen-target-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, "a-file");
  await writeFile(file, "");
  // A recursive mkdir under /proc is refused with ENOENT at every level and retries for ever.
  for (const target of [file, join(file, "corpus"), "/proc/rollouts-corpus/nested"]) {
    const io = captureIo();
    assert.equal(await runCli(["generate", target, "--files", "1"], io), 2, `exit 2 for ${target}: ${io.stderr}`);
    assert.ok(io.stderr.startsWith("rollouts: <dir> ") && io.stderr.includes(target), `names <dir> and ${target}: ${io.stderr}`);
  }
  const fresh = join(dir, "new", "corpus");
  assert.equal(await runCli(["generate", fresh, "--size", "12 parsecs"], captureIo()), 2, "a bad flag");
  assert.deepEqual(await readdir(dir), ["a-file"], "a refused command makes no folder");
  assert.equal(await runCli(["generate", fresh, "--files", "1"], captureIo()), 0, "missing folders are made");
  assert.equal((await files(fresh)).length, 1, "one rollout written");
});
