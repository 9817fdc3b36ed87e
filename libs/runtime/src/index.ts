/** @crs/runtime: what every service needs to serve protobuf-es contracts over grpc-js. */
export { createClient, type ClientCallOptions, type ClientOptions, type TypedClient } from "./adapter/client.js";
export type {
  CallContext,
  ServiceHandlers,
  UnaryHandler,
  ServerStreamHandler,
  ClientStreamHandler,
  BidiStreamHandler,
} from "./adapter/handler-types.js";
export { EncodedMessage, encodedMessage } from "./adapter/encoded-message.js";
export { encodeMessage, EncodeError, type EncodeOptions } from "./adapter/message-encoder.js";
export { toGrpcServiceDefinition } from "./adapter/service-definition.js";
export {
  readEnv,
  redactCredentials,
  text,
  optionalText,
  integer,
  flag,
  oneOf,
  hostPort,
  url,
  type EnvSpec,
  type EnvVar,
  type EnvValues,
} from "./config/env.js";
export { serverEnvSpec } from "./config/server-env.js";
export {
  RpcError,
  RuntimeError,
  RuntimeRpcError,
  RUNTIME_REASONS,
  invalidArgument,
  limitExceeded,
  type RuntimeErrorCode,
  type RuntimeReason,
  type ErrorMetadata,
} from "./errors.js";
export { createLogger, LOG_EXIT_FLUSH_MS, type Logger } from "./logging/logger.js";
export { Counter, Gauge, Histogram, type Registry } from "./metrics/instruments.js";
export { errorDetailOf, toServiceError, type ErrorDetail } from "./status/error-details.js";
export type { ErrorMapper } from "./status/normalize.js";
export { reasonCatalog, type ErrorReasons, type ReasonCatalog, type StatusMapping } from "./status/reasons.js";
export { GrpcServer, type AddServiceOptions } from "./server/grpc-server.js";
export type { ServerOptions } from "./server/server-options.js";
export { startService, runService, type ServiceDefinition, type RunningService } from "./server/run-service.js";
export { requireId, requireMaxLength, requireSafeCount } from "./validate/fields.js";
