import { status } from "@grpc/grpc-js";
import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { CallObserver } from "../adapter/server-handlers.js";
import type { Logger } from "../logging/logger.js";

/** A Prometheus registry with process metrics and per-method RPC latency and counts. */
export interface RpcMetrics {
  /** The registry served on /metrics; services register their own metrics in it too. */
  readonly registry: Registry;
  /** Records each call: a latency histogram and a counter by method and status code. */
  readonly observe: CallObserver;
}

const codeName = (code: status): string => status[code] ?? String(code);

/** Creates the registry and the call observer that also writes one debug log line per call. */
export function createRpcMetrics(logger: Logger): RpcMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ["grpc_service", "grpc_method", "grpc_type", "grpc_code"] as const;
  const handled = new Counter({
    name: "grpc_server_handled_total",
    help: "RPCs completed on the server, by status code.",
    labelNames,
    registers: [registry],
  });
  const seconds = new Histogram({
    name: "grpc_server_handling_seconds",
    help: "Time from the start of an RPC to its status, by method and code.",
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const observe: CallObserver = (method) => {
    const started = process.hrtime.bigint();
    return (outcome) => {
      const { code, reason, error } = outcome;
      const labels = {
        grpc_service: method.parent.typeName,
        grpc_method: method.name,
        grpc_type: method.methodKind,
        grpc_code: codeName(code),
      };
      const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
      handled.inc(labels);
      seconds.observe(labels, elapsed);
      const line = {
        method: `${labels.grpc_service}/${labels.grpc_method}`,
        code: labels.grpc_code,
        reason,
        ms: Math.round(elapsed * 1e4) / 10,
      };
      // Present even when what was thrown is undefined, which is still an internal failure.
      if ("error" in outcome) logger.error({ ...line, err: error }, "rpc failed with an internal error");
      else logger.debug(line, "rpc");
    };
  };
  return { registry, observe };
}
