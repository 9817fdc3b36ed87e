import { flag, hostPort, integer, oneOf, optionalText, type EnvVar } from "./env.js";

/** Defaults that differ between services. */
export interface ServerEnvDefaults {
  /** The gRPC listen address. */
  readonly grpcAddress: string;
  /** The Prometheus listen address. */
  readonly metricsAddress: string;
}

const MiB = 1024 * 1024;
// Node fires a timer set beyond this at once, which would turn a long keepalive or connection age into a flood.
const TIMER_MAX_MS = 2 ** 31 - 1;

/** The variables every service reads for its gRPC server, logs and metrics. */
export function serverEnvSpec(defaults: ServerEnvDefaults) {
  return {
    GRPC_ADDRESS: hostPort("gRPC listen address (host:port)", defaults.grpcAddress),
    METRICS_ADDRESS: hostPort("Prometheus /metrics listen address (host:port)", defaults.metricsAddress),
    LOG_LEVEL: oneOf("pino log level", ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const, "info"),
    GRPC_MAX_MESSAGE_BYTES: integer("largest request or response message, in bytes", 16 * MiB, 1024, 1024 * MiB),
    GRPC_KEEPALIVE_TIME_MS: integer("interval between server keepalive pings", 60_000, 1_000, TIMER_MAX_MS),
    GRPC_KEEPALIVE_TIMEOUT_MS: integer("how long a keepalive ping may go unanswered", 20_000, 1_000, TIMER_MAX_MS),
    GRPC_MAX_CONNECTION_AGE_MS: integer("connections older than this are asked to reconnect (0: never)", 0, 0, TIMER_MAX_MS),
    GRPC_MAX_CONNECTION_AGE_GRACE_MS: integer("grace for calls on a connection past its age", 30_000, 0, TIMER_MAX_MS),
    GRPC_MAX_CONNECTIONS: integer("most client connections open at once; further ones are closed as they arrive", 1024, 1, 1_000_000),
    GRPC_HANDSHAKE_TIMEOUT_MS: integer(
      "how long a new connection may take to complete TLS and the HTTP/2 preface",
      20_000,
      100,
      TIMER_MAX_MS,
    ),
    SHUTDOWN_DRAIN_MS: integer("how long SIGTERM waits for in-flight calls before cancelling them", 10_000, 0, 600_000),
    TLS_CERT_FILE: optionalText("PEM server certificate; enables TLS together with TLS_KEY_FILE"),
    TLS_KEY_FILE: optionalText("PEM private key of TLS_CERT_FILE"),
    TLS_CLIENT_CA_FILE: optionalText("PEM CA bundle; when set, clients must present a certificate it signed (mTLS)"),
    AUTH_TOKEN_FILE: optionalText("file holding a bearer token every call must carry as `authorization: Bearer <token>`"),
    REFLECTION: flag("serve gRPC server reflection (v1 and v1alpha)", true),
  } satisfies Record<string, EnvVar<unknown>>;
}
