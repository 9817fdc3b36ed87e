import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import {
  analyticsReport,
  collectRollout,
  errorClassReport,
  healthReport,
  isFresh,
  lifecycleReport,
  mergeAll,
  parsePricing,
  partialOfRollout,
  postToolReport,
  reconcileReport,
  sessionOfFile,
  usageReport,
} from "@crs/domain/rollout";
import { writeCorpus } from "../generate/index.js";
import { runCli } from "./program.js";
import { SHIPPED_PRICING } from "./pricing.js";
import { captureIo, REAL_DIR, REAL_SKIP } from "./test-support.js";

const NOW = Date.parse("2026-07-01T00:00:00Z");

// The library's answer, computed file by file without the scanner.
function libraryPartial() {
  const names = readdirSync(REAL_DIR).filter((n) => n.endsWith(".jsonl"));
  return mergeAll(
    names.map((name) => {
      const path = join(REAL_DIR, name);
      const rollout = collectRollout(readFileSync(path, "utf8").split("\n"));
      const fresh = isFresh({ mtimeMs: statSync(path).mtimeMs, nowMs: NOW, freshWithinMs: 120 * 60_000 });
      return partialOfRollout({ rollout, fresh, session: sessionOfFile(path) });
    }),
  );
}

async function cliText(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const io = captureIo();
  const code = await runCli(args, io);
  assert.equal(code, 0, `exit 0 for ${args.join(" ")}: ${io.stderr}`);
  return io;
}

async function cliJson(args: string[]): Promise<unknown> {
  return JSON.parse((await cliText(args)).stdout);
}

const READ = ["--no-cache", "--workers", "1"];
const THIS_FILE = fileURLToPath(import.meta.url);
const SCAN = ["--now", "2026-07-01T00:00:00Z", ...READ];

test("scan's JSON on the real rollouts differs in nothing from the library's reports", { skip: REAL_SKIP }, async () => {
  const partial = libraryPartial();
  const all = await cliJson(["scan", REAL_DIR, ...SCAN]);
  assert.deepEqual(all, {
    lifecycle: lifecycleReport(partial, { root: REAL_DIR }),
    analytics: analyticsReport(partial, { root: REAL_DIR, topN: 10 }),
    health: healthReport(partial, { top: 10 }),
    reconcile: reconcileReport(partial, { root: REAL_DIR }),
    errors: errorClassReport(partial, { root: REAL_DIR }),
    posttool: postToolReport(partial, { root: REAL_DIR }),
  });
  assert.deepEqual(
    await cliJson(["scan", REAL_DIR, ...SCAN, "--report", "analytics", "--top", "2"]),
    analyticsReport(partial, { root: REAL_DIR, topN: 2 }),
  );
});

test("a post-tool table that loses the band rows or their tool median hides where the gap grows", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-posttool-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeCorpus({ dir, seed: 5, files: 6, bigLineShare: 0 });
  const report = (await cliJson(["scan", dir, ...SCAN, "--report", "posttool"])) as { spans: number; by_band: { key: string }[] };
  assert.ok(report.spans > 0, "the corpus has post-tool spans");
  const order = ["unobserved", "lt10k", "10k_25k", "25k_50k", "50k_100k", "gte100k"];
  const keys = report.by_band.map((r) => r.key);
  assert.deepEqual(
    keys,
    order.filter((k) => keys.includes(k)),
    "band rows in band order",
  );
  const { stdout } = await cliText(["scan", dir, ...SCAN, "--report", "posttool", "--format", "table"]);
  assert.match(stdout, /^by band\nkey\s+n\s+p50\s+p90\s+p95\s+over30s\s+tool p50$/m, "band table");
  assert.match(stdout, /^by ordinal\nkey\s+n\s+p50\s+p90\s+p95\s+over30s\s+tool p50$/m, "ordinal table");
  assert.match(stdout, /^over30s share\s/m, "overall figures");
});

test("scan --top above ten lists that many slowest tasks, not ten", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-top-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeCorpus({ dir, seed: 3, files: 12, bigLineShare: 0 });
  const report = (await cliJson(["scan", dir, ...SCAN, "--report", "analytics", "--top", "25"])) as { top_tasks: unknown[] };
  assert.equal(report.top_tasks.length, 25);
});

