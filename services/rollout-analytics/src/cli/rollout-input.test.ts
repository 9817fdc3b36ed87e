// `rollouts rollout <file>` on what is not a plain readable rollout file: an unreadable path,
// a stream (FIFO, character device, standard input) and a file that holds no rollout.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { writeCorpus } from "../generate/index.js";
import { runCli } from "./program.js";
import { captureIo, chunksOf } from "./test-support.js";

const LINUX = process.platform === "linux" ? false : "needs Linux's /proc, /sys and mkfifo";
// A write-only sysfs attribute: the kernel refuses to open it for reading (EACCES) even to root,
// as the tests run, where a chmod 000 file would still be read.
const WRITE_ONLY = "/sys/bus/pci/rescan";
const MAIN = join(dirname(fileURLToPath(import.meta.url)), "main.ts");

async function run(args: string[], stdin?: AsyncIterable<Uint8Array>) {
  const io = captureIo(process.cwd(), stdin);
  return { code: await runCli(args, io), stdout: io.stdout, stderr: io.stderr };
}

/** One generated rollout in a temporary folder, removed after the test. */
async function generatedRollout(t: { after: (fn: () => Promise<void>) => void }): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-input-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeCorpus({ dir, seed: 5, files: 1, bigLineShare: 0 });
  const [name] = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((n) => n.endsWith(".jsonl"));
  assert.ok(name !== undefined, "the generated rollout");
  return { dir, file: join(dir, name) };
}

/** Asserts a run failed with `code`, printing `line` on stderr and no report. */
function assertRefused(result: { code: number; stdout: string; stderr: string }, code: 1 | 2, line: string): void {
  assert.equal(result.code, code, result.stderr);
  assert.equal(result.stderr, `rollouts: ${line}\n`);
  assert.equal(result.stdout, "", "no report");
}

// Reports compared across sources are judged with nothing fresh: a file's mtime and a stream's
// latest record differ, and freshness has its own test.
const STALE = ["--now", "2026-07-01T00:00:00Z", "--fresh-mins", "0"];

test("a rollout file that cannot be opened (EACCES) exits 2 with one line naming <file> and the path, not node's raw error", {
  skip: existsSync(WRITE_ONLY) ? false : `${WRITE_ONLY} is absent`,
}, async () => {
  assertRefused(await run(["rollout", WRITE_ONLY]), 2, `<file> ${WRITE_ONLY} cannot be read (EACCES)`);
});

test("a rollout file whose first read fails (EIO) exits 2 naming <file>, as nothing of it was read", { skip: LINUX }, async () => {
  // /proc/self/mem opens, but reading its first page (an address no process maps) fails.
  assertRefused(await run(["rollout", "/proc/self/mem"]), 2, "<file> /proc/self/mem cannot be read (EIO)");
});

test("a read that fails part way exits 1 naming <file> and the bytes read, instead of printing a report of part of the rollout", {
  skip: LINUX,
}, async (t) => {
  const { file } = await generatedRollout(t);
  const head = (await readFile(file)).subarray(0, 4096);
  // A real EIO from the kernel, raised where a disk would raise it: after the first chunk.
  const eio: unknown = await readFile("/proc/self/mem").catch((e: unknown) => e);
  async function* failing(): AsyncGenerator<Uint8Array, void, undefined> {
    yield head;
    throw eio;
  }
  const line = "<file> - failed after 4096 bytes (EIO); no report of part of a rollout is printed";
  assertRefused(await run(["rollout", "-", ...STALE], failing()), 1, line);
});

test("a rollout piped through a FIFO, as <(zcat x.jsonl.gz) gives it, is analysed as its file is instead of refused", {
  skip: LINUX,
}, async (t) => {
  const { dir, file } = await generatedRollout(t);
  const fifo = join(dir, "pipe");
  execFileSync("mkfifo", [fifo]);
  // The writer is another process, as the shell's is; opening the FIFO waits for both ends.
  const writer = spawn("sh", ["-c", 'cat "$1" > "$2"', "sh", file, fifo], { stdio: "ignore" });
  const written = new Promise<number | null>((done) => writer.once("close", done));
  // A command that refuses the FIFO never opens it, and the writer would wait for ever.
  t.after(() => void writer.kill());
  const piped = await run(["rollout", fifo, ...STALE]);
  assert.equal(piped.code, 0, piped.stderr);
  assert.equal(piped.stderr, "", "no warning for a rollout");
  assert.equal(await written, 0, "the writer wrote the whole rollout");
  const direct = await run(["rollout", file, ...STALE]);
  assert.ok((JSON.parse(direct.stdout) as { tasks: unknown[] }).tasks.length > 0, "a rollout with tasks");
  assert.equal(piped.stdout, direct.stdout);
});

test("- reads the process's standard input, so a rollout piped into the command gets its file's report", async (t) => {
  const { file } = await generatedRollout(t);
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, "rollout", "-", ...STALE], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => void (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()));
  const exited = new Promise<number | null>((done) => child.once("close", done));
  child.stdin.end(await readFile(file));
  assert.equal(await exited, 0, stderr);
  assert.equal(stderr, "");
  assert.equal(stdout, (await run(["rollout", file, ...STALE])).stdout);
});

test("a stream is judged fresh by its latest record's time, not by its own modification time (the moment it was piped)", async () => {
  // A task that started and has no end: live while the rollout may still be written, else dead.
  const open = [
    { timestamp: "2026-03-01T12:00:00.000Z", type: "session_meta", payload: { id: "s", cwd: "/srv" } },
    { timestamp: "2026-03-01T12:00:00.000Z", type: "event_msg", payload: { type: "task_started", turn_id: "t1" } },
    { timestamp: "2026-03-01T12:30:00.000Z", type: "event_msg", payload: { type: "agent_message", message: "working" } },
    { timestamp: "2026-03-01T12:40:00.000Z", type: "response_item", payload: { type: "message", role: "assistant", content: [] } },
  ]
    .map((line) => `${JSON.stringify(line)}\n`)
    .join("");
  const outcome = async (now: string) => {
    const { code, stdout, stderr } = await run(["rollout", "-", "--now", now], chunksOf(Buffer.from(open)));
    assert.equal(code, 0, stderr);
    return (JSON.parse(stdout) as { tasks: { outcome: string }[] }).tasks.map((task) => task.outcome);
  };
  assert.deepEqual(await outcome("2026-03-01T14:40:00Z"), ["live"], "within 120 minutes of the last record");
  assert.deepEqual(await outcome("2026-03-01T14:41:00Z"), ["process_death"], "past them, however new the pipe");
});

test("a file that holds no rollout record exits 0 with its empty report and one warning naming it, so a mistyped path is noticed", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-norecord-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const readme = join(dir, "README.md");
  await writeFile(readme, '# Notes\n\n{"type":"nothing we know","payload":{}}\n[1, 2]\n');
  // A character device reads as a stream; /dev/null is an empty one.
  for (const path of [readme, "/dev/null"]) {
    const { code, stdout, stderr } = await run(["rollout", path, ...STALE]);
    assert.equal(code, 0, stderr);
    assert.equal(stderr, `rollouts: warning: ${path} holds no rollout records\n`);
    assert.deepEqual((JSON.parse(stdout) as { tasks: unknown[] }).tasks, [], "an empty report");
  }
  const { file } = await generatedRollout(t);
  assert.equal((await run(["rollout", file, ...STALE])).stderr, "", "a rollout warns of nothing");
});
