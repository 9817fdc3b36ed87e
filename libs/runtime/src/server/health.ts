import { status } from "@grpc/grpc-js";
import {
  type Health,
  HealthCheckResponse_ServingStatus as Serving,
  HealthCheckResponse_ServingStatusSchema as ServingSchema,
} from "@crs/contracts/gen/grpc/health/v1/health_pb";
import type { ServiceHandlers } from "../adapter/handler-types.js";
import { RpcError, RuntimeRpcError, limitExceeded } from "../errors.js";

/** The serving states a service can report. */
export type ServingStatus = "SERVING" | "NOT_SERVING";

// Health has no ErrorReason enum: an unknown name is refused with the protocol's own word for it.
const SERVICE_UNKNOWN = ServingSchema.value[Serving.SERVICE_UNKNOWN]?.name ?? "SERVICE_UNKNOWN";

const WIRE: Record<ServingStatus, Serving> = { SERVING: Serving.SERVING, NOT_SERVING: Serving.NOT_SERVING };

/** Longest service name a health call may ask about; proto full names are far shorter. */
export const MAX_SERVICE_NAME_LENGTH = 256;

/** Most services List answers with; beyond it the protocol's RESOURCE_EXHAUSTED is sent instead of a huge answer. */
export const MAX_LISTED_SERVICES = 100;

/**
 * grpc.health.v1 served through our own adapter, so Watch streams are tracked like every other
 * call and end promptly at shutdown instead of holding the drain open. State is kept only for the
 * services the server registered: asking about any other name leaves nothing behind. List answers
 * every registered name, "" (the whole server) included.
 */
export class HealthRegistry {
  readonly #statuses = new Map<string, ServingStatus>();
  readonly #watchers = new Map<string, Set<() => void>>();

  /** Sets the status of `service` ("" is the whole server) and wakes its watchers. */
  set(service: string, servingStatus: ServingStatus): void {
    if (this.#statuses.get(service) === servingStatus) return;
    this.#statuses.set(service, servingStatus);
    for (const wake of this.#watchers.get(service) ?? []) wake();
  }

  /** The current wire status of `service`; SERVICE_UNKNOWN when never registered. */
  get(service: string): Serving {
    const current = this.#statuses.get(service);
    return current === undefined ? Serving.SERVICE_UNKNOWN : WIRE[current];
  }

  /** How many service names have watchers now, for checking that nothing accumulates. */
  get watchedNames(): number {
    return this.#watchers.size;
  }

  /** Handlers for the Health service. */
  handlers(): ServiceHandlers<typeof Health.method> {
    return {
      check: async (request) => {
        const service = requireServiceName(request.service);
        if (!this.#statuses.has(service))
          throw new RpcError(status.NOT_FOUND, SERVICE_UNKNOWN, `unknown service ${JSON.stringify(service)}`);
        return { status: this.get(service) };
      },
      list: async () => {
        if (this.#statuses.size > MAX_LISTED_SERVICES) {
          throw new RuntimeRpcError(
            status.RESOURCE_EXHAUSTED,
            "LIMIT_EXCEEDED",
            `the server has ${this.#statuses.size} services; List answers for at most ${MAX_LISTED_SERVICES}`,
            { limit: String(MAX_LISTED_SERVICES) },
          );
        }
        // Sorted by name, so two answers from an unchanged server are identical.
        const names = [...this.#statuses.keys()].sort();
        return { statuses: Object.fromEntries(names.map((name) => [name, { status: this.get(name) }])) };
      },
      watch: (request, ctx) => {
        const service = requireServiceName(request.service);
        return this.#statuses.has(service) ? this.#watch(service, ctx.signal) : this.#unknown(ctx.signal);
      },
    };
  }

  // The health protocol answers SERVICE_UNKNOWN and keeps the stream open. Services are all
  // registered before the server listens, so an unknown name never becomes known: the stream
  // only waits for its end, with no watcher kept under the name.
  async *#unknown(signal: AbortSignal): AsyncGenerator<{ status: Serving }> {
    yield { status: Serving.SERVICE_UNKNOWN };
    if (!signal.aborted) await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
  }

  // Yields the current status, then every change, until the call is aborted.
  async *#watch(service: string, signal: AbortSignal): AsyncGenerator<{ status: Serving }> {
    // A change while the previous answer is still being written is remembered, not lost.
    let pending = false;
    let changed: () => void = () => undefined;
    const wake = (): void => {
      pending = true;
      changed();
    };
    const watchers = this.#watchers.get(service) ?? new Set();
    this.#watchers.set(service, watchers.add(wake));
    signal.addEventListener("abort", wake, { once: true });
    try {
      let last: Serving | undefined;
      while (!signal.aborted) {
        const now = this.get(service);
        if (now !== last) yield { status: (last = now) };
        if (!pending) await new Promise<void>((resolve) => (changed = resolve));
        pending = false;
      }
    } finally {
      watchers.delete(wake);
      if (watchers.size === 0) this.#watchers.delete(service);
      signal.removeEventListener("abort", wake);
    }
  }
}

// A name is at most MAX_SERVICE_NAME_LENGTH characters; anything longer is no service of ours.
function requireServiceName(service: string): string {
  if (service.length > MAX_SERVICE_NAME_LENGTH) {
    throw limitExceeded(
      "service",
      MAX_SERVICE_NAME_LENGTH,
      `has ${service.length} characters; at most ${MAX_SERVICE_NAME_LENGTH} are accepted`,
    );
  }
  return service;
}
