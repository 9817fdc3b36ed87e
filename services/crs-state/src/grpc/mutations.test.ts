import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { clone, create, toBinary } from "@bufbuild/protobuf";
import { ApplyRequestSchema } from "@crs/contracts/gen/crs/state/v1/state_pb";
import { SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { prepareMutation } from "./mutations.js";

const request = () =>
  create(ApplyRequestSchema, {
    projectId: "p",
    delta: { source: SignalSource.SOFT, kind: { case: "similarity", value: { updates: [{ a: "a", b: "b", distance: 0.5 }] } } },
    options: { requestId: "r-1", expectedGeneration: 3n },
  });

const call = (req: ReturnType<typeof request>) => ({
  method: "Apply",
  projectId: "p",
  requestSchema: ApplyRequestSchema,
  request: req,
  responseSchema: ApplyRequestSchema,
});

test("a request's fingerprint is the one journals already hold: SHA-256 of the method and the request without its id", () => {
  const req = request();
  const copy = clone(ApplyRequestSchema, req);
  if (copy.options !== undefined) copy.options.requestId = "";
  const expected = createHash("sha256").update("Apply").update(toBinary(ApplyRequestSchema, copy)).digest();
  const prepared = prepareMutation(call(req));
  assert.deepEqual(Buffer.from(prepared.request.fingerprint ?? []), expected, "same bytes as a fingerprint of a cleared copy");
  assert.equal(req.options?.requestId, "r-1", "the request keeps its id after fingerprinting");
});

test("two requests differing only in their id share a fingerprint; any other change makes another", () => {
  const a = request();
  const b = request();
  if (b.options !== undefined) b.options.requestId = "r-2";
  const c = request();
  if (c.options !== undefined) c.options.expectedGeneration = 4n;
  const fp = (r: ReturnType<typeof request>) => Buffer.from(prepareMutation(call(r)).request.fingerprint ?? []).toString("hex");
  assert.equal(fp(a), fp(b), "the id is not part of the fingerprint");
  assert.notEqual(fp(a), fp(c), "the content is");
});
