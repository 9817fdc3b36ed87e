import {
  status,
  type Metadata,
  type ServerDuplexStream,
  type ServerReadableStream,
  type ServerUnaryCall,
  type ServerWritableStream,
  type UntypedHandleCall,
  type sendUnaryData,
} from "@grpc/grpc-js";
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import type { CallContext } from "./handler-types.js";
import type { CallTracker } from "./call-tracker.js";
import { EncodedMessage } from "./encoded-message.js";
import { encodeMessage } from "./message-encoder.js";
import { asBuffer, methodPath, serverStreams } from "./service-definition.js";
import { requireDecoded } from "./request-decoding.js";
import { DEADLINE_SLACK_MS, deadlineOf, requestStream } from "./request-stream.js";
import { isAbort, normalizeError, type ErrorMapper } from "../status/normalize.js";
import type { ReasonCatalog } from "../status/reasons.js";
import { toServiceError } from "../status/error-details.js";
import { type RpcError, RuntimeRpcError } from "../errors.js";

/** Observes each call's start and end, for metrics and logs. */
export type CallObserver = (method: DescMethod) => (outcome: { code: status; reason: string; error?: unknown }) => void;

/** Everything the wrapper needs besides the handler. */
export interface WrapOptions {
  /** The proto package reported as `ErrorInfo.domain`. */
  readonly domain: string;
  /** The serving service's reasons, which the runtime's own failures are sent as. */
  readonly reasons: ReasonCatalog;
  /** The service's mapping of its own errors. */
  readonly mapError?: ErrorMapper | undefined;
  /** Rejects a call before the handler runs (authentication); undefined lets it through. */
  readonly authorize?: ((metadata: Metadata) => RpcError | undefined) | undefined;
  /** Called at start and end of each call. */
  readonly observe?: CallObserver | undefined;
  /** In-flight calls, so shutdown can drain them. */
  readonly tracker: CallTracker;
  /** Largest response message sent, in bytes; a larger one fails the call with RESOURCE_EXHAUSTED. */
  readonly maxResponseBytes: number;
}

type AnyCall =
  | ServerUnaryCall<unknown, unknown>
  | ServerWritableStream<unknown, unknown>
  | ServerReadableStream<unknown, unknown>
  | ServerDuplexStream<unknown, unknown>;
type Handler = (input: unknown, ctx: CallContext) => unknown;

/**
 * The abort side of one call. Its AbortController is made only when something asks for the
 * signal (most unary handlers never do), and an abort before that is kept for the signal made later.
 */
class CallAbort {
  #controller: AbortController | undefined;
  #reason: unknown;
  #aborted = false;

  /** Aborted when the client cancels, the deadline passes, or the server shuts down. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Whether the call was aborted. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** Why the call was aborted, once it was. */
  get reason(): unknown {
    return this.#reason;
  }

  /** Aborts the call with `reason`; later aborts keep the first reason. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

// What a handler knows about its call. The peer is read at once (grpc-js answers "unknown" once
// the connection has closed); the deadline, fixed for the call, only when a handler asks.
class LazyCallContext implements CallContext {
  readonly peer: string;
  readonly #call: AnyCall;
  readonly #abort: CallAbort;
  #deadline: Date | undefined | null = null;

  constructor(
    readonly method: string,
    call: AnyCall,
    abort: CallAbort,
  ) {
    this.peer = call.getPeer();
    this.#call = call;
    this.#abort = abort;
  }

  get metadata(): Metadata {
    return this.#call.metadata;
  }

  get deadline(): Date | undefined {
    if (this.#deadline === null) {
      const deadline = this.#call.getDeadline();
      this.#deadline = deadline instanceof Date ? deadline : Number.isFinite(deadline) ? new Date(deadline) : undefined;
    }
    return this.#deadline;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  end(error: Error): void {
    this.#abort.abort(error);
  }
}

/** The writing half of a server stream, as both streaming call kinds expose it. */
interface MessageSink {
  write(message: unknown): boolean;
  once(event: "drain", listener: () => void): unknown;
  off(event: "drain", listener: () => void): unknown;
}

// Writes one message and waits for the transport to drain when its buffer is full.
async function write(call: MessageSink, message: unknown, signal: AbortSignal): Promise<void> {
  if (call.write(message)) return;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      call.off("drain", done);
      signal.removeEventListener("abort", done);
      resolve();
    };
    call.once("drain", done);
    signal.addEventListener("abort", done, { once: true });
  });
}

