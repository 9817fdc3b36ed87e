import { test } from "node:test";
import assert from "node:assert/strict";
import { RuntimeError } from "../errors.js";
import { flag, hostPort, integer, oneOf, readEnv, redactCredentials, text, url } from "./env.js";
import { serverEnvSpec } from "./server-env.js";

const spec = {
  GRPC_ADDRESS: hostPort("listen address", "127.0.0.1:50051"),
  DRAIN_MS: integer("drain", 10_000, 0, 60_000),
  VERBOSE: flag("verbose", false),
  MODE: oneOf("mode", ["a", "b"] as const, "a"),
  NAME: text("required name"),
};

function failure(env: NodeJS.ProcessEnv): RuntimeError {
  try {
    readEnv(spec, env);
  } catch (error) {
    assert.ok(error instanceof RuntimeError, "a RuntimeError");
    return error;
  }
  assert.fail("readEnv was expected to throw");
}

test("defaults apply to unset and empty variables", () => {
  assert.deepEqual(
    readEnv(spec, { NAME: "x", DRAIN_MS: "" }),
    {
      GRPC_ADDRESS: "127.0.0.1:50051",
      DRAIN_MS: 10_000,
      VERBOSE: false,
      MODE: "a",
      NAME: "x",
    },
    "every default",
  );
});

test("values are parsed to their types", () => {
  const values = readEnv(spec, { NAME: "x", GRPC_ADDRESS: "[::1]:0", DRAIN_MS: "5", VERBOSE: "yes", MODE: "b" });
  assert.deepEqual([values.GRPC_ADDRESS, values.DRAIN_MS, values.VERBOSE, values.MODE], ["[::1]:0", 5, true, "b"], "parsed");
});

test("a bad variable stops start-up with a message naming it", () => {
  const cases: [NodeJS.ProcessEnv, string][] = [
    [{ NAME: "x", GRPC_ADDRESS: "nowhere" }, "GRPC_ADDRESS"],
    [{ NAME: "x", DRAIN_MS: "-1" }, "DRAIN_MS"],
    [{ NAME: "x", DRAIN_MS: "12abc" }, "DRAIN_MS"],
    [{ NAME: "x", VERBOSE: "perhaps" }, "VERBOSE"],
    [{ NAME: "x", MODE: "c" }, "MODE"],
    [{}, "NAME is required"],
  ];
  for (const [env, named] of cases) {
    const error = failure(env);
    assert.equal(error.code, "CONFIG_INVALID", "code");
    assert.ok(error.message.includes(named), `message names ${named}: ${error.message}`);
  }
});

test("a duration longer than a Node timer can wait stops start-up naming it, instead of firing at once", () => {
  const serverSpec = serverEnvSpec({ grpcAddress: "127.0.0.1:0", metricsAddress: "127.0.0.1:0" });
  for (const name of [
    "GRPC_KEEPALIVE_TIME_MS",
    "GRPC_KEEPALIVE_TIMEOUT_MS",
    "GRPC_MAX_CONNECTION_AGE_MS",
    "GRPC_MAX_CONNECTION_AGE_GRACE_MS",
  ]) {
    assert.throws(
      () => readEnv(serverSpec, { [name]: "2147483648" }),
      (e: unknown) => e instanceof RuntimeError && e.message.includes(name),
      name,
    );
    assert.equal(
      readEnv(serverSpec, { [name]: "2147483647" })[name as "GRPC_KEEPALIVE_TIME_MS"],
      2147483647,
      `${name} at the largest timer`,
    );
  }
});

test("a variable holding only spaces counts as unset, so a required one is reported missing", () => {
  assert.ok(failure({ NAME: "   " }).message.includes("NAME is required"), "blank required variable");
  assert.equal(readEnv(spec, { NAME: "x", DRAIN_MS: " " }).DRAIN_MS, 10_000, "blank variable with a default");
});

test("a malformed value carrying credentials is reported without them", () => {
  const spec = { SECRET_URL: hostPort("an address", "127.0.0.1:1") };
  let message = "";
  try {
    readEnv(spec, { SECRET_URL: "redis://user:hunter2@nowhere" });
  } catch (error) {
    message = (error as Error).message;
  }
  assert.ok(message.includes("SECRET_URL"), `the variable is named: ${message}`);
  assert.ok(!message.includes("hunter2"), `the password is not printed: ${message}`);
});

test("a password holding @, / or spaces is masked whole, not cut at its first such character", () => {
  const cases: [string, string][] = [
    ["redis://:password@host:6379", "redis://***@host:6379"],
    ["rediss://:p@ss@host:6379/2", "rediss://***@host:6379/2"],
    ["redis://user:pw with spaces@host:6379", "redis://***@host:6379"],
    ["redis://:a//b@host:6379", "redis://***@host:6379"],
    ["a redis://:x@h:1, b nats://u:y@g:2", "a redis://***@h:1, b nats://***@g:2"],
    ["redis://host:6379/0", "redis://host:6379/0"],
  ];
  for (const [raw, shown] of cases) assert.equal(redactCredentials(raw), shown, raw);
  // A `/` in the password makes the URL malformed, and the start-up message prints the value.
  const spec = { REDIS_URL: url("redis", "redis://127.0.0.1:6379", ["redis"]) };
  let message = "";
  try {
    readEnv(spec, { REDIS_URL: "redis://:pa/ss@127.0.0.1:6379" });
  } catch (error) {
    message = (error as Error).message;
  }
  assert.match(message, /REDIS_URL="redis:\/\/\*\*\*@127\.0\.0\.1:6379" is invalid/, message);
});
