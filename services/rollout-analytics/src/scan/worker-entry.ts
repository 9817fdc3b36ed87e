import { createRequire } from "node:module";
import type { Worker } from "node:worker_threads";

const load = createRequire(import.meta.url);

/**
 * The entry of worker `name` (`scan-worker`, `usage-worker`) for a pool in the module at
 * `poolUrl`. Compiled (a bundle), the worker is `<name>.js` beside that module. From the
 * TypeScript sources, a thread does not inherit tsx's loader hooks, so a one-line module
 * registers them in the new thread before importing the worker's source.
 */
export function workerEntry(poolUrl: string, name: string): URL {
  if (!poolUrl.endsWith(".ts")) return new URL(`./${name}.js`, poolUrl);
  const source = new URL(`./${name}.ts`, poolUrl).href;
  const api = JSON.stringify(import.meta.resolve("tsx/esm/api"));
  const bootstrap = `import { register } from ${api}; register(); await import(${JSON.stringify(source)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}

/**
 * Node's worker class, loaded when a pool first starts a thread: a read on this thread alone (most
 * `rollouts` runs) never loads the module, a few milliseconds of every start.
 */
export function workerClass(): typeof Worker {
  return (load("node:worker_threads") as typeof import("node:worker_threads")).Worker;
}
