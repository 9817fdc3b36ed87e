import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "@crs/runtime/testing";

/** Runs a command and returns its exit code and output, never rejecting on a non-zero exit. */
export async function run(
  file: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, {
      cwd: options.cwd ?? repoRoot(),
      env: options.env ?? process.env,
      timeout: options.timeoutMs ?? 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === "number" ? failed.code : -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/** The buf CLI installed in the workspace. */
export const bufBin = join(repoRoot(), "node_modules", ".bin", "buf");

/** Why the Python toolchain is unusable here, or undefined when it is ready. */
export async function pythonToolchainMissing(): Promise<string | undefined> {
  for (const file of ["/usr/bin/python3", "/usr/bin/protoc", "/usr/bin/grpc_python_plugin"]) {
    if (!existsSync(file)) return `${file} is missing (apt-get install python3-grpcio protobuf-compiler-grpc)`;
  }
  const probe = await run("/usr/bin/python3", ["-c", "import grpc, google.protobuf"]);
  return probe.code === 0 ? undefined : "python3-grpcio is not installed (apt-get install python3-grpcio)";
}
