import type { status } from "@grpc/grpc-js";
import type { GenEnum } from "@bufbuild/protobuf/codegenv2";
import { RUNTIME_REASONS, RuntimeError, type RuntimeReason } from "../errors.js";

// Wire reasons are the enum value names without this prefix (see each errors.proto).
const PREFIX = "ERROR_REASON_";

/** What the runtime needs from a service's reason vocabulary. */
export interface ReasonCatalog {
  /** The wire reason the runtime sends for one of its own reasons. */
  runtime(reason: RuntimeReason): string;
  /** Every wire reason the service's enum defines. */
  readonly names: ReadonlySet<string>;
}

/** A service's reason vocabulary, typed by its generated `ErrorReason` enum. */
export interface ErrorReasons<E extends number> extends ReasonCatalog {
  /** The wire reason of an enum value: its name without `ERROR_REASON_`. */
  of(value: E): string;
}

/** A gRPC code and the enum value sent with it: one row of a service's status map. */
export interface StatusMapping<E extends number> {
  /** The gRPC status code. */
  readonly code: status;
  /** The `ErrorReason` value whose name becomes `ErrorInfo.reason`. */
  readonly reason: E;
  /** When set, the call may be retried unchanged after this many ms (google.rpc.RetryInfo). */
  readonly retryDelayMs?: number;
}

/**
 * Builds the catalog of `schema` (a generated `ErrorReason` enum) with the service's choice of
 * value for each runtime reason; a value the enum lacks stops start-up.
 */
export function reasonCatalog<E extends number>(schema: GenEnum<E>, runtime: Readonly<Record<RuntimeReason, E>>): ErrorReasons<E> {
  const byNumber = new Map<number, string>();
  for (const value of schema.values) {
    if (value.number !== 0) byNumber.set(value.number, value.name.startsWith(PREFIX) ? value.name.slice(PREFIX.length) : value.name);
  }
  const of = (value: E): string => {
    const name = byNumber.get(value);
    if (name === undefined) throw new RuntimeError("CONFIG_INVALID", `${schema.typeName} has no reason numbered ${value}`);
    return name;
  };
  const runtimeNames = new Map(RUNTIME_REASONS.map((reason) => [reason, of(runtime[reason])]));
  return {
    of,
    runtime: (reason) => runtimeNames.get(reason) ?? of(runtime[reason]),
    names: new Set(byNumber.values()),
  };
}
