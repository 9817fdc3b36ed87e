import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { repoRoot } from "@crs/runtime/testing";

/** A service running as a child process. */
export interface ServiceProcess {
  readonly child: ChildProcess;
  /** The bound gRPC port. */
  readonly port: number;
  /** The bound /metrics port. */
  readonly metricsPort: number;
  /** Every JSON log line the process printed so far. */
  readonly logs: Record<string, unknown>[];
  /** Sends `signal` and resolves with the exit code once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

// How long a start may take before the process is killed: generous, because compiling a service
// through tsx on a machine busy with other test processes can take tens of seconds.
const START_LIMIT_MS = 120_000;

/** Which service to run. */
export type ServiceName = "crs-state" | "rollout-analytics";

/** How to run a service: its TypeScript through tsx, or the bundle `pnpm build` wrote to dist/. */
export type ServiceForm = "source" | "built";

// The node arguments that start `name` in `form`.
const nodeArgs = (name: ServiceName, form: ServiceForm): string[] =>
  form === "built" ? [`services/${name}/dist/main.js`] : ["--import", "tsx", `services/${name}/src/main.ts`];

/** Starts `services/<name>` on free loopback ports and waits until it serves. */
export function startServiceProcess(name: ServiceName, env: NodeJS.ProcessEnv = {}, form: ServiceForm = "source"): Promise<ServiceProcess> {
  return startServerProcess(nodeArgs(name, form), name, env);
}

/**
 * Runs `node <args>` from the repository root on free loopback ports (GRPC_ADDRESS and
 * METRICS_ADDRESS) and waits for its JSON log line `<name> serving`, which names the ports it bound.
 */
export async function startServerProcess(args: readonly string[], name: string, env: NodeJS.ProcessEnv = {}): Promise<ServiceProcess> {
  const child = spawn(process.execPath, args, {
    cwd: repoRoot(),
    env: { ...process.env, GRPC_ADDRESS: "127.0.0.1:0", METRICS_ADDRESS: "127.0.0.1:0", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: Record<string, unknown>[] = [];
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const serving = new Promise<Record<string, unknown>>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (typeof entry["msg"] === "string" && entry["msg"].endsWith(" serving")) resolve(entry);
      } catch {
        logs.push({ raw: line });
      }
    });
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code} before serving: ${stderr}`)));
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), START_LIMIT_MS);
  const ready = await serving.finally(() => clearTimeout(timer));
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return {
    child,
    port: Number(String(ready["grpc"]).split(":").pop()),
    metricsPort: Number(ready["metrics"]),
    logs,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs a service expecting it to fail at start-up; resolves with its exit code and stderr. */
export async function failedStart(name: ServiceName, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, nodeArgs(name, "source"), {
    cwd: repoRoot(),
    env: { ...process.env, GRPC_ADDRESS: "127.0.0.1:0", METRICS_ADDRESS: "127.0.0.1:0", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), START_LIMIT_MS);
  const [code] = (await once(child, "exit")) as [number | null];
  clearTimeout(timer);
  return { code, stderr };
}
