// test-isolation: own process (it replaces the global OpenTelemetry tracer provider).
import { test } from "node:test";
import assert from "node:assert/strict";
import { trace, type Attributes, type Span, type SpanStatus, type Tracer, type TracerProvider } from "@opentelemetry/api";
import { startEchoServer } from "../testing/echo-server.js";

interface Recorded {
  name: string;
  attributes: Attributes;
  status?: SpanStatus;
  ended: boolean;
}

// A tracer provider that records spans, standing in for an SDK exporter.
function recordingProvider(spans: Recorded[]): TracerProvider {
  const tracer: Tracer = {
    startSpan(name, options) {
      const record: Recorded = { name, attributes: { ...options?.attributes }, ended: false };
      spans.push(record);
      const span: Span = {
        spanContext: () => ({ traceId: "0".repeat(31) + "1", spanId: "0".repeat(15) + "1", traceFlags: 1 }),
        setAttribute: (key, value) => {
          record.attributes[key] = value;
          return span;
        },
        setAttributes: (attributes) => {
          Object.assign(record.attributes, attributes);
          return span;
        },
        addEvent: () => span,
        addLink: () => span,
        addLinks: () => span,
        setStatus: (s) => {
          record.status = s;
          return span;
        },
        updateName: (n) => {
          record.name = n;
          return span;
        },
        end: () => void (record.ended = true),
        isRecording: () => true,
        recordException: () => undefined,
      };
      return span;
    },
    startActiveSpan: (() => assert.fail("startActiveSpan is not used")) as Tracer["startActiveSpan"],
  };
  return { getTracer: () => tracer };
}

test("every RPC gets one ended server span named after its method, with its status code", async () => {
  const spans: Recorded[] = [];
  trace.setGlobalTracerProvider(recordingProvider(spans));
  const { server, client } = await startEchoServer();
  try {
    await client.echo({ message: "traced" });
    await client.echo({ failReason: "NOPE" }).catch(() => undefined);
    const echoSpans = spans.filter((s) => s.name === "crs.testing.v1.EchoService/Echo");
    assert.equal(echoSpans.length, 2, "one span per call");
    assert.ok(
      echoSpans.every((s) => s.ended),
      "spans are ended",
    );
    assert.deepEqual(
      [echoSpans[0]?.attributes["rpc.system"], echoSpans[0]?.attributes["rpc.method"], echoSpans[0]?.attributes["rpc.grpc.status_code"]],
      ["grpc", "Echo", 0],
      "semantic attributes of a successful call",
    );
    assert.equal(echoSpans[1]?.attributes["rpc.grpc.status_code"], 9, "FAILED_PRECONDITION recorded");
    assert.equal(echoSpans[1]?.status?.message, "NOPE", "the error reason is the span status message");
  } finally {
    client.close();
    await server.shutdown(1000);
    trace.disable();
  }
});
