// Builds each service into ES module bundles that production runs with plain `node` (no
// TypeScript loader): services/<name>/dist/main.js, plus the extra entry points a service names
// below (the rollouts CLI and the scan worker it starts beside itself). Our packages and the
// pure-JS libraries are bundled; native and optional modules stay external and load from
// node_modules at run time.
//
// Usage: node --import tsx scripts/build.ts [service ...]   (no argument: every service)
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { readFile } from "node:fs/promises";
import { build, type Plugin } from "esbuild";

const root = resolve(import.meta.dirname, "..");

// Left to node_modules: native modules (classic-level; msgpackr-extract, an optional speed-up that
// msgpackr under bullmq falls back from), packages that read files installed beside them
// (@grpc/reflection its .proto files, ioredis its own folder for error stacks), and grpc-js, so the
// server and reflection share one copy. Each service declares these as direct dependencies.
const EXTERNAL = ["classic-level", "msgpackr-extract", "@grpc/grpc-js", "@grpc/reflection", "ioredis"];

// CommonJS libraries inside an ES module bundle call require() for Node's own modules.
const BANNER = 'import { createRequire as __createRequire } from "node:module";\nconst require = __createRequire(import.meta.url);';

// Bundles besides dist/main.js, by output name. A worker thread's module must be a bundle of its
// own in the same folder, since the code that starts it finds it beside itself.
const EXTRA_ENTRIES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "rollout-analytics": { "scan-worker": "src/scan/scan-worker.ts", "usage-worker": "src/usage/usage-worker.ts" },
};

// Command-line bundles, written as CommonJS (`<name>.cjs`): their command compiles them through
// V8's code cache (`vm.Script` with `cachedData`), which Node 20 offers for scripts and not for ES
// modules, so a start skips most of the compiling. Each is a function expression of CommonJS's
// module parameters, so the command compiles the file's text as it is read, without wrapping it in
// a copy first. `import.meta` becomes the bundle's own.
const CLI_ENTRIES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "rollout-analytics": { cli: "src/cli/main.ts" },
};
const CLI_BANNER = [
  "(function (exports, require, module, __filename, __dirname) {",
  'const __importMeta = { url: require("node:url").pathToFileURL(__filename).href,',
  '  resolve: (s) => require("node:url").pathToFileURL(require.resolve(s)).href };',
].join("\n");

// commander loads child_process when it is loaded, to start external subcommands, which the
// command has none of; loading it and the network modules it pulls in costs a few milliseconds of
// every start. In the command bundle commander reaches it on first use instead. A commander whose
// source no longer has the line fails the build, so the change is seen rather than lost.
const CHILD_PROCESS = "const childProcess = require('node:child_process');";
const lazyChildProcess: Plugin = {
  name: "lazy-child-process",
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      if (!source.includes(CHILD_PROCESS)) return { errors: [{ text: `${args.path} no longer loads child_process as expected` }] };
      const lazy = "const childProcess = { get spawn() { return require('node:child_process').spawn; } };";
      return { contents: source.replace(CHILD_PROCESS, lazy), loader: "js" };
    });
  },
};

// V8 holds a script with any character beyond ASCII at two bytes per character, and decodes and
// copies it so on every start. esbuild escapes such characters in code but keeps some comments
// whole, so a command bundle has the rest escaped: `\uXXXX` means the same character in a string,
// template or regular expression, and is plain text in a comment.
function asciiScript(file: { path: string; contents: Uint8Array; text: string }): { path: string; contents: Uint8Array } {
  if (!file.path.endsWith(".cjs")) return file;
  const text = file.text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return { path: file.path, contents: Buffer.from(text, "latin1") };
}

// A hash of the sources a service's bundles are made of (the domain library and the service, tests
// and benchmarks left out), given to the code as BUILD_CODE_ID: results it caches on disk are
// reused only by the code that made them.
function codeId(serviceDir: string): string {
  const hash = createHash("sha256");
  for (const dir of [join(root, "libs", "domain", "src"), join(serviceDir, "src")]) {
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith(".bench.ts"))
      .sort();
    for (const file of files)
      hash
        .update(`${relative(root, join(dir, file))}\0`)
        .update(readFileSync(join(dir, file)))
        .update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

const services =
  process.argv.length > 2
    ? process.argv.slice(2)
    : readdirSync(join(root, "services")).filter((n) => existsSync(join(root, "services", n, "src", "main.ts")));

// Each file is replaced by a rename, so a process starting from the bundle meanwhile (a test, a
// running deployment's restart) reads the old or the new file, never a half-written one.
function writeOutputs(files: readonly { path: string; contents: Uint8Array }[]): void {
  for (const file of files) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(`${file.path}.tmp`, file.contents);
    renameSync(`${file.path}.tmp`, file.path);
  }
}

for (const name of services.sort()) {
  const dir = join(root, "services", name);
  const common = {
    outdir: join(dir, "dist"),
    bundle: true,
    platform: "node",
    target: "node20",
    sourcemap: true,
    external: EXTERNAL,
    legalComments: "linked",
    logLevel: "warning",
    metafile: true,
    write: false,
    define: { BUILD_CODE_ID: JSON.stringify(codeId(dir)) },
  } as const;
  const entries = { main: "src/main.ts", ...EXTRA_ENTRIES[name] };
  const modules = await build({
    ...common,
    entryPoints: Object.entries(entries).map(([out, entry]) => ({ in: join(dir, entry), out })),
    format: "esm",
    banner: { js: BANNER },
  });
  const cliEntries = CLI_ENTRIES[name] ?? {};
  const scripts = await build({
    ...common,
    entryPoints: Object.entries(cliEntries).map(([out, entry]) => ({ in: join(dir, entry), out })),
    format: "cjs",
    outExtension: { ".js": ".cjs" },
    define: { ...common.define, "import.meta": "__importMeta" },
    plugins: [lazyChildProcess],
    banner: { js: CLI_BANNER },
    footer: { js: "})" },
  });
  writeOutputs([...modules.outputFiles, ...scripts.outputFiles.map(asciiScript)]);
  const outputs = { ...modules.metafile.outputs, ...scripts.metafile.outputs };
  const named = [...Object.keys(entries).map((out) => `${out}.js`), ...Object.keys(cliEntries).map((out) => `${out}.cjs`)];
  for (const file of named) {
    const bytes = Object.entries(outputs)
      // Output paths are relative to the working directory, which may be the service's own.
      .filter(([path]) => `/${path}`.endsWith(`/dist/${file}`) || `/${path}`.endsWith(`/dist/${file}.map`))
      .reduce((sum, [, output]) => sum + output.bytes, 0);
    console.log(`build: services/${name}/dist/${file} (${(bytes / 1024 / 1024).toFixed(1)} MiB with its source map)`);
  }
}
