import { Server, status, type ChannelOptions } from "@grpc/grpc-js";
import type { DescService } from "@bufbuild/protobuf";
import type { GenService, GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import { Health } from "@crs/contracts/gen/grpc/health/v1/health_pb";
import { CallTracker } from "../adapter/call-tracker.js";
import type { ServiceHandlers } from "../adapter/handler-types.js";
import { wrapHandlers } from "../adapter/server-handlers.js";
import { toGrpcServiceDefinition } from "../adapter/service-definition.js";
import { RuntimeError, RuntimeRpcError } from "../errors.js";
import { createRpcMetrics, type RpcMetrics } from "../metrics/rpc-metrics.js";
import { rpcSpans } from "../tracing/rpc-spans.js";
import type { CallObserver } from "../adapter/server-handlers.js";
import type { ErrorMapper } from "../status/normalize.js";
import { limitConnections } from "./connection-limits.js";
import { serverCredentials } from "./credentials.js";
import { HealthRegistry, type ServingStatus } from "./health.js";
import { addReflection } from "./reflection.js";
import type { ServerOptions } from "./server-options.js";

const MiB = 1024 * 1024;
// How long the statuses written at the end of the drain get to reach clients before connections are cut.
const STATUS_FLUSH_MS = 1000;

/** How a service is registered. */
export interface AddServiceOptions {
  /** Maps the service's own named errors to gRPC statuses. */
  readonly mapError?: ErrorMapper | undefined;
  /**
   * The service's health is set by its owner, not by `listen()`.
   * @defaultValue false
   */
  readonly managedHealth?: boolean;
  /**
   * Whether health vouches for the service. An unserved one reports NOT_SERVING for good, so
   * health never vouches for methods that answer UNIMPLEMENTED: false also for a service that
   * serves some of its methods and not yet the others.
   * @defaultValue true when at least one method has a handler
   */
  readonly served?: boolean;
}

/** A gRPC server with health, reflection, metrics and call tracking, before it listens. */
export class GrpcServer {
  readonly server: Server;
  readonly metrics: RpcMetrics;
  readonly tracker = new CallTracker();
  readonly #observe: CallObserver;
  readonly #health = new HealthRegistry();
  readonly #services: string[] = [];
  readonly #managed = new Set<string>();
  readonly #served = new Set<string>();
  readonly #maxBytes: number;
  #port: number | undefined;
  #draining = false;

  constructor(readonly options: ServerOptions) {
    const maxBytes = options.maxMessageBytes ?? 16 * MiB;
    this.#maxBytes = maxBytes;
    const channelOptions: ChannelOptions = {
      "grpc.max_receive_message_length": maxBytes,
      "grpc.max_send_message_length": maxBytes,
      "grpc.keepalive_time_ms": options.keepaliveTimeMs ?? 60_000,
      "grpc.keepalive_timeout_ms": options.keepaliveTimeoutMs ?? 20_000,
      "grpc.keepalive_permit_without_calls": 1,
      "grpc.max_connection_age_grace_ms": options.maxConnectionAgeGraceMs ?? 30_000,
      // Nothing serves channelz here; its per-call and per-stream bookkeeping would be pure cost.
      "grpc.enable_channelz": 0,
      ...(options.maxConnectionAgeMs ? { "grpc.max_connection_age_ms": options.maxConnectionAgeMs } : {}),
    };
    this.server = new Server(channelOptions);
    this.metrics = createRpcMetrics(options.logger);
    const spans = rpcSpans(options.name);
    this.#observe = (method) => {
      const endMetrics = this.metrics.observe(method);
      const endSpan = spans(method);
      return (outcome) => {
        endSpan(outcome);
        endMetrics(outcome);
      };
    };
    this.#health.set("", "NOT_SERVING");
    // Health stays open to unauthenticated callers: probes and load balancers carry no token.
    const wrapped = wrapHandlers(Health, this.#health.handlers() as Record<string, unknown>, {
      domain: "grpc.health.v1",
      reasons: options.reasons,
      observe: this.#observe,
      tracker: this.tracker,
      maxResponseBytes: this.#maxBytes,
    });
    this.server.addService(toGrpcServiceDefinition(Health), wrapped);
  }

  /**
   * Registers `handlers` for `service`; methods without a handler answer UNIMPLEMENTED.
   * `mapError` turns the service's own named errors into gRPC statuses; with `managedHealth`
   * the service stays NOT_SERVING until the caller sets its health (it depends on a backend).
   */
  add<S extends GenServiceMethods>(service: GenService<S>, handlers: ServiceHandlers<S>, options: AddServiceOptions = {}): this {
    const { mapError, managedHealth = false } = options;
    const desc = service as unknown as DescService;
    const served = options.served ?? Object.values(handlers).some((handler) => typeof handler === "function");
    const wrapped = wrapHandlers(desc, handlers as Record<string, unknown>, {
      domain: desc.file.proto.package,
      reasons: this.options.reasons,
      mapError,
      authorize: this.options.authorize,
      observe: this.#observe,
      tracker: this.tracker,
      maxResponseBytes: this.#maxBytes,
    });
    this.server.addService(toGrpcServiceDefinition(desc), wrapped);
    this.#services.push(desc.typeName);
    if (served) this.#served.add(desc.typeName);
    if (managedHealth) this.#managed.add(desc.typeName);
    this.#health.set(desc.typeName, "NOT_SERVING");
    return this;
  }

  /** Sets the health of one served service ("" is the whole server); an unserved one stays NOT_SERVING. */
  setHealth(service: string, servingStatus: ServingStatus): void {
    if (service === "" || this.#served.has(service)) this.#health.set(service, servingStatus);
  }

  /** The names of the registered services. */
  get services(): readonly string[] {
    return this.#services;
  }

  /** Largest message accepted or sent, in bytes. */
  get maxMessageBytes(): number {
    return this.#maxBytes;
  }

  /** True once shutdown has begun. */
  get draining(): boolean {
    return this.#draining;
  }

  /** The bound port, once listening. */
  get port(): number {
    if (this.#port === undefined) throw new RuntimeError("LISTEN_FAILED", "the server is not listening yet");
    return this.#port;
  }

  /** Binds the address and starts serving; every served service not managed by its owner reports SERVING. */
  async listen(): Promise<number> {
    if (this.options.reflectionFiles.length > 0) {
      addReflection(this.server, this.options.reflectionFiles, [...this.#services, "grpc.health.v1.Health"]);
    }
    const credentials = serverCredentials(this.options.tls ?? {});
    this.#port = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync(this.options.address, credentials, (error, port) =>
        error
          ? reject(new RuntimeError("LISTEN_FAILED", `cannot listen on ${this.options.address}: ${error.message}`, { cause: error }))
          : resolve(port),
      ),
    );
    limitConnections(this.server, {
      maxConnections: this.options.maxConnections ?? 1024,
      handshakeTimeoutMs: this.options.handshakeTimeoutMs ?? 20_000,
    });
    this.setHealth("", "SERVING");
    for (const name of this.#served) if (!this.#managed.has(name)) this.setHealth(name, "SERVING");
    return this.#port;
  }

  /**
   * Stops gracefully: health NOT_SERVING, no new calls, open server streams ended with UNAVAILABLE,
   * in-flight calls drained for up to `drainMs`; whatever is left is answered UNAVAILABLE (shutting
   * down) before the connections are closed.
   */
  async shutdown(drainMs: number): Promise<{ drained: boolean }> {
    this.#draining = true;
    this.setHealth("", "NOT_SERVING");
    for (const name of this.#services) this.setHealth(name, "NOT_SERVING");
    const closed = new Promise<void>((resolve) => this.server.tryShutdown(() => resolve()));
    const stopping = new RuntimeRpcError(status.UNAVAILABLE, "SHUTTING_DOWN", "the server is shutting down; reconnect to another instance");
    // Let watchers send NOT_SERVING before their streams are ended.
    await new Promise((resolve) => setImmediate(resolve));
    this.tracker.abort(stopping, false);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<"expired">((resolve) => (timer = setTimeout(() => resolve("expired"), drainMs)));
    const outcome = await Promise.race([Promise.all([closed, this.tracker.idle()]).then(() => "drained" as const), expired]);
    clearTimeout(timer);
    if (outcome === "expired") {
      this.tracker.abort(stopping, true);
      // Resetting the connections first would reach clients as CANCELLED: every open call gets
      // its status written, and the connections a moment to carry it, before they are cut.
      this.tracker.terminate(stopping);
      let flushTimer: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise((resolve) => (flushTimer = setTimeout(resolve, STATUS_FLUSH_MS)))]);
      clearTimeout(flushTimer);
      this.server.forceShutdown();
    }
    return { drained: outcome === "drained" };
  }
}
