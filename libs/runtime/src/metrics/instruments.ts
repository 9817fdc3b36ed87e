/**
 * The metric types a service registers beside the RPC metrics, on the same registry
 * (`server.metrics.registry`), so every service exports one /metrics page from one prom-client.
 */
export { Counter, Gauge, Histogram, type Registry } from "prom-client";
