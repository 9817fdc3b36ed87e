import { test } from "node:test";
import assert from "node:assert/strict";
import { RuntimeError, readEnv } from "@crs/runtime";
import { CRS_STATE_ENV, storeOptionsFromEnv } from "./index.js";

test("bounds checkpoints per project at 1000 unless CRS_STATE_MAX_CHECKPOINTS_PER_PROJECT says otherwise", () => {
  assert.equal(storeOptionsFromEnv(readEnv(CRS_STATE_ENV, {})).maxCheckpointsPerProject, 1000);
  const set = readEnv(CRS_STATE_ENV, { CRS_STATE_MAX_CHECKPOINTS_PER_PROJECT: "7" });
  assert.equal(storeOptionsFromEnv(set).maxCheckpointsPerProject, 7);
});

test("a CRS_STATE_MAX_CHECKPOINTS_PER_PROJECT that is not a whole number from 1 to 100000 stops start-up naming it, instead of refusing every checkpoint", () => {
  for (const raw of ["0", "-1", "2.5", "many", "100001"]) {
    assert.throws(
      () => readEnv(CRS_STATE_ENV, { CRS_STATE_MAX_CHECKPOINTS_PER_PROJECT: raw }),
      (e: unknown) => e instanceof RuntimeError && e.message.includes("CRS_STATE_MAX_CHECKPOINTS_PER_PROJECT"),
      raw,
    );
  }
});
