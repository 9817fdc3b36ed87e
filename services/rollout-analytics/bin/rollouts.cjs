#!/usr/bin/env node
// The `rollouts` command. It runs the bundle `pnpm build` writes (dist/cli.cjs, with its worker
// bundles beside it), so neither the command nor its worker threads load a TypeScript compiler.
// A checkout that was never built runs the TypeScript sources through tsx instead.
//
// The bundle is compiled through V8's code cache: the code a run compiled is kept in the user
// cache directory (`$XDG_CACHE_HOME` or `~/.cache`, `crs-rollout-analytics/code/`), one file per
// command, under the bundle file's identity and node's version, and later starts reuse it
// instead of compiling again. The identity is the file's inode, size, modification time and
// change time: a build or an unpacking writes the file anew, and no tool sets the change time (an
// unpacking that keeps modification times, or a build that fixes them, cannot make two bundles
// look alike). Hashing the bundle instead would load the crypto module on every start. V8 checks
// its data only for its own version and flags, not against the source, so the key must change
// with the bundle. A cache that cannot be read or written only costs the compile time.
//
// This file is CommonJS: node starts a CommonJS entry without its ES module loader, several
// milliseconds sooner.
const { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const { homedir } = require("node:os");
const { dirname, join } = require("node:path");
const { setFlagsFromString } = require("node:v8");
const { constants, Script } = require("node:vm");

// A run of this command is short: most of its hot code runs before the optimizing compiler has
// finished with it, and that compiler shares the cores with the run. A smaller inlining budget
// halves its compile time, so the hot functions are optimized sooner; their optimized code is
// about as fast (measured on `usage` and `scan`, cold and over 1 GB). Set before any bundle code
// is compiled, so the code cache below is made and checked under the same flags.
setFlagsFromString("--max-inlined-bytecode-size-cumulative=150");

const NEWLINE = 0x0a;

// The commands that keep a cache of their own; anything else (help, a mistyped name) shares one,
// so stray words on the command line cannot fill the cache directory.
const COMMANDS = new Set(["scan", "usage", "rollout", "retention", "generate"]);

// One cache per command, written by its first run: each holds the code that command compiled.
function cacheFile() {
  const base = process.env.XDG_CACHE_HOME?.trim() || join(homedir(), ".cache");
  const command = process.argv[2] ?? "";
  return join(base, "crs-rollout-analytics", "code", `cli-${COMMANDS.has(command) ? command : "other"}.bin`);
}

// The cached code when it was made from this very bundle by this node: the file is its key line
// (the bundle file's identity, node version, architecture), then V8's data.
function cachedCode(file, key) {
  try {
    const data = readFileSync(file);
    const nl = data.indexOf(NEWLINE);
    return nl > 0 && data.subarray(0, nl).toString("latin1") === key ? data.subarray(nl + 1) : undefined;
  } catch {
    return undefined;
  }
}

function keepCode(file, key, script) {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temp, Buffer.concat([Buffer.from(`${key}\n`, "latin1"), script.createCachedData()]));
    renameSync(temp, file);
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // Nothing was kept: the next start compiles again.
    }
  }
}

function runBundle(bundle, info) {
  // ASCII (see scripts/build.ts), so V8 holds the text at one byte per character.
  const source = readFileSync(bundle, "utf8");
  const key = `${info.ino} ${info.size} ${info.mtimeMs} ${info.ctimeMs} ${process.version} ${process.arch}`;
  const file = cacheFile();
  const cachedData = cachedCode(file, key);
  // The bundle is one function expression (see scripts/build.ts): compiled as read, not copied into a wrapper.
  const script = new Script(source, {
    filename: bundle,
    cachedData,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  // Kept once the run is over, so the code compiled on the way is in it.
  if (cachedData === undefined || script.cachedDataRejected) process.once("beforeExit", () => keepCode(file, key, script));
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
}

const bundle = join(__dirname, "..", "dist", "cli.cjs");
const info = statSync(bundle, { throwIfNoEntry: false });
if (info !== undefined) runBundle(bundle, info);
else {
  import("tsx/esm/api")
    .then(({ register }) => {
      register();
      return import("../src/cli/main.ts");
    })
    .catch((e) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    });
}