// grpc-js reports an expired deadline as a cancellation; the deadline tells the two apart.
function cancelReason(call: AnyCall): RpcError {
  const at = deadlineOf(call);
  return Number.isFinite(at) && Date.now() >= at - DEADLINE_SLACK_MS
    ? new RuntimeRpcError(status.DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED", "the call's deadline passed")
    : new RuntimeRpcError(status.CANCELLED, "CANCELLED", "call cancelled by the client");
}

/** Adapts one typed handler to the grpc-js handler of its method kind. */
function wrapMethod(method: DescMethod, handler: Handler, options: WrapOptions): UntypedHandleCall {
  const path = methodPath(method);
  const streaming = serverStreams(method);
  // `invoke` runs the handler; `respond` turns what it resolved to into the answer `finish` sends.
  const run = async (
    call: AnyCall,
    invoke: (ctx: CallContext) => unknown,
    finish: (error: unknown, value?: unknown) => void,
    respond?: (value: unknown) => unknown,
  ): Promise<void> => {
    const abort = new CallAbort();
    const end = options.observe?.(method);
    // The call is answered once: by its handler, or by shutdown when the handler outlives the drain.
    let answered = false;
    const fail = (error: unknown): void => {
      if (answered) return;
      answered = true;
      const { detail, internal } = normalizeError(error, options);
      finish(toServiceError(detail));
      end?.({ code: detail.code, reason: detail.reason, ...(internal ? { error } : {}) });
    };
    const leave = options.tracker.enter(abort, streaming, fail);
    // grpc-js also emits "cancelled" when a call it has answered closes: only a call still being
    // served is aborted, so a finished call costs no abort error.
    const onCancel = (): void => {
      if (!answered) abort.abort(cancelReason(call));
    };
    const events = call as NodeJS.EventEmitter;
    events.on("cancelled", onCancel);
    try {
      const denied = options.authorize?.(call.metadata);
      if (denied !== undefined) throw denied;
      const resolved = await invoke(new LazyCallContext(path, call, abort));
      const value = respond === undefined ? resolved : respond(resolved);
      // An answer to a call that was cancelled, timed out, stopped or ended by its handler meanwhile
      // reaches nobody: the call ends with why it was aborted.
      if (abort.aborted) throw abort.reason;
      if (!answered) {
        answered = true;
        finish(null, value);
        end?.({ code: status.OK, reason: "" });
      }
    } catch (thrown) {
      // Once the call is aborted, what the handler throws because of it is that abort.
      fail(abort.aborted && isAbort(thrown) ? abort.reason : thrown);
    } finally {
      events.off("cancelled", onCancel);
      leave();
    }
  };
  const limit = options.maxResponseBytes;
  // Encoding here rather than in grpc-js sends a response that cannot be encoded (a value out of
  // range, a message over the limit) through the error pipeline: logged, counted, with ErrorInfo.
  const encode = (value: unknown): Buffer => {
    let bytes: Uint8Array;
    if (value instanceof EncodedMessage) {
      if (value.schema.typeName !== method.output.typeName)
        throw new TypeError(`${path}: the handler answered with an encoded ${value.schema.typeName}, not ${method.output.typeName}`);
      bytes = value.bytes;
    } else {
      // A handler's answer is a message or its init shape; both encode alike (no message is built).
      bytes = encodeMessage(method.output, value as object);
    }
    if (bytes.byteLength > limit) {
      throw new RuntimeRpcError(
        status.RESOURCE_EXHAUSTED,
        "LIMIT_EXCEEDED",
        `the response has ${bytes.byteLength} bytes; this server sends at most ${limit}`,
        { limit: String(limit) },
      );
    }
    return asBuffer(bytes);
  };
  // A handler that forgot its answer is a bug: an empty success would pass defaults off as data.
  const answer = (value: unknown): Buffer => {
    if (value === undefined || value === null) throw new TypeError(`${path}: the handler returned no response`);
    return encode(value);
  };
  const streamOut = async (call: MessageSink, source: AsyncIterable<unknown>, signal: AbortSignal): Promise<void> => {
    for await (const message of source) {
      if (signal.aborted) break;
      await write(call, encode(message), signal);
    }
  };
  switch (method.methodKind) {
    case "unary":
      return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) =>
        void run(
          call,
          (ctx) => handler(requireDecoded(call.request), ctx),
          (error, value) => (error ? callback(error as never) : callback(null, value)),
          answer,
        );
    case "client_streaming":
      return (call: ServerReadableStream<unknown, unknown>, callback: sendUnaryData<unknown>) =>
        void run(
          call,
          (ctx) => handler(requestStream(call, ctx.signal), ctx),
          (error, value) => (error ? callback(error as never) : callback(null, value)),
          answer,
        );
    case "server_streaming":
      return (call: ServerWritableStream<unknown, unknown>) =>
        void run(
          call,
          (ctx) => streamOut(call, handler(requireDecoded(call.request), ctx) as AsyncIterable<unknown>, ctx.signal),
          (error) => (error ? call.emit("error", error) : call.end()),
        );
    case "bidi_streaming":
      return (call: ServerDuplexStream<unknown, unknown>) =>
        void run(
          call,
          (ctx) => streamOut(call, handler(requestStream(call, ctx.signal), ctx) as AsyncIterable<unknown>, ctx.signal),
          (error) => (error ? call.emit("error", error) : call.end()),
        );
  }
}

// Answers a method of the contract that has no handler. Through the wrapper, unlike grpc-js's own
// bare answer, the call passes authentication first, is counted and logged like any other, and
// carries ErrorInfo with the service's UNIMPLEMENTED reason.
const unimplemented =
  (method: DescMethod): Handler =>
  () => {
    throw new RuntimeRpcError(
      status.UNIMPLEMENTED,
      "UNIMPLEMENTED",
      `${method.parent.typeName}.${method.name} is not served by this server yet`,
    );
  };

/** grpc-js handlers for every method of `service`; one without a typed handler answers UNIMPLEMENTED. */
export function wrapHandlers(
  service: DescService,
  handlers: Record<string, unknown>,
  options: WrapOptions,
): Record<string, UntypedHandleCall> {
  const out: Record<string, UntypedHandleCall> = {};
  for (const method of service.methods) {
    const handler = handlers[method.localName];
    const typed = typeof handler === "function" ? (handler.bind(handlers) as Handler) : unimplemented(method);
    out[method.localName] = wrapMethod(method, typed, options);
  }
  return out;
}
