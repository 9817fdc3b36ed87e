import { status } from "@grpc/grpc-js";
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { CallObserver } from "../adapter/server-handlers.js";

/**
 * One OpenTelemetry server span per RPC, named `<package.Service>/<Method>` with the semantic
 * `rpc.*` attributes. Without a registered SDK the API is a no-op, so this costs nothing until an
 * operator installs one.
 */
export function rpcSpans(tracerName: string): CallObserver {
  const tracer = trace.getTracer(tracerName);
  return (method) => {
    const span = tracer.startSpan(`${method.parent.typeName}/${method.name}`, {
      kind: SpanKind.SERVER,
      attributes: { "rpc.system": "grpc", "rpc.service": method.parent.typeName, "rpc.method": method.name },
    });
    return ({ code, reason }) => {
      span.setAttribute("rpc.grpc.status_code", code);
      if (code !== status.OK) span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
      span.end();
    };
  };
}
