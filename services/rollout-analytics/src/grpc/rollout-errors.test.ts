import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { status, type ServiceError } from "@grpc/grpc-js";
import { errorDetailOf } from "@crs/runtime";
import { eventually } from "@crs/runtime/testing";
import { rejection, uploadStream, withService } from "./test-support.js";

const LIMITS = { MAX_LINE_BYTES: "4096", MAX_ROLLOUT_BYTES: "65536" };
const line = (n: number): string =>
  `{"timestamp":"2026-03-01T12:00:00.000Z","type":"event_msg","payload":{"type":"agent_message","pad":"${"x".repeat(n)}"}}\n`;
const content = Buffer.from(line(10) + line(20));

// Asserts the gRPC code, the ErrorInfo reason and domain, and the field named in its metadata.
function assertFailure(error: ServiceError, code: status, reason: string, field: string): Record<string, string> {
  const detail = errorDetailOf(error);
  assert.deepEqual(
    [error.code, detail?.reason, detail?.domain, detail?.metadata["field"]],
    [code, reason, "crs.analytics.v1", field],
    `${reason} on ${field}: ${error.message}`,
  );
  return { ...detail?.metadata };
}

test("a stream that starts with a chunk fails MALFORMED_UPLOAD on `part`", async () => {
  await withService(LIMITS, async (client) => {
    const error = await rejection(client.analyzeRollout([{ part: { case: "chunk", value: content } }]));
    assertFailure(error, status.INVALID_ARGUMENT, "MALFORMED_UPLOAD", "part");
  });
});

test("an empty stream and a repeated upload message fail MALFORMED_UPLOAD on `part`", async () => {
  await withService(LIMITS, async (client) => {
    assertFailure(await rejection(client.analyzeRollout([])), status.INVALID_ARGUMENT, "MALFORMED_UPLOAD", "part");
    const [first] = uploadStream(content, 8);
    const twice = [...uploadStream(content, 8), first!];
    assertFailure(await rejection(client.analyzeRollout(twice)), status.INVALID_ARGUMENT, "MALFORMED_UPLOAD", "part");
  });
});

test("an upload without a clock fails CLOCK_REQUIRED on upload.now_unix_ms", async () => {
  await withService(LIMITS, async (client) => {
    const error = await rejection(client.analyzeRollout(uploadStream(content, 8, { nowUnixMs: 0n })));
    assertFailure(error, status.INVALID_ARGUMENT, "CLOCK_REQUIRED", "upload.now_unix_ms");
  });
});

test("a project id outside the id alphabet fails INVALID_ARGUMENT on upload.project_id", async () => {
  await withService(LIMITS, async (client) => {
    for (const projectId of ["", "../etc", "a b"]) {
      const error = await rejection(client.analyzeRollout(uploadStream(content, 8, { projectId })));
      assertFailure(error, status.INVALID_ARGUMENT, "INVALID_ARGUMENT", "upload.project_id");
    }
  });
});

test("a file name or request id over 1024 characters fails LIMIT_EXCEEDED naming the field and the limit", async () => {
  await withService(LIMITS, async (client) => {
    const long = "a".repeat(1025);
    for (const [upload, field] of [
      [{ fileName: long }, "upload.file_name"],
      [{ requestId: long }, "upload.request_id"],
    ] as const) {
      const error = await rejection(client.analyzeRollout(uploadStream(content, 8, upload)));
      assert.equal(assertFailure(error, status.INVALID_ARGUMENT, "LIMIT_EXCEEDED", field)["limit"], "1024", `limit of ${field}`);
    }
  });
});

