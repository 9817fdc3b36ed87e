import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { status } from "@grpc/grpc-js";
import { ApplyRequestSchema } from "@crs/contracts/gen/crs/state/v1/state_pb";
import { SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { requestFingerprint } from "./request-fingerprint.js";
import { expectError, startTestServer } from "./test-support.js";

// An apply whose maps sit at the top (metadata) and deep inside a oneof (history entry metadata).
const apply = (top: [string, string][], inner: [string, string][], requestId = "r") =>
  create(ApplyRequestSchema, {
    projectId: "p",
    metadata: Object.fromEntries(top),
    options: { requestId },
    delta: {
      source: SignalSource.SOFT,
      kind: {
        case: "history",
        value: { entries: [{ id: "h1", action: "read", result: "ok", source: SignalSource.SOFT, metadata: Object.fromEntries(inner) }] },
      },
    },
  });

describe("request fingerprints", () => {
  // Fingerprints are stored with every remembered request: a retry after an upgrade must still
  // match, so the canonical encoding may never change. The value was computed by the first release.
  it("of a fixed request keep the value stored journals hold", () => {
    const request = create(ApplyRequestSchema, {
      projectId: "p",
      label: "naïve 🚀",
      metadata: { b: "2", a: "1", "10": "x", "9": "y" },
      options: { requestId: "retry-1", expectedGeneration: 7n },
      delta: {
        source: SignalSource.SOFT,
        kind: {
          case: "history",
          value: { entries: [{ id: "h1", action: "read", result: "ok", source: SignalSource.SOFT, metadata: { z: "1", y: "2" } }] },
        },
      },
    });
    assert.equal(
      requestFingerprint("Apply", ApplyRequestSchema, request),
      "d06a82d58453e0ba56e2236aa56b5d3083c5d2f690e48157a2635dba95e5ba1b",
    );
  });

  it("are equal for maps listing the same entries in another order, at any depth, and ignore the request id", () => {
    const a = requestFingerprint(
      "Apply",
      ApplyRequestSchema,
      apply(
        [
          ["a", "1"],
          ["b", "2"],
        ],
        [
          ["x", "1"],
          ["y", "2"],
          ["10", "3"],
        ],
      ),
    );
    const b = requestFingerprint(
      "Apply",
      ApplyRequestSchema,
      apply(
        [
          ["b", "2"],
          ["a", "1"],
        ],
        [
          ["y", "2"],
          ["10", "3"],
          ["x", "1"],
        ],
        "other",
      ),
    );
    assert.equal(a, b, "same request");
  });

  it("differ when a map value, the content or the method differs", () => {
    const base = requestFingerprint("Apply", ApplyRequestSchema, apply([["a", "1"]], [["x", "1"]]));
    assert.notEqual(requestFingerprint("Apply", ApplyRequestSchema, apply([["a", "2"]], [["x", "1"]])), base, "top map value");
    assert.notEqual(requestFingerprint("Apply", ApplyRequestSchema, apply([["a", "1"]], [["x", "2"]])), base, "inner map value");
    assert.notEqual(requestFingerprint("Validate", ApplyRequestSchema, apply([["a", "1"]], [["x", "1"]])), base, "method");
  });

  it("leave the request untouched", () => {
    const req = apply(
      [
        ["b", "2"],
        ["a", "1"],
      ],
      [],
    );
    requestFingerprint("Apply", ApplyRequestSchema, req);
    assert.deepEqual(Object.keys(req.metadata), ["b", "a"], "the caller's map keeps its order");
    assert.equal(req.options?.requestId, "r", "and its request id");
  });

  it("of a request whose maps are already in order (encoded in place) equal those of its reordered copy, and leave it untouched", () => {
    const inOrder: [string, string][] = [
      ["x", "1"],
      ["y", "2"],
    ];
    const inPlace = apply([["a", "1"]], inOrder, "in-place");
    const copied = apply([["a", "1"]], [...inOrder].reverse(), "copy");
    assert.equal(
      requestFingerprint("Apply", ApplyRequestSchema, inPlace),
      requestFingerprint("Apply", ApplyRequestSchema, copied),
      "same fingerprint either way",
    );
    assert.equal(inPlace.options?.requestId, "in-place", "the request id is put back");
    assert.deepEqual(
      Object.keys(copied.delta?.kind.case === "history" ? (copied.delta.kind.value.entries[0]?.metadata ?? {}) : {}),
      ["y", "x"],
      "a copy was reordered, not the request",
    );
  });

  it("let a retry through gRPC with reordered metadata replay the first answer", async () => {
    const s = await startTestServer();
    try {
      await s.state.createProject({ projectId: "p" });
      const first = await s.state.apply(
        apply(
          [
            ["a", "1"],
            ["b", "2"],
          ],
          [
            ["x", "1"],
            ["y", "2"],
          ],
          "retry-1",
        ),
      );
      const again = await s.state.apply(
        apply(
          [
            ["b", "2"],
            ["a", "1"],
          ],
          [
            ["y", "2"],
            ["x", "1"],
          ],
          "retry-1",
        ),
      );
      assert.deepEqual(
        [first.header?.generation, again.header?.generation, again.header?.replayed],
        [1n, 1n, true],
        "replayed, not refused",
      );
      await expectError(
        s.state.apply(
          apply(
            [
              ["b", "3"],
              ["a", "1"],
            ],
            [
              ["y", "2"],
              ["x", "1"],
            ],
            "retry-1",
          ),
        ),
        status.INVALID_ARGUMENT,
        "REQUEST_ID_REUSED",
      );
    } finally {
      await s.stop();
    }
  });
});
