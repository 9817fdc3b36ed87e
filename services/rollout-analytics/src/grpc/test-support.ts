// Test support only: starts rollout-analytics in-process and builds upload streams.
import { credentials } from "@grpc/grpc-js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { createClient, startService, type RunningService, type TypedClient } from "@crs/runtime";
import { RolloutService, type AnalyzeRolloutRequestSchema, type RolloutUploadSchema } from "@crs/contracts/gen/crs/analytics/v1/rollout_pb";
import { rolloutAnalytics } from "../service.js";

/** A typed RolloutService client. */
export type RolloutClient = TypedClient<typeof RolloutService.method>;
type Request = MessageInitShape<typeof AnalyzeRolloutRequestSchema>;
type Upload = MessageInitShape<typeof RolloutUploadSchema>;

/** The analysis clock of every test upload. */
export const NOW_MS = 1_780_000_000_000n;

/** Starts the service on free loopback ports (Redis is not needed here), runs `fn`, and stops it. */
export async function withService<T>(
  env: Record<string, string>,
  fn: (client: RolloutClient, running: RunningService) => Promise<T>,
): Promise<T> {
  const running = await startService(rolloutAnalytics, {
    GRPC_ADDRESS: "127.0.0.1:0",
    METRICS_ADDRESS: "127.0.0.1:0",
    LOG_LEVEL: "silent",
    REDIS_URL: "redis://127.0.0.1:1",
    ...env,
  });
  const client = createClient(RolloutService, `127.0.0.1:${running.port}`, { credentials: credentials.createInsecure() });
  try {
    return await fn(client, running);
  } finally {
    client.close();
    await running.stop();
  }
}

/** An upload stream: the metadata, then `content` in chunks of `chunkBytes`. */
export function uploadStream(content: Uint8Array, chunkBytes: number, upload: Upload = {}): Request[] {
  const out: Request[] = [{ part: { case: "upload", value: { projectId: "demo", nowUnixMs: NOW_MS, ...upload } } }];
  for (let i = 0; i < content.length; i += chunkBytes) out.push({ part: { case: "chunk", value: content.subarray(i, i + chunkBytes) } });
  return out;
}

export { rejection, ROLLOUTS_DIR, SKIP_REAL } from "@crs/runtime/testing";