test("scan prints a map whose keys are numerals in byte order ('10' before '9'), as the reference does, not numerals first", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-numeral-keys-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const line = (type: string) => JSON.stringify({ timestamp: "2026-06-01T00:00:00Z", type: "event_msg", payload: { type } });
  await writeFile(join(dir, "a.jsonl"), `${[line("task_started"), line("9"), line("10")].join("\n")}\n`);
  const { stdout } = await cliText(["scan", dir, ...SCAN, "--report", "errors"]);
  const types = stdout.slice(stdout.indexOf('"payload_types"'), stdout.indexOf('"unknown_payload_types"'));
  assert.ok(types.indexOf('"10"') < types.indexOf('"9"'), `"10" listed before "9": ${types}`);
});

test("scan --top 0 or below is refused naming --top and the way to the default, instead of read as 10 as the reference reads it", async () => {
  for (const top of ["0", "-3", "00"]) {
    const io = captureIo();
    assert.equal(await runCli(["scan", REAL_DIR, ...SCAN, "--top", top], io), 2, `exit 2 for --top ${top}: ${io.stderr}`);
    assert.equal(io.stderr, "rollouts: --top must be at least 1; leave it out for the default, 10\n");
    assert.equal(io.stdout, "", "no report");
  }
});

test("rollout analyses a rollout saved under any file name, as an upload has none, instead of only *.jsonl", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-name-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeCorpus({ dir, seed: 5, files: 1, bigLineShare: 0 });
  const [name] = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((n) => n.endsWith(".jsonl"));
  assert.ok(name !== undefined, "the generated rollout");
  const original = join(dir, name);
  const renamed = join(dir, "session-export.json");
  await writeFile(renamed, readFileSync(original));
  const ofFile = async (file: string) => (await cliJson(["rollout", file, "--now", "2026-07-01T00:00:00Z"])) as { tasks: unknown[] };
  const asJsonl = await ofFile(original);
  assert.ok(asJsonl.tasks.length > 0, "a rollout with tasks");
  assert.deepEqual(await ofFile(renamed), asJsonl, "the same report whatever the name");
});

test("retention without window flags keeps a day active and 30 days warm, not the zero windows that would expire every rollout", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-retention-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const now = Date.parse("2026-07-01T00:00:00Z");
  for (const [name, ageDays] of [
    ["a-12h.jsonl", 0.5],
    ["b-10d.jsonl", 10],
    ["c-40d.jsonl", 40],
  ] as const) {
    const path = join(dir, name);
    await writeFile(path, "{}\n");
    const at = new Date(now - ageDays * 86_400_000);
    await utimes(path, at, at);
  }
  const plan = (await cliJson(["retention", dir, "--now", "2026-07-01T00:00:00Z"])) as { decisions: { id: string; class: string }[] };
  assert.deepEqual(
    plan.decisions.map((d) => [d.id, d.class]),
    [
      ["a-12h.jsonl", "active"],
      ["b-10d.jsonl", "warm_evidence"],
      ["c-40d.jsonl", "expired"],
    ],
  );
});

test("usage's JSON on the real rollouts is the library's usage report at the shipped prices", { skip: REAL_SKIP }, async () => {
  const pricing = parsePricing(JSON.parse(readFileSync(SHIPPED_PRICING, "utf8")), "pricing");
  const partial = libraryPartial();
  for (const by of ["day", "month", "model", "session"] as const) {
    assert.deepEqual(await cliJson(["usage", REAL_DIR, ...READ, "--by", by]), usageReport(partial.usage, by, pricing), `--by ${by}`);
  }
  const days = (await cliJson(["usage", REAL_DIR, ...READ])) as { totals: { total_tokens: number; cost: number } };
  assert.equal(days.totals.total_tokens, 2_122_973, "ccusage's total");
  assert.ok(Math.abs(days.totals.cost - 0.9092571) < 1e-9, "ccusage's cost");
});

test("JSON keeps full precision while the table rounds", { skip: REAL_SKIP }, async () => {
  const json = (await cliJson(["usage", REAL_DIR, ...READ])) as { totals: { cost: number } };
  assert.ok(Math.abs(json.totals.cost - 0.9092571) < 1e-9 && json.totals.cost !== 0.91, "the unrounded cost");
  const io = captureIo();
  assert.equal(await runCli(["usage", REAL_DIR, ...READ, "--format", "table"], io), 0);
  assert.match(io.stdout, /^total\s.*\s0\.91\s/m, "cost rounded to cents in the table");
  assert.match(io.stdout, /2,122,973/, "token counts with separators");
});

