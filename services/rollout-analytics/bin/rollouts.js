#!/usr/bin/env node
// The `rollouts` command: runs the TypeScript sources through tsx, as the services do.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