test("a declared sha256 that differs from the content fails MALFORMED_UPLOAD on upload.sha256; a matching one passes", async () => {
  await withService(LIMITS, async (client) => {
    const wrong = createHash("sha256").update("something else").digest("hex");
    const error = await rejection(client.analyzeRollout(uploadStream(content, 8, { sha256: wrong })));
    assertFailure(error, status.INVALID_ARGUMENT, "MALFORMED_UPLOAD", "upload.sha256");
    const malformed = await rejection(client.analyzeRollout(uploadStream(content, 8, { sha256: "abc" })));
    assertFailure(malformed, status.INVALID_ARGUMENT, "INVALID_ARGUMENT", "upload.sha256");
    const right = createHash("sha256").update(content).digest("hex");
    const ok = await client.analyzeRollout(uploadStream(content, 8, { sha256: right.toUpperCase(), sizeBytes: BigInt(content.length) }));
    assert.equal(ok.upload?.sha256, right, "declared hash and size accepted");
  });
});

test("a declared size that differs from the content fails MALFORMED_UPLOAD on upload.size_bytes", async () => {
  await withService(LIMITS, async (client) => {
    for (const sizeBytes of [BigInt(content.length - 1), BigInt(content.length + 1)]) {
      const error = await rejection(client.analyzeRollout(uploadStream(content, 8, { sizeBytes })));
      assertFailure(error, status.INVALID_ARGUMENT, "MALFORMED_UPLOAD", "upload.size_bytes");
    }
  });
});

test("a line over MAX_LINE_BYTES is skipped and counted, and the lines around it are still analysed", async () => {
  await withService(LIMITS, async (client) => {
    const start = `{"timestamp":"2026-03-01T12:00:00.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}\n`;
    const done = `{"timestamp":"2026-03-01T12:00:09.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1"}}\n`;
    const got = await client.analyzeRollout(uploadStream(Buffer.from(start + line(5000) + done), 1000));
    assert.deepEqual([got.upload?.lines, got.upload?.linesSkipped], [3n, 1n], "three lines, the long one skipped");
    assert.equal(got.analytics?.tasks.length, 1, "the turn around the long line is still folded");
  });
});

test("content over MAX_ROLLOUT_BYTES fails ROLLOUT_TOO_LARGE, whether declared (past 2^53 too, not INVALID_ARGUMENT) or received", async () => {
  await withService(LIMITS, async (client) => {
    const big = Buffer.from(line(1000).repeat(80));
    const received = assertFailure(
      await rejection(client.analyzeRollout(uploadStream(big, 1000))),
      status.RESOURCE_EXHAUSTED,
      "ROLLOUT_TOO_LARGE",
      "chunk",
    );
    assert.equal(received["limit"], "65536", "limit in metadata");
    // Any declared size past the limit, up to the largest uint64, is too large, not malformed.
    for (const sizeBytes of [65537n, 2n ** 53n, 2n ** 64n - 1n]) {
      const declared = await rejection(client.analyzeRollout(uploadStream(content, 8, { sizeBytes })));
      assertFailure(declared, status.RESOURCE_EXHAUSTED, "ROLLOUT_TOO_LARGE", "upload.size_bytes");
      assert.match(declared.details, new RegExp(`at least ${sizeBytes} bytes`), "the declared size, exactly");
    }
  });
});

test("a message over GRPC_MAX_MESSAGE_BYTES is refused RESOURCE_EXHAUSTED by the transport", async () => {
  await withService({ ...LIMITS, GRPC_MAX_MESSAGE_BYTES: "1024" }, async (client) => {
    const error = await rejection(client.analyzeRollout(uploadStream(Buffer.from(line(1500)), 2000)));
    assert.equal(error.code, status.RESOURCE_EXHAUSTED, error.message);
  });
});

test("an answer over a lowered message limit even with every listing left out fails RESOURCE_EXHAUSTED LIMIT_EXCEEDED naming its budget", async () => {
  // 100 distinct payload types: the census alone, never left out, is over 1,019 bytes.
  const census = Buffer.from(Array.from({ length: 100 }, (_, k) => `{"type":"event_msg","payload":{"type":"kind_${k}"}}\n`).join(""));
  await withService({ ...LIMITS, GRPC_MAX_MESSAGE_BYTES: "1024" }, async (client) => {
    const error = await rejection(client.analyzeRollout(uploadStream(census, 500)));
    const detail = errorDetailOf(error);
    assert.deepEqual(
      [error.code, detail?.reason, detail?.domain, detail?.metadata["limit"]],
      [status.RESOURCE_EXHAUSTED, "LIMIT_EXCEEDED", "crs.analytics.v1", "1019"],
      error.message,
    );
    assert.match(error.details, /even with every listing left out.*GRPC_MAX_MESSAGE_BYTES/, "says why and what to raise");
  });
});

