import { before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { HealthCheckResponse_ServingStatus as Serving } from "@crs/contracts/gen/grpc/health/v1/health_pb";
import { repoRoot } from "@crs/runtime/testing";
import { healthClient } from "../support/clients.js";
import { startServiceProcess, type ServiceName } from "../support/service-process.js";
import { run } from "../support/tools.js";

// Production runs the esbuild bundles with plain node, so they are built and started as shipped.
before(async () => {
  const built = await run(process.execPath, ["--import", "tsx", "scripts/build.ts"]);
  assert.equal(built.code, 0, `pnpm build: ${built.stderr}`);
});

for (const name of ["crs-state", "rollout-analytics"] as const satisfies readonly ServiceName[]) {
  test(`${name}: the built bundle serves health over gRPC without tsx and exits 0 on SIGTERM`, async () => {
    const bundle = join(repoRoot(), "services", name, "dist", "main.js");
    assert.ok(existsSync(bundle), `${bundle} was built`);
    const service = await startServiceProcess(name, { REDIS_URL: "redis://127.0.0.1:1" }, "built");
    const health = healthClient(service.port);
    try {
      assert.equal(String(service.child.spawnargs.slice(1)), `services/${name}/dist/main.js`, "started from the bundle alone");
      assert.equal((await health.check({ service: "" })).status, Serving.SERVING, "the built server answers health SERVING");
    } finally {
      health.close();
      assert.equal(await service.stop("SIGTERM"), 0, "exits 0 on SIGTERM");
    }
  });
}
