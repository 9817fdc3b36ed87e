#!/usr/bin/env node
// The `rollouts` command. It runs the bundle `pnpm build` writes (dist/cli.js, with the scan
// worker beside it), so neither the command nor its worker threads load a TypeScript compiler.
// A checkout that was never built runs the TypeScript sources through tsx instead.
import { existsSync } from "node:fs";

const bundle = new URL("../dist/cli.js", import.meta.url);
if (existsSync(bundle)) await import(bundle.href);
else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli/main.ts");
}
