// Each gate that `npm test` runs is shown failing on a small fixture that breaks its rules, with the
// repository's own configuration, so a rule that silently stops applying fails here.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "@crs/runtime/testing";
import { writeTree } from "../support/fixtures.js";
import { run } from "../support/tools.js";

const bin = (tool: string) => join(repoRoot(), "node_modules", ".bin", tool);
// Some tools take tens of seconds on a busy machine; the bound only stops a hung one.
const SLOW = { timeoutMs: 240_000 };

/** A fixture holding `files` plus copies of the named repository configuration files. */
function fixture(files: Record<string, string>, configs: readonly string[] = []): string {
  const dir = writeTree(files, "crs-gate-");
  for (const config of configs) copyFileSync(join(repoRoot(), config), join(dir, config));
  return dir;
}

describe("the gates fail on code that breaks their rules", { concurrency: true }, () => {
  test("Biome rejects export *, an unused import and a floating promise", async () => {
    const dir = fixture(
      {
        "libs/x/src/a.ts": 'import { readFileSync } from "node:fs";\nexport * from "./b.js";\nasync function f(): Promise<void> {}\nf();\n',
        "libs/x/src/b.ts": "export const b = 1;\n",
      },
      ["biome.json"],
    );
    try {
      const lint = await run(bin("biome"), ["lint", "--error-on-warnings", "--vcs-enabled=false", "."], { cwd: dir, ...SLOW });
      const out = lint.stdout + lint.stderr;
      assert.notEqual(lint.code, 0, `biome lint passed the fixture: ${out}`);
      for (const rule of ["noReExportAll", "noUnusedImports", "noFloatingPromises"])
        assert.match(out, new RegExp(rule), `biome reports ${rule}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("dependency-cruiser rejects an impure domain, deep and cross-layer imports, and cycles", async () => {
    const dir = fixture(
      {
        "tsconfig.json": '{ "compilerOptions": { "module": "NodeNext", "moduleResolution": "NodeNext", "allowJs": false } }\n',
        "libs/domain/src/single-quoted-fs.ts": "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
        "libs/domain/src/dynamic-net.ts": 'export const net = () => import("node:net");\n',
        "libs/domain/src/uses-runtime.ts": 'import { x } from "../../runtime/src/index.js";\nexport const y = x;\n',
        "libs/runtime/src/index.ts": "export const x = 1;\n",
        "libs/runtime/src/inner.ts": "export const inner = 1;\n",
        "libs/runtime/src/uses-domain.ts": 'import { read } from "../../domain/src/single-quoted-fs.js";\nexport const z = read;\n',
        "libs/contracts/src/index.ts": 'import { x } from "../../runtime/src/index.js";\nexport const c = x;\n',
        "services/a/src/deep.ts": 'import { inner } from "../../../libs/runtime/src/inner.js";\nexport const d = inner;\n',
        "services/a/src/other-service.ts": 'import { b } from "../../b/src/index.js";\nexport const o = b;\n',
        "services/a/src/cycle-one.ts": 'import { two } from "./cycle-two.js";\nexport const one = () => two;\n',
        "services/a/src/cycle-two.ts": 'import { one } from "./cycle-one.js";\nexport const two = () => one;\n',
        "services/b/src/index.ts": "export const b = 1;\n",
      },
      [".dependency-cruiser.cjs"],
    );
    try {
      const cruise = await run(bin("depcruise"), ["--config", ".dependency-cruiser.cjs", "libs", "services"], { cwd: dir, ...SLOW });
      const out = cruise.stdout + cruise.stderr;
      assert.notEqual(cruise.code, 0, `depcruise passed the fixture: ${out}`);
      const expected: [string, string][] = [
        ["domain-is-pure", "libs/domain/src/single-quoted-fs.ts"],
        ["domain-is-pure", "libs/domain/src/dynamic-net.ts"],
        ["domain-is-pure", "libs/domain/src/uses-runtime.ts"],
        ["runtime-uses-contracts-only", "libs/runtime/src/uses-domain.ts"],
        ["contracts-stand-alone", "libs/contracts/src/index.ts"],
        ["no-deep-import", "services/a/src/deep.ts"],
        ["services-use-libs-only", "services/a/src/other-service.ts"],
        ["no-circular", "services/a/src/cycle-"],
      ];
      for (const [rule, from] of expected) assert.ok(out.includes(`${rule}: ${from}`), `depcruise reports ${rule} for ${from}: ${out}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("check-style rejects built-in errors thrown in the domain, a plain Error elsewhere, long files and unmarked generated code", async () => {
    const dir = fixture({
      "libs/domain/src/range.ts":
        'export function f(n: number): number {\n  if (n < 0) throw new RangeError("negative");\n  return n;\n}\n',
      "services/a/src/plain.ts": 'export function g(): never {\n  throw   new Error ("plain");\n}\n',
      "services/a/src/long.ts": "export const line = 1;\n".repeat(401),
      "libs/contracts/src/gen/x_pb.ts": "export const x = 1;\n",
    });
    try {
      const style = await run("sh", [join(repoRoot(), "scripts", "check-style.sh"), dir], SLOW);
      assert.equal(style.code, 1, `check-style passed the fixture: ${style.stdout}${style.stderr}`);
      for (const part of [
        "libs/domain throws a built-in error class",
        "libs/domain/src/range.ts",
        "throw new Error( outside errors.ts",
        "services/a/src/plain.ts",
        "services/a/src/long.ts has 401 lines",
        "x_pb.ts lacks the @generated header",
      ]) {
        assert.ok(style.stderr.includes(part), `check-style names ${part}: ${style.stderr}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("knip rejects an unused file, an unused export and an unused dependency", async () => {
    const dir = fixture(
      {
        "package.json": '{ "name": "fixture", "private": true, "type": "module" }\n',
        "pnpm-workspace.yaml": 'packages:\n  - "libs/*"\n',
        "libs/x/package.json":
          '{ "name": "@fixture/x", "type": "module", "exports": { ".": "./src/index.ts" }, "dependencies": { "left-pad": "1.3.0" } }\n',
        "libs/x/src/index.ts": 'export { used } from "./used.js";\n',
        "libs/x/src/used.ts": "export const used = 1;\nexport const neverImported = 2;\n",
        "libs/x/src/orphan.ts": "export const orphan = 3;\n",
      },
      ["knip.json"],
    );
    try {
      const knip = await run(bin("knip"), ["--no-progress"], { cwd: dir, ...SLOW });
      const out = knip.stdout + knip.stderr;
      assert.notEqual(knip.code, 0, `knip passed the fixture: ${out}`);
      for (const part of ["libs/x/src/orphan.ts", "neverImported", "left-pad"])
        assert.ok(out.includes(part), `knip reports ${part}: ${out}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // One field of each released package: both are held to the baseline.
  for (const [pkg, file, field, from, to] of [
    ["crs.state.v1", "state/v1/maintenance.proto", "uptime_ms", "int64 uptime_ms = 4;", "string uptime_ms = 4;"],
    ["crs.analytics.v1", "analytics/v1/retention.proto", "mod_time_unix_ms", "int64 mod_time_unix_ms = 3;", "string mod_time_unix_ms = 3;"],
  ] as const) {
    test(`buf breaking rejects a released ${pkg} field whose type changed`, async () => {
      const dir = fixture({}, ["buf.yaml"]);
      try {
        cpSync(join(repoRoot(), "proto"), join(dir, "proto"), { recursive: true });
        const path = join(dir, "proto", "crs", ...file.split("/"));
        const proto = readFileSync(path, "utf8");
        assert.ok(proto.includes(from), "the fixture changes a field that exists");
        writeFileSync(path, proto.replace(from, to));
        const breaking = await run("sh", [join(repoRoot(), "scripts", "check-breaking.sh"), dir], SLOW);
        const out = breaking.stdout + breaking.stderr;
        assert.equal(breaking.code, 1, `check-breaking passed the fixture: ${out}`);
        assert.ok(out.includes(field), `buf names the changed field: ${out}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  test("manifest validation rejects an object that does not match its Kubernetes schema", async () => {
    const dir = fixture({
      "kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deployment.yaml\n",
      "deployment.yaml": [
        "apiVersion: apps/v1",
        "kind: Deployment",
        "metadata: { name: broken }",
        "spec:",
        '  replicas: "two"',
        "  selector: { matchLabels: { app: broken } }",
        "  template:",
        "    metadata: { labels: { app: broken } }",
        "    spec:",
        "      containers:",
        "        - { name: app, image: app, ports: [{ containerPort: grpc }] }",
        "",
      ].join("\n"),
    });
    try {
      const validate = await run(process.execPath, ["--import", "tsx", "scripts/validate-manifests.ts", dir], {
        env: { ...process.env, CI: "true" },
        ...SLOW,
      });
      assert.equal(validate.code, 1, `validate-manifests passed the fixture: ${validate.stdout}${validate.stderr}`);
      assert.match(
        validate.stderr,
        /Deployment\/broken: .*spec\/replicas must be integer/,
        `names the object and field: ${validate.stderr}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
