// Planted secrets in every body a rollout carries must reach no report, message or cache file.
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { PLANTED_SECRET_MARKER } from "@crs/domain/rollout";
import { writeCorpus } from "../generate/index.js";
import { runCli } from "./program.js";
import { captureIo } from "./test-support.js";

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

test("secrets planted in prompts, arguments, outputs, reasoning and errors appear in no report, message or cache file", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-privacy-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const store = join(dir, "sessions");
  const cache = join(dir, "cache");
  await writeCorpus({ dir: store, seed: 9, files: 40, plantSecrets: true, bigLineShare: 0 });
  const planted = (await Promise.all((await filesUnder(store)).map((f) => readFile(f, "utf8")))).join("\n");
  for (const place of ["prompt", "argument", "output", "reasoning", "error", "agent_message", "patch"]) {
    assert.ok(planted.includes(`${PLANTED_SECRET_MARKER}-${place}-`), `the corpus carries a ${place} secret`);
  }
  const read = ["--cache-dir", cache, "--workers", "2"];
  const scan = ["--now", "2026-05-15", ...read];
  const runs: string[][] = [
    ["scan", store, ...scan],
    ["scan", store, ...scan, "--format", "table"],
    ["scan", store, ...scan, "--format", "html", "--out", join(dir, "report.html")],
    ...["day", "month", "model", "session"].map((by) => ["usage", store, ...read, "--by", by]),
    ["usage", store, ...read, "--format", "table", "--by", "session"],
    ["retention", store, "--now", "2026-05-15", "--cap", "1MB"],
  ];
  for (const file of (await filesUnder(store)).slice(0, 8)) runs.push(["rollout", file, "--format", "table"], ["rollout", file]);
  let written = "";
  for (const args of runs) {
    const io = captureIo();
    assert.equal(await runCli(args, io), 0, `${args.join(" ")}: ${io.stderr}`);
    written += io.stdout + io.stderr;
  }
  written += await readFile(join(dir, "report.html"), "utf8");
  const cached = await filesUnder(cache);
  assert.ok(cached.length > 0, "the scans wrote cache files");
  for (const f of cached) written += await readFile(f, "latin1");
  assert.ok(written.length > 100_000, "the reports are not empty");
  assert.ok(
    !written.includes(PLANTED_SECRET_MARKER),
    `no planted secret leaked: ${written.slice(Math.max(0, written.indexOf(PLANTED_SECRET_MARKER) - 200), written.indexOf(PLANTED_SECRET_MARKER) + 80)}`,
  );
});
