import { status } from "@grpc/grpc-js";
import type { DescMethod } from "@bufbuild/protobuf";
import { SpanKind, SpanStatusCode, trace, type SpanOptions } from "@opentelemetry/api";
import type { CallObserver } from "../adapter/server-handlers.js";

/**
 * One OpenTelemetry server span per RPC, named `<package.Service>/<Method>` with the semantic
 * `rpc.*` attributes. Without a registered SDK the API is a no-op, so this costs nothing until an
 * operator installs one.
 */
export function rpcSpans(tracerName: string): CallObserver {
  const tracer = trace.getTracer(tracerName);
  // Name and start options are built once per method, not on every call.
  const known = new Map<DescMethod, { name: string; options: SpanOptions }>();
  return (method) => {
    let start = known.get(method);
    if (start === undefined) {
      start = {
        name: `${method.parent.typeName}/${method.name}`,
        options: {
          kind: SpanKind.SERVER,
          attributes: { "rpc.system": "grpc", "rpc.service": method.parent.typeName, "rpc.method": method.name },
        },
      };
      known.set(method, start);
    }
    const span = tracer.startSpan(start.name, start.options);
    return ({ code, reason }) => {
      if (span.isRecording()) {
        span.setAttribute("rpc.grpc.status_code", code);
        if (code !== status.OK) span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
      }
      span.end();
    };
  };
}
