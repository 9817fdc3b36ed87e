import { status } from "@grpc/grpc-js";
import type { DescMethod } from "@bufbuild/protobuf";
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
  // Label objects and their children are built once per method and code, not on every call
  // (prom-client still hashes the labels of each increment and observation).
  interface Series {
    readonly handled: Counter.Internal;
    readonly seconds: Histogram.Internal<(typeof labelNames)[number]>;
  }
  interface PerMethod {
    readonly name: string;
    readonly byCode: Map<status, Series>;
    readonly labels: Omit<Record<(typeof labelNames)[number], string>, "grpc_code">;
  }
  const methods = new Map<DescMethod, PerMethod>();
  const perMethod = (method: DescMethod): PerMethod => {
    let known = methods.get(method);
    if (known === undefined) {
      const labels = { grpc_service: method.parent.typeName, grpc_method: method.name, grpc_type: method.methodKind };
      known = { name: `${labels.grpc_service}/${labels.grpc_method}`, byCode: new Map(), labels };
      methods.set(method, known);
    }
    return known;
  };
  const seriesOf = (m: PerMethod, code: status): Series => {
    let series = m.byCode.get(code);
    if (series === undefined) {
      const labels = { ...m.labels, grpc_code: codeName(code) };
      series = { handled: handled.labels(labels), seconds: seconds.labels(labels) };
      m.byCode.set(code, series);
    }
    return series;
  };
  const observe: CallObserver = (method) => {
    const m = perMethod(method);
    const started = performance.now();
    return (outcome) => {
      const elapsedMs = performance.now() - started;
      const series = seriesOf(m, outcome.code);
      series.handled.inc();
      series.seconds.observe(elapsedMs / 1000);
      // Present even when what was thrown is undefined, which is still an internal failure.
      const internal = "error" in outcome;
      if (!internal && !logger.isLevelEnabled("debug")) return;
      const line = { method: m.name, code: codeName(outcome.code), reason: outcome.reason, ms: Math.round(elapsedMs * 10) / 10 };
      if (internal) logger.error({ ...line, err: outcome.error }, "rpc failed with an internal error");
      else logger.debug(line, "rpc");
    };
  };
  return { registry, observe };
}