/** A rollout of one reply on `day` by `model` that used `input` uncached input tokens. */
function usageRollout(day: string, model: string, input: number): string {
  const reply = {
    timestamp: `${day}T12:00:01.000Z`,
    type: "event_msg",
    payload: { type: "token_count", info: { total_token_usage: { input_tokens: input, output_tokens: 0, total_tokens: input } } },
  };
  return [{ timestamp: `${day}T12:00:00.000Z`, type: "turn_context", payload: { model } }, reply]
    .map((line) => `${JSON.stringify(line)}\n`)
    .join("");
}

test("a table cost shows its cents whatever its size: 1,234.57 and 125.00, not 1,234.6 and 125", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-cents-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  // Uncached gpt-5 input at 1.25 USD per million tokens.
  await writeFile(join(dir, "rollout-a.jsonl"), usageRollout("2026-03-01", "gpt-5", 987_654_321));
  await writeFile(join(dir, "rollout-b.jsonl"), usageRollout("2026-03-02", "gpt-5", 100_000_000));
  const { stdout } = await cliText(["usage", dir, ...READ, "--format", "table"]);
  assert.match(stdout, /^2026-03-01\s.*\s1,234\.57\s+gpt-5$/m, stdout);
  assert.match(stdout, /^2026-03-02\s.*\s125\.00\s+gpt-5$/m, stdout);
  assert.match(stdout, /^total\s.*\s1,359\.57\s*$/m, stdout);
  assert.match(stdout, /^days in UTC; prices as of /m, "the table says which day a reply counts on");
});

test("a usage table row of many models names only the 3 with the most tokens and how many more, not every model in an ever wider column", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-models-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const models = { "model-a": 10, "model-b": 500, "model-c": 40, "model-d": 300, "model-e": 20 };
  for (const [model, input] of Object.entries(models)) {
    await writeFile(join(dir, `rollout-${model}.jsonl`), usageRollout("2026-03-01", model, input));
  }
  await writeFile(join(dir, "rollout-f.jsonl"), usageRollout("2026-03-02", "model-a", 5));
  const { stdout } = await cliText(["usage", dir, ...READ, "--format", "table"]);
  assert.match(stdout, /^2026-03-01\s.*\smodel-b, model-d, model-c \+2 more$/m, stdout);
  assert.match(stdout, /^2026-03-02\s.*\smodel-a$/m, "a row of one model names it alone");
  const json = (await cliJson(["usage", dir, ...READ])) as { rows: { key: string; models: string[] }[] };
  assert.deepEqual(json.rows[0]?.models, Object.keys(models), "the JSON keeps every model");
});

test("a relative --cwd is resolved against the working directory, not compared as written", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-cwd-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const rollout = (id: string, cwd: string) =>
    [
      { timestamp: "2026-03-01T12:00:00.000Z", type: "session_meta", payload: { id, cwd } },
      { timestamp: "2026-03-01T12:00:00.000Z", type: "event_msg", payload: { type: "task_started", turn_id: "t1" } },
      { timestamp: "2026-03-01T12:00:09.000Z", type: "event_msg", payload: { type: "task_complete", turn_id: "t1" } },
    ]
      .map((line) => `${JSON.stringify(line)}\n`)
      .join("");
  await writeFile(join(dir, "rollout-a.jsonl"), rollout("a", "/srv/repos/billing"));
  await writeFile(join(dir, "rollout-b.jsonl"), rollout("b", "/srv/other"));
  const io = captureIo("/srv");
  assert.equal(await runCli(["scan", dir, ...SCAN, "--report", "lifecycle", "--cwd", "repos/billing"], io), 0, io.stderr);
  assert.equal((JSON.parse(io.stdout) as { scanned: number }).scanned, 1, "the rollout that ran in /srv/repos/billing");
});

