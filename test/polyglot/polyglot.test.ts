import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "@crs/runtime/testing";
import { startServiceProcess, type ServiceProcess } from "../support/service-process.js";
import { bufBin, pythonToolchainMissing, run } from "../support/tools.js";
import { crsAnalyticsFiles, crsStateFiles } from "@crs/contracts";

let state: ServiceProcess;
let analytics: ServiceProcess;

before(async () => {
  [state, analytics] = await Promise.all([startServiceProcess("crs-state"), startServiceProcess("rollout-analytics")]);
});

after(async () => {
  await Promise.all([state?.stop(), analytics?.stop()]);
});

const curl = (port: number, path: string, body: string) =>
  run(bufBin, ["curl", "--protocol", "grpc", "--http2-prior-knowledge", "-d", body, `http://127.0.0.1:${port}${path}`]);
const listServices = (port: number) =>
  run(bufBin, ["curl", "--protocol", "grpc", "--http2-prior-knowledge", "--list-services", `http://127.0.0.1:${port}`]);

test("buf curl lists every service through reflection and calls health and one method of each service", async () => {
  const stateServices = await listServices(state.port);
  assert.equal(stateServices.code, 0, `list crs-state services: ${stateServices.stderr}`);
  for (const name of [
    "StateService",
    "WatchService",
    "StepService",
    "ProofService",
    "ClauseService",
    "SimilarityService",
    "QueryService",
    "IndexService",
    "HistoryService",
    "CycleService",
    "PersistenceService",
    "MaintenanceService",
  ]) {
    assert.ok(stateServices.stdout.includes(`crs.state.v1.${name}`), `crs-state lists ${name}`);
  }
  assert.ok(stateServices.stdout.includes("grpc.health.v1.Health"), "crs-state lists health");
  const analyticsServices = await listServices(analytics.port);
  assert.deepEqual(
    analyticsServices.stdout.trim().split("\n").sort(),
    ["crs.analytics.v1.RetentionService", "crs.analytics.v1.RolloutService", "crs.analytics.v1.ScanService", "grpc.health.v1.Health"],
    "rollout-analytics lists its services",
  );

  for (const port of [state.port, analytics.port]) {
    const health = await curl(port, "/grpc.health.v1.Health/Check", "{}");
    assert.deepEqual(JSON.parse(health.stdout), { status: "SERVING" }, "health through buf curl");
  }
  const status = await curl(state.port, "/crs.state.v1.MaintenanceService/GetStatus", "{}");
  assert.equal(JSON.parse(status.stdout).apiVersion, "crs.state.v1", "crs-state GetStatus through reflection");
  const plan = await curl(
    analytics.port,
    "/crs.analytics.v1.RetentionService/PlanRetention",
    JSON.stringify({
      project_id: "curl",
      now_unix_ms: "1780000000000",
      policy: { active_within_ms: "1000", warm_within_ms: "2000" },
      sessions: [{ id: "s1", bytes: "5", mod_time_unix_ms: "1" }],
    }),
  );
  assert.equal(plan.code, 0, `PlanRetention through buf curl: ${plan.stderr}`);
  const decision = JSON.parse(plan.stdout).manifest.decisions[0];
  assert.deepEqual(
    [decision.id, decision.class, decision.expire],
    ["s1", "RETENTION_CLASS_EXPIRED", true],
    "an old unprotected session expires",
  );
  const failed = await curl(analytics.port, "/crs.analytics.v1.RetentionService/PlanRetention", JSON.stringify({ project_id: "curl" }));
  assert.equal(failed.code, 3 * 8, "buf curl exits with 8 times the gRPC code (INVALID_ARGUMENT = 3)");
  assert.equal(JSON.parse(failed.stderr).code, "invalid_argument", "INVALID_ARGUMENT for a missing clock");
});

