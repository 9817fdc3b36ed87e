import { createServer, type Server } from "node:http";
import type { Registry } from "prom-client";
import { RuntimeError } from "../errors.js";
import { splitHostPort } from "../server/address.js";

/** Serves `registry` as Prometheus text on GET /metrics at `address`; resolves once listening. */
export async function serveMetrics(registry: Registry, address: string): Promise<Server & { port: number }> {
  const server = createServer((req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") {
      res.writeHead(404).end("not found: metrics are served on GET /metrics\n");
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": registry.contentType }).end(text),
      () => res.writeHead(500).end("metrics collection failed\n"),
    );
  });
  const { host, port } = splitHostPort(address);
  await new Promise<void>((resolve, reject) => {
    server.once("error", (cause) =>
      reject(new RuntimeError("METRICS_LISTEN_FAILED", `cannot listen on ${address} for /metrics`, { cause })),
    );
    server.listen(port, host, () => resolve());
  });
  const bound = server.address();
  return Object.assign(server, { port: typeof bound === "object" && bound !== null ? bound.port : port });
}
