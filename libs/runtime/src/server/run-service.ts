import { format } from "node:util";
import type { DescFile } from "@bufbuild/protobuf";
import { setLogger } from "@grpc/grpc-js";
import { readEnv, type EnvSpec, type EnvValues } from "../config/env.js";
import { serverEnvSpec, type ServerEnvDefaults } from "../config/server-env.js";
import { RuntimeError } from "../errors.js";
import { createLogger, type Logger } from "../logging/logger.js";
import { serveMetrics } from "../metrics/metrics-server.js";
import { bearerAuth, readTokenFile } from "./bearer-auth.js";
import type { ReasonCatalog } from "../status/reasons.js";
import { GrpcServer } from "./grpc-server.js";

type ServerEnv = EnvValues<ReturnType<typeof serverEnvSpec>>;

/** What a service supplies to be run as a process. */
export interface ServiceDefinition<S extends EnvSpec> {
  /** Service name for logs and metrics. */
  readonly name: string;
  /** The service's reason vocabulary, built by `reasonCatalog` from its `ErrorReason` enum. */
  readonly reasons: ReasonCatalog;
  /** Default listen addresses. */
  readonly defaults: ServerEnvDefaults;
  /** The service's own environment variables, read and validated with the common ones. */
  readonly env: S;
  /** Descriptor files served through reflection. */
  readonly files: readonly DescFile[];
  /**
   * Registers handlers on `server` and starts background work. Returns the function that
   * releases the service's resources at shutdown (after calls have drained).
   */
  readonly setup: (context: { config: EnvValues<S> & ServerEnv; logger: Logger; server: GrpcServer }) => Promise<() => Promise<void>>;
}

/** A running service: its ports and its graceful stop. */
export interface RunningService {
  readonly port: number;
  readonly metricsPort: number;
  readonly logger: Logger;
  readonly server: GrpcServer;
  /** Drains calls, closes resources and the metrics endpoint. */
  stop(): Promise<void>;
}

// A failed listen names the variable that chose the address and why, as a malformed value does;
// a refused TLS file or setting already names its own variable and is passed on as it is.
function naming(variable: string, address: string, error: unknown): unknown {
  if (!(error instanceof RuntimeError) || (error.code !== "LISTEN_FAILED" && error.code !== "METRICS_LISTEN_FAILED")) return error;
  const cause = error.cause instanceof Error ? error.cause.message : error.message;
  return new RuntimeError(error.code, `${variable}=${address}: cannot listen there: ${cause}`, { cause: error.cause });
}

/** Reads configuration, builds the server, listens, and serves /metrics. */
export async function startService<S extends EnvSpec>(
  definition: ServiceDefinition<S>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningService> {
  const config = readEnv({ ...serverEnvSpec(definition.defaults), ...definition.env }, env) as EnvValues<S> & ServerEnv;
  const logger = createLogger(definition.name, config.LOG_LEVEL);
  const server = new GrpcServer({
    name: definition.name,
    address: config.GRPC_ADDRESS,
    reasons: definition.reasons,
    logger,
    reflectionFiles: config.REFLECTION ? definition.files : [],
    maxMessageBytes: config.GRPC_MAX_MESSAGE_BYTES,
    keepaliveTimeMs: config.GRPC_KEEPALIVE_TIME_MS,
    keepaliveTimeoutMs: config.GRPC_KEEPALIVE_TIMEOUT_MS,
    maxConnectionAgeMs: config.GRPC_MAX_CONNECTION_AGE_MS,
    maxConnectionAgeGraceMs: config.GRPC_MAX_CONNECTION_AGE_GRACE_MS,
    maxConnections: config.GRPC_MAX_CONNECTIONS,
    handshakeTimeoutMs: config.GRPC_HANDSHAKE_TIMEOUT_MS,
    tls: { certFile: config.TLS_CERT_FILE, keyFile: config.TLS_KEY_FILE, clientCaFile: config.TLS_CLIENT_CA_FILE },
    authorize: config.AUTH_TOKEN_FILE === undefined ? undefined : bearerAuth(readTokenFile(config.AUTH_TOKEN_FILE)),
  });
  const release = await definition.setup({ config, logger, server });
  const metrics = await serveMetrics(server.metrics.registry, config.METRICS_ADDRESS).catch(async (error: unknown) => {
    await release();
    throw naming("METRICS_ADDRESS", config.METRICS_ADDRESS, error);
  });
  const port = await server.listen().catch(async (error: unknown) => {
    metrics.close();
    await release();
    throw naming("GRPC_ADDRESS", config.GRPC_ADDRESS, error);
  });
  logger.info(
    { grpc: `${config.GRPC_ADDRESS.replace(/:\d+$/, "")}:${port}`, metrics: metrics.port, services: server.services },
    `${definition.name} serving`,
  );
  return {
    port,
    metricsPort: metrics.port,
    logger,
    server,
    stop: async () => {
      const { drained } = await server.shutdown(config.SHUTDOWN_DRAIN_MS);
      logger.info({ drained }, drained ? "calls drained" : "drain time exceeded; remaining calls answered UNAVAILABLE");
      await release();
      await new Promise((resolve) => metrics.close(resolve));
    },
  };
}

/**
 * Runs a service as the process's main job: starts it, stops it gracefully on SIGTERM or SIGINT
 * and exits 0; a bad configuration or a failed start exits 1 with one line naming the cause.
 */
export async function runService<S extends EnvSpec>(definition: ServiceDefinition<S>): Promise<void> {
  let running: RunningService | undefined;
  // grpc-js writes its own errors to stderr; they go to the service's log instead. Before the
  // service runs they are dropped: a failed start reports its cause in the one line below.
  setLogger({
    error: (...args: unknown[]) => running?.logger.warn({ source: "grpc-js" }, format(...args)),
    info: () => undefined,
    debug: () => undefined,
  });
  try {
    running = await startService(definition);
  } catch (error) {
    const message = error instanceof RuntimeError ? error.message : `${definition.name}: failed to start: ${String(error)}`;
    process.stderr.write(`${message}\n`);
    if (!(error instanceof RuntimeError)) process.stderr.write(`${(error as Error).stack ?? ""}\n`);
    process.exit(1);
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    running.logger.info({ signal }, "stopping");
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        running.logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  // Kept for every repeat: a process manager forwards the terminal's Ctrl-C once more, and the
  // default action of that second signal would kill the process in the middle of its drain.
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
