// Import boundaries of the workspace (ARCHITECTURE.md): services -> runtime, domain, contracts;
// runtime -> contracts; the domain depends on nothing of ours and does no I/O. Rules match resolved
// paths, so relative, package-name, dynamic and require() imports are all held to them.

const { existsSync, readdirSync, readFileSync } = require("node:fs");

// Tests, benchmarks and test support may use Node and fixtures freely.
const TEST_CODE = "(\\.test\\.ts|\\.bench\\.ts|/test-support\\.ts)$|/testing/";

// Public entry points of each package: the files its package.json `exports` map names (a `*` in a
// subpath stands for any file below that folder).
const ENTRY_POINTS = ["libs", "services"]
  .flatMap((group) => (existsSync(group) ? readdirSync(group) : []).map((name) => `${group}/${name}`))
  .filter((dir) => existsSync(`${dir}/package.json`))
  .flatMap((dir) =>
    Object.values(JSON.parse(readFileSync(`${dir}/package.json`, "utf8")).exports ?? {}).map((target) => `${dir}/${target}`),
  )
  .map(
    (path) =>
      `^${path
        .replace(/^(.*?)\/\.\//, "$1/")
        .split("*")[0]
        .replace(/[.]/g, "[.]")}${path.includes("*") ? "" : "$"}`,
  );

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment:
        "A cycle makes load order matter and hides which module owns a concept (type-only imports vanish at run time and are allowed).",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "domain-is-pure",
      comment: "libs/domain is pure logic: no Node modules, no I/O or transport libraries, none of our other packages.",
      severity: "error",
      from: { path: "^libs/domain/src/", pathNot: TEST_CODE },
      to: { pathNot: "^libs/domain/src/|^node_modules/immutable/|^node_modules/[.]pnpm/immutable@" },
    },
    {
      name: "no-deep-import",
      comment: "Packages are used through their declared entry points, never by reaching into another package's src/.",
      severity: "error",
      from: { path: "^(libs/[^/]+|services/[^/]+|test)/" },
      to: { path: "^(libs|services)/[^/]+/src/|^@crs/[^/]+/src/", pathNot: ["^$1/", ...ENTRY_POINTS].join("|") },
    },
    {
      name: "services-use-libs-only",
      comment: "A service depends on runtime, domain and contracts, never on another service or on the cross-service tests.",
      severity: "error",
      from: { path: "^services/([^/]+)/" },
      to: { path: "^(services|test)/", pathNot: "^services/$1/" },
    },
    {
      name: "runtime-uses-contracts-only",
      comment: "The runtime serves any service: it knows the contracts, not the domain or the services.",
      severity: "error",
      from: { path: "^libs/runtime/" },
      to: { path: "^(libs/domain|services|test)/" },
    },
    {
      name: "contracts-stand-alone",
      comment: "The contracts are generated code plus descriptor helpers and depend on nothing of ours.",
      severity: "error",
      from: { path: "^libs/contracts/" },
      to: { path: "^(libs/(domain|runtime)|services|test)/" },
    },
    {
      name: "no-unresolvable",
      comment: "An import that does not resolve fails at run time; the rules above cannot judge it either.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)node_modules/|(^|/)dist/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".js", ".mjs", ".cjs", ".json", ".d.ts"],
    },
    skipAnalysisNotInRules: true,
  },
};
