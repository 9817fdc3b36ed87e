import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import {
  accessSync,
  constants,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { repoRoot } from "@crs/runtime/testing";

// What setup.sh, npm and pnpm's install scripts call; pnpm itself is left out on purpose.
const TOOLS = ["sh", "dirname", "env", "cat", "mkdir", "rm", "ls", "chmod", "cp", "mv", "ln", "uname", "grep", "sed"];

// A PATH with node, npm and the shell tools, but no pnpm, as on a machine with only Node.js and npm.
function pathWithoutPnpm(binDir: string): string {
  mkdirSync(binDir);
  const npmCli = join(dirname(process.execPath), "..", "lib", "node_modules", "npm", "bin", "npm-cli.js");
  symlinkSync(process.execPath, join(binDir, "node"));
  symlinkSync(npmCli, join(binDir, "npm"));
  for (const tool of TOOLS) {
    const found = execFileSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim();
    symlinkSync(found, join(binDir, tool));
  }
  return binDir;
}

// The workspace's manifests and lockfile, enough for `pnpm install --frozen-lockfile`.
function copyWorkspaceManifests(root: string, into: string): void {
  for (const file of ["package.json", "pnpm-lock.yaml", "pnpm-workspace.yaml", ".npmrc", "scripts/setup.sh"]) {
    cpSync(join(root, file), join(into, file));
  }
  for (const group of ["libs", "services"]) {
    for (const name of readdirSync(join(root, group))) {
      if (existsSync(join(root, group, name, "package.json")))
        cpSync(join(root, group, name, "package.json"), join(into, group, name, "package.json"));
    }
  }
  cpSync(join(root, "test", "package.json"), join(into, "test", "package.json"));
}

const npmCliPresent = existsSync(join(dirname(process.execPath), "..", "lib", "node_modules", "npm", "bin", "npm-cli.js"));

test("setup on a Node whose global folder npm cannot write installs pnpm inside the workspace, instead of stopping the quickstart", {
  skip: !npmCliPresent && "npm is not installed beside node",
}, () => {
  const work = mkdtempSync(join(tmpdir(), "setup-pnpm-"));
  try {
    const repo = join(work, "repo");
    copyWorkspaceManifests(repoRoot(), repo);
    // A global folder npm cannot install into, even as root: its lib/ is a plain file.
    const prefix = join(work, "global");
    mkdirSync(prefix);
    writeFileSync(join(prefix, "lib"), "");
    const path = pathWithoutPnpm(join(work, "bin"));
    const env = { HOME: process.env["HOME"] ?? work, PATH: path, npm_config_prefix: prefix };
    const setup = spawnSync("sh", ["scripts/setup.sh"], { cwd: repo, env, encoding: "utf8", timeout: 600_000 });
    assert.equal(setup.status, 0, `setup exits 0: ${setup.stderr}`);
    const shim = join(repo, "node_modules", ".bin", "pnpm");
    accessSync(shim, constants.X_OK);
    // npm and pnpm put node_modules/.bin first on the PATH of every script they run.
    const version = execFileSync("sh", ["-c", "pnpm --version"], {
      cwd: repo,
      env: { ...env, PATH: [join(repo, "node_modules", ".bin"), path].join(delimiter) },
      encoding: "utf8",
    }).trim();
    const want = (JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { packageManager: string }).packageManager.split("@")[1];
    assert.equal(version, want, "the scripts find the pinned pnpm");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