test("a bad flag is refused with exit 2 naming it, and prints no report", async () => {
  const cases: [string[], string][] = [
    [["scan", REAL_DIR, "--format", "pdf"], "--format"],
    [["scan", REAL_DIR, "--report", "everything"], "--report"],
    [["scan", REAL_DIR, "--now", "yesterday"], "--now"],
    [["scan", REAL_DIR, "--fresh-mins", "-1"], "--fresh-mins"],
    [["scan", REAL_DIR, "--top", "0"], "--top"],
    // The reference's Go flags take -1 (as "all") and Go literals; here only the documented values are.
    [["scan", REAL_DIR, "--max", "-1"], "--max"],
    [["scan", REAL_DIR, "--top", "0x10"], "--top"],
    [["usage", REAL_DIR, "--by", "week"], "--by"],
    [["usage", REAL_DIR, "--pricing", "/nonexistent/prices.json"], "--pricing"],
    // Usage takes no clock: the scan's clock flags are refused rather than silently ignored.
    [["usage", REAL_DIR, "--now", "2026-07-01"], "--now"],
    [["usage", REAL_DIR, "--fresh-mins", "5"], "--fresh-mins"],
    [["retention", REAL_DIR, "--cap", "lots"], "--cap"],
    [["rollout", "/nonexistent/rollout.jsonl"], "<file>"],
    // An --out that cannot be written is refused before the scan, not after it.
    [["scan", REAL_DIR, "--out", "/nonexistent/dir/report.json"], "--out"],
    [["usage", REAL_DIR, "--out", REAL_DIR], "--out"],
    // A cache folder that names a file, or lies under one, could never hold a cache.
    [["scan", REAL_DIR, "--cache-dir", THIS_FILE], "--cache-dir"],
    [["usage", REAL_DIR, "--cache-dir", THIS_FILE], "--cache-dir"],
    [["scan", REAL_DIR, "--cache-dir", join(THIS_FILE, "cache")], "--cache-dir"],
    [["usage", REAL_DIR, "--cache-dir", ""], "--cache-dir"],
  ];
  for (const [args, flag] of cases) {
    const io = captureIo();
    assert.equal(await runCli(args, io), 2, `exit 2 for ${args.join(" ")}: ${io.stderr}`);
    assert.ok(io.stderr.includes(flag), `${args.join(" ")} names ${flag}: ${io.stderr}`);
    assert.equal(io.stdout, "", "no report");
  }
});

test("a store root that is missing or a file is refused before any work, naming <dir> and the path", async () => {
  const missing = join(tmpdir(), "no-such-rollout-store");
  for (const [args, path] of [
    [["scan", missing, "--now", "2026-07-01"], missing],
    [["usage", THIS_FILE], THIS_FILE],
    [["retention", join(THIS_FILE, "store"), "--now", "2026-07-01"], join(THIS_FILE, "store")],
  ] as const) {
    const io = captureIo();
    assert.equal(await runCli([...args], io), 2, `exit 2 for ${args.join(" ")}: ${io.stderr}`);
    assert.equal(io.stderr.trim().split("\n").length, 1, `one line: ${io.stderr}`);
    assert.ok(io.stderr.includes("<dir>") && io.stderr.includes(path), `${args[0]} names <dir> and ${path}: ${io.stderr}`);
  }
});

