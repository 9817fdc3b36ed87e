import { before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "@crs/runtime/testing";
import { run } from "../support/tools.js";

const SERVICE = join(repoRoot(), "services", "rollout-analytics");
const NOW = "2026-06-01";

before(async () => {
  const built = await run(process.execPath, ["--import", "tsx", "scripts/build.ts", "rollout-analytics"]);
  assert.equal(built.code, 0, `pnpm build: ${built.stderr}`);
});

// Only the command and its bundles are copied: no sources, no node_modules, so neither the
// command nor its worker threads can fall back to loading TypeScript through tsx.
async function shippedCli(dir: string): Promise<string> {
  await mkdir(join(dir, "bin"), { recursive: true });
  await mkdir(join(dir, "dist"));
  await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  await copyFile(join(SERVICE, "bin", "rollouts.cjs"), join(dir, "bin", "rollouts.cjs"));
  for (const name of ["cli.cjs", "scan-worker.js", "usage-worker.js"]) await copyFile(join(SERVICE, "dist", name), join(dir, "dist", name));
  return join(dir, "bin", "rollouts.cjs");
}

test("the command bundle is one ASCII function expression, so a start compiles the file as read, one byte a character", async () => {
  const bytes = await readFile(join(SERVICE, "dist", "cli.cjs"));
  const wide = bytes.findIndex((b) => b > 0x7f);
  assert.equal(wide, -1, `a byte beyond ASCII at ${wide}: V8 would hold the whole script at two bytes a character`);
  assert.ok(
    bytes.toString("latin1").startsWith("(function (exports, require, module, __filename, __dirname) {"),
    "the CommonJS wrapper is in the file",
  );
});

test("the rollouts command scans on worker threads from its bundles alone, with the reports the sources give", async () => {
  const dir = await mkdtemp(join(tmpdir(), "built-cli-"));
  try {
    const bin = await shippedCli(join(dir, "shipped"));
    const corpus = join(dir, "corpus");
    const made = await run(process.execPath, [bin, "generate", corpus, "--seed", "4", "--files", "24"]);
    assert.equal(made.code, 0, `generate from the bundle: ${made.stderr}`);
    const scanArgs = ["scan", corpus, "--workers", "2", "--no-cache", "--now", NOW, "--format", "json"];
    const shipped = await run(process.execPath, [bin, ...scanArgs]);
    assert.equal(shipped.code, 0, `scan from the bundle on two workers: ${shipped.stderr}`);
    assert.match(shipped.stderr, /scanned 24 files/, "every file scanned");
    const fromSource = await run(process.execPath, ["--import", "tsx", join(SERVICE, "src", "cli", "main.ts"), ...scanArgs]);
    assert.equal(fromSource.code, 0, `scan from the sources: ${fromSource.stderr}`);
    assert.deepEqual(JSON.parse(shipped.stdout), JSON.parse(fromSource.stdout), "the bundle reports what the sources report");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("the rollouts usage command reads on its own worker threads from its bundles alone, with the figures the sources give", async () => {
  const dir = await mkdtemp(join(tmpdir(), "built-cli-usage-"));
  try {
    const bin = await shippedCli(join(dir, "shipped"));
    const corpus = join(dir, "corpus");
    const made = await run(process.execPath, [bin, "generate", corpus, "--seed", "6", "--files", "24"]);
    assert.equal(made.code, 0, `generate from the bundle: ${made.stderr}`);
    const usageArgs = ["usage", corpus, "--workers", "2", "--no-cache", "--by", "session"];
    const shipped = await run(process.execPath, [bin, ...usageArgs]);
    assert.equal(shipped.code, 0, `usage from the bundle on two workers, with the price list it carries: ${shipped.stderr}`);
    const fromSource = await run(process.execPath, ["--import", "tsx", join(SERVICE, "src", "cli", "main.ts"), ...usageArgs]);
    assert.equal(fromSource.code, 0, `usage from the sources: ${fromSource.stderr}`);
    const report = JSON.parse(shipped.stdout) as { rows: unknown[]; totals: { total_tokens: number; cost: number | null } };
    assert.ok(report.rows.length > 0 && report.totals.total_tokens > 0 && report.totals.cost !== null, "tokens were counted and priced");
    assert.deepEqual(report, JSON.parse(fromSource.stdout), "the bundle reports what the sources report");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("the bundle does not reuse per-file results cached by other code, and reuses its own", async () => {
  const dir = await mkdtemp(join(tmpdir(), "built-cli-code-"));
  try {
    const bin = await shippedCli(join(dir, "shipped"));
    const corpus = join(dir, "corpus");
    assert.equal((await run(process.execPath, [bin, "generate", corpus, "--seed", "5", "--files", "6"])).code, 0);
    const scanArgs = ["scan", corpus, "--cache-dir", join(dir, "cache"), "--now", NOW];
    const fromSource = await run(process.execPath, ["--import", "tsx", join(SERVICE, "src", "cli", "main.ts"), ...scanArgs]);
    assert.match(fromSource.stderr, /scanned 6 files \(0 reused/, `the sources fill the cache: ${fromSource.stderr}`);
    const shipped = await run(process.execPath, [bin, ...scanArgs]);
    assert.match(shipped.stderr, /scanned 6 files \(0 reused/, `the build reads every file again: ${shipped.stderr}`);
    const again = await run(process.execPath, [bin, ...scanArgs]);
    assert.match(again.stderr, /scanned 6 files \(6 reused/, `the build reuses what it cached: ${again.stderr}`);
    assert.deepEqual(JSON.parse(again.stdout), JSON.parse(fromSource.stdout), "with the same report");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a bundle replaced by another of the same size and times runs as itself, not from the code its predecessor cached", async () => {
  const dir = await mkdtemp(join(tmpdir(), "built-cli-cache-"));
  try {
    const bin = await shippedCli(join(dir, "shipped"));
    const bundle = join(dir, "shipped", "dist", "cli.cjs");
    const env = { ...process.env, XDG_CACHE_HOME: join(dir, "cache") };
    // A whole-second time, which the replacement below can be given exactly.
    const fixed = new Date("2026-01-01T00:00:00Z");
    await utimes(bundle, fixed, fixed);
    const empty = join(dir, "empty");
    await mkdir(empty);
    // The usage table of an empty store: a run that ends by itself, so its compiled code is kept.
    const table = async (): Promise<string> => {
      const r = await run(process.execPath, [bin, "usage", empty, "--no-cache", "--format", "table"], { env });
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    assert.match(await table(), /cached input/, "the first run, which keeps its compiled code");
    assert.match(await table(), /cached input/, "a run from the kept code");
    // Another build of the same length and modification time, as an unpacking that keeps times
    // or a build that fixes them would make.
    const before = await stat(bundle);
    const source = await readFile(bundle, "utf8");
    assert.ok(source.includes('"cached input"'));
    await rm(bundle);
    await writeFile(bundle, source.replaceAll('"cached input"', '"CACHED INPUT"'));
    await utimes(bundle, fixed, fixed);
    const after = await stat(bundle);
    assert.deepEqual([after.size, after.mtimeMs], [before.size, before.mtimeMs]);
    assert.match(await table(), /CACHED INPUT/, "the new bundle's own text");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("mistyped command names share one compiled-code cache instead of adding a file each", async () => {
  const dir = await mkdtemp(join(tmpdir(), "built-cli-names-"));
  try {
    const bin = await shippedCli(join(dir, "shipped"));
    const env = { ...process.env, XDG_CACHE_HOME: join(dir, "cache") };
    for (const word of ["scna", "frob", "usgae"]) {
      const r = await run(process.execPath, [bin, word], { env });
      assert.equal(r.code, 2, `${word} is no command: ${r.stderr}`);
    }
    assert.equal((await run(process.execPath, [bin, "help"], { env })).code, 0);
    const kept = await readdir(join(dir, "cache", "crs-rollout-analytics", "code"));
    assert.deepEqual(kept, ["cli-other.bin"]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
