// test-isolation: own process (it checks protobuf-es's process-wide text encoding before any service definition sets it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { getTextEncoding } from "@bufbuild/protobuf/wire";
import { EchoRequestSchema, EchoService } from "@crs/contracts/gen/crs/testing/v1/echo_pb";
import { toGrpcServiceDefinition } from "./service-definition.js";

const samples = ["", "bench-1", "naïve ünïcode", "日本語", "emoji 🚀", "lone \ud800 high", "lone \udc00 low", "x".repeat(10_000)];

test("protobuf-es keeps allocating a fresh ArrayBuffer per string unless a service definition switches it to Buffer encoding", () => {
  assert.ok(!Buffer.isBuffer(getTextEncoding().encodeUtf8("x")), "protobuf-es default before any definition");
  toGrpcServiceDefinition(EchoService);
  assert.ok(Buffer.isBuffer(getTextEncoding().encodeUtf8("x")), "Buffer encoding after a definition is built");
});

test("strings encode to the bytes TextEncoder gives, lone surrogates as U+FFFD, and decode back", () => {
  toGrpcServiceDefinition(EchoService);
  const reference = new TextEncoder();
  for (const text of samples) {
    assert.deepEqual(new Uint8Array(getTextEncoding().encodeUtf8(text)), reference.encode(text), JSON.stringify(text.slice(0, 20)));
    const decoded = fromBinary(EchoRequestSchema, toBinary(EchoRequestSchema, create(EchoRequestSchema, { message: text })));
    assert.equal(decoded.message, new TextDecoder().decode(reference.encode(text)));
  }
});