test("lines that do not decode are counted and skipped; a torn last line is reported", async () => {
  await withService(LIMITS, async (client) => {
    const torn = Buffer.from(`${line(1)}not json\n[1]\n${line(2)}{"timestamp":"2026-03-01T12`);
    const got = await client.analyzeRollout(uploadStream(torn, 5));
    assert.deepEqual(
      [got.upload?.lines, got.upload?.linesSkipped, got.census?.tornTail],
      [5n, 3n, true],
      "five lines, three skipped, torn tail",
    );
  });
});

test("a cancelled upload stops the handler and frees the call", async () => {
  await withService(LIMITS, async (client, running) => {
    const controller = new AbortController();
    let sent = false;
    async function* stalled() {
      yield* uploadStream(content, 8);
      sent = true;
      await new Promise((resolve) => controller.signal.addEventListener("abort", resolve, { once: true }));
    }
    const call = rejection(client.analyzeRollout(stalled(), { signal: controller.signal }));
    assert.ok(await eventually(() => sent && running.server.tracker.size > 0), "the upload reached the server");
    controller.abort();
    assert.equal((await call).code, status.CANCELLED, "the client sees CANCELLED");
    await eventually(() => running.server.tracker.size === 0);
    assert.equal(running.server.tracker.size, 0, "no call left in flight on the server");
  });
});

test("an upload that outlives its deadline ends DEADLINE_EXCEEDED and frees the call", async () => {
  await withService(LIMITS, async (client, running) => {
    const done = new AbortController();
    async function* stalled() {
      yield* uploadStream(content, 8);
      await new Promise((resolve) => done.signal.addEventListener("abort", resolve, { once: true }));
    }
    try {
      const error = await rejection(client.analyzeRollout(stalled(), { deadline: 300 }));
      assert.equal(error.code, status.DEADLINE_EXCEEDED, "the client sees DEADLINE_EXCEEDED");
      await eventually(() => running.server.tracker.size === 0);
      assert.equal(running.server.tracker.size, 0, "no call left in flight on the server");
    } finally {
      done.abort();
    }
  });
});

test("a duration beyond 64 bits or below zero reads as absent instead of failing the whole analysis", async () => {
  await withService(LIMITS, async (client) => {
    const event = (ts: string, payload: Record<string, unknown>): string =>
      `${JSON.stringify({ timestamp: `2026-03-01T12:00:${ts}.000Z`, type: "event_msg", payload })}\n`;
    const odd = Buffer.from(
      event("00", { type: "task_started", turn_id: "a" }) +
        event("05", { type: "task_complete", turn_id: "a", duration_ms: 1e300, time_to_first_token_ms: 1e300 }) +
        event("06", { type: "task_started", turn_id: "b" }) +
        event("07", { type: "turn_aborted", turn_id: "b", reason: "interrupted", duration_ms: -5 }),
    );
    const got = await client.analyzeRollout(uploadStream(odd, 64));
    assert.deepEqual(
      got.lifecycle?.tasks.map((t) => [t.turnId, t.durationMs, t.trailingEmptyAbort]),
      [
        ["a", 0n, false],
        ["b", 0n, true],
      ],
      "no duration is reported; the abort is timed by its timestamps",
    );
    assert.deepEqual(
      got.analytics?.tasks.map((t) => [t.recordedMs, t.ttftMs, t.wallMs]),
      [
        [0n, -1n, 5000n],
        [0n, -1n, 1000n],
      ],
      "the analytics fall back to the timestamps",
    );
  });
});