test("an --out that cannot be written is refused before the scan with exit 2 naming it, and a refused command leaves no file behind", async (t) => {
  // The proc file system takes no new files, whoever runs the command, as a read-only mount would.
  for (const out of ["/proc/rollouts-report.json", ""]) {
    const io = captureIo();
    assert.equal(await runCli(["scan", REAL_DIR, ...SCAN, "--out", out], io), 2, `exit 2 for --out ${JSON.stringify(out)}: ${io.stderr}`);
    assert.match(io.stderr, /^rollouts: --out [^\n]*\n$/, `one line naming --out, printed before any scan: ${io.stderr}`);
  }
  const dir = await mkdtemp(join(tmpdir(), "rollouts-out-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const existing = join(dir, "kept.json");
  await writeFile(existing, "earlier report\n");
  const io = captureIo();
  for (const out of [existing, join(dir, "new.json")])
    assert.equal(await runCli(["scan", REAL_DIR, ...SCAN, "--out", out, "--format", "pdf"], io), 2, io.stderr);
  assert.deepEqual(readdirSync(dir), ["kept.json"], "the writability check leaves no new file");
  assert.equal(readFileSync(existing, "utf8"), "earlier report\n", "nor changes one that exists");
});

test("a report whose write fails after the check (a full disk) exits 1 with one line naming --out and the cause", async () => {
  // /dev/full opens for writing, so the up-front check passes, and every write to it fails ENOSPC.
  const io = captureIo();
  assert.equal(await runCli(["scan", REAL_DIR, ...SCAN, "--out", "/dev/full"], io), 1, io.stderr);
  assert.match(io.stderr, /(?:^|\n)rollouts: --out \/dev\/full could not be written \(ENOSPC\)[^\n]*\n$/, io.stderr);
  assert.equal(io.stderr.split("\n").filter((l) => l.startsWith("rollouts:")).length, 1, "one error line, no stack");
  assert.equal(io.stdout, "", "nothing printed in its place");
});

test("a cache that cannot be written is warned about once, and the report is still printed", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-cache-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const store = join(dir, "store");
  await writeCorpus({ dir: store, seed: 3, files: 6, bigLineShare: 0 });
  const once = (stderr: string, where: string) => {
    const warnings = stderr.split("\n").filter((l) => l.includes("cannot be written"));
    assert.equal(warnings.length, 1, `one warning: ${stderr}`);
    assert.ok(warnings[0]?.includes(where), `it names ${where}: ${stderr}`);
  };
  // Usage keeps its entries in `usage` inside --cache-dir; here that is a file.
  await mkdir(join(dir, "cache"));
  await writeFile(join(dir, "cache", "usage"), "");
  const usage = captureIo();
  assert.equal(await runCli(["usage", store, "--cache-dir", join(dir, "cache")], usage), 0, usage.stderr);
  assert.equal(usage.stdout, (await cliText(["usage", store, "--no-cache"])).stdout, "the usage report, as without a cache");
  once(usage.stderr, join(dir, "cache", "usage"));
  // The default cache lives under $XDG_CACHE_HOME; here that is a file.
  const home = process.env["XDG_CACHE_HOME"];
  process.env["XDG_CACHE_HOME"] = join(dir, "cache", "usage");
  t.after(() => (home === undefined ? delete process.env["XDG_CACHE_HOME"] : (process.env["XDG_CACHE_HOME"] = home)));
  const scan = captureIo();
  assert.equal(
    await runCli(["scan", store, "--now", "2026-07-01T00:00:00Z", "--workers", "2", "--report", "lifecycle"], scan),
    0,
    scan.stderr,
  );
  assert.ok(scan.stdout.length > 0, "a report");
  assert.equal(
    scan.stdout,
    (await cliText(["scan", store, ...SCAN, "--report", "lifecycle"])).stdout,
    "the scan report, as without a cache",
  );
  once(scan.stderr, join(dir, "cache", "usage"));
});

test("a rescan of an unchanged store says how many files and bytes it reused, not only how many files", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-cache-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const store = join(dir, "store");
  await writeCorpus({ dir: store, seed: 3, files: 4, bigLineShare: 0 });
  const args = [
    "scan",
    store,
    "--now",
    "2026-07-01T00:00:00Z",
    "--workers",
    "1",
    "--cache-dir",
    join(dir, "cache"),
    "--report",
    "lifecycle",
  ];
  const summary = /^scanned (\d+) files \((\d+) reused from cache, 0 out of scope, 0 unreadable\), (\d+) bytes \((\d+) reused\)\n$/;
  const cold = summary.exec((await cliText(args)).stderr);
  const warm = summary.exec((await cliText(args)).stderr);
  assert.ok(cold !== null && warm !== null, "one summary line each");
  assert.deepEqual(cold.slice(1), ["4", "0", cold[3], "0"], "a cold scan reuses nothing");
  assert.ok(Number(cold[3]) > 0, "it read some bytes");
  assert.deepEqual(warm.slice(1), ["4", "4", cold[3], cold[3]], "a warm scan reuses every file and every byte");
});

test("the scan summary counts one file and one link in the singular, not as '1 files'", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-one-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const store = join(dir, "sessions");
  await writeCorpus({ dir: store, seed: 3, files: 1, bigLineShare: 0 });
  const outside = join(dir, "outside.jsonl");
  await writeFile(outside, "");
  await symlink(outside, join(store, "linked.jsonl"));
  const { stderr } = await cliText(["scan", store, ...SCAN, "--report", "lifecycle"]);
  assert.match(stderr, /^scanned 1 file \(/, stderr);
  assert.match(stderr, /; 1 link outside the root not followed\n$/, stderr);
});