test("a Python client generated from proto/ calls both services and reads the ErrorInfo reason as a value of its ErrorReason enum", async (t) => {
  const missing = await pythonToolchainMissing();
  if (missing !== undefined) {
    // CI installs the toolchain (.ci/run), so there a missing one is a failure, not a skip.
    if (process.env["CI"] === "true") assert.fail(missing);
    t.skip(missing);
    return;
  }
  const work = mkdtempSync(join(tmpdir(), "crs-py-"));
  try {
    const descriptors = join(work, "descriptors.binpb");
    const built = await run(bufBin, ["build", "-o", descriptors]);
    assert.equal(built.code, 0, `buf build: ${built.stderr}`);
    const generated = join(work, "gen");
    const protos = (dir: string) =>
      readdirSync(join(repoRoot(), "proto", dir))
        .filter((f) => f.endsWith(".proto"))
        .map((f) => `${dir}/${f}`);
    mkdirSync(generated);
    const protoc = await run("/usr/bin/protoc", [
      `--descriptor_set_in=${descriptors}`,
      `--python_out=${generated}`,
      `--grpc_python_out=${generated}`,
      "--plugin=protoc-gen-grpc_python=/usr/bin/grpc_python_plugin",
      ...protos("crs/state/v1"),
      ...protos("crs/analytics/v1"),
      "google/rpc/status.proto",
      "google/rpc/error_details.proto",
    ]);
    assert.equal(protoc.code, 0, `protoc: ${protoc.stderr}`);
    const client = await run("/usr/bin/python3", [
      "test/polyglot/python_client.py",
      generated,
      `127.0.0.1:${state.port}`,
      `127.0.0.1:${analytics.port}`,
    ]);
    assert.equal(client.code, 0, `python client: ${client.stderr}`);
    const seen = JSON.parse(client.stdout);
    assert.equal(seen.crs_state_health, "SERVING", "crs-state health from Python");
    assert.equal(seen.rollout_analytics_health, "SERVING", "rollout-analytics health from Python");
    assert.equal(seen.crs_state_api_version, "crs.state.v1", "GetStatus from Python");
    assert.deepEqual(
      seen.crs_state_apply,
      {
        uid_assigned: true,
        first: { generation: 1, replayed: false },
        retry: { generation: 1, replayed: true },
        read: { generation: 1, proof: 7, mod_generation: 1 },
      },
      "a Python client creates a project, retries an apply by request id (replayed, same generation) and reads it back",
    );
    assert.deepEqual(
      seen.retention,
      { fresh: "RETENTION_CLASS_ACTIVE", old: "RETENTION_CLASS_EXPIRED", pinned: "RETENTION_CLASS_WARM_EVIDENCE" },
      "PlanRetention from Python",
    );
    assert.equal(seen.retention_reclaimed_bytes, 20, "only the unprotected old session is reclaimed");
    assert.deepEqual(
      seen.crs_state_error,
      {
        code: "INVALID_ARGUMENT",
        reason: "INVALID_ARGUMENT",
        reason_value: "ERROR_REASON_INVALID_ARGUMENT",
        domain: "crs.state.v1",
        metadata: { field: "project_id" },
      },
      "ErrorInfo read in Python as a crs.state.v1.ErrorReason value",
    );
    assert.deepEqual(
      seen.rollout_analytics_error,
      {
        code: "INVALID_ARGUMENT",
        reason: "CLOCK_REQUIRED",
        reason_value: "ERROR_REASON_CLOCK_REQUIRED",
        domain: "crs.analytics.v1",
        metadata: { field: "now_unix_ms" },
      },
      "CLOCK_REQUIRED read in Python as a crs.analytics.v1.ErrorReason value",
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test("buf curl lists, through reflection, exactly the methods the contracts declare, and reaches them", async () => {
  const served = [
    { port: state.port, files: crsStateFiles, call: "crs.state.v1.MaintenanceService/GetProjectStatus" },
    { port: analytics.port, files: crsAnalyticsFiles, call: "crs.analytics.v1.RetentionService/BoundQuarantine" },
  ];
  await Promise.all(
    served.map(async ({ port, files, call }) => {
      const declared = new Set(
        files.flatMap((file) => file.services.flatMap((service) => service.methods.map((m) => `${service.typeName}/${m.name}`))),
      );
      const [listed, answer] = await Promise.all([
        run(bufBin, ["curl", "--protocol", "grpc", "--http2-prior-knowledge", "--list-methods", `http://127.0.0.1:${port}`]),
        curl(port, `/${call}`, "{}"),
      ]);
      assert.equal(listed.code, 0, `list methods: ${listed.stderr}`);
      assert.deepEqual(
        listed.stdout.trim().split("\n").sort(),
        [...declared].sort(),
        `reflection on ${port} describes every declared method`,
      );
      // `{}` encodes for any unary method; both methods are served and reject it naming a field, so
      // the answer shows the call was resolved, encoded and handled.
      const code = answer.code === 0 ? "ok" : (JSON.parse(answer.stderr) as { code: string }).code;
      assert.equal(code, "invalid_argument", `${call} answered ${code}: ${answer.stderr}`);
    }),
  );
});
