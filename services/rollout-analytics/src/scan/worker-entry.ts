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
