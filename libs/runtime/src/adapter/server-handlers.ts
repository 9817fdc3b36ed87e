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
import { create, toBinary, type DescMethod, type DescService } from "@bufbuild/protobuf";
import type { CallContext } from "./handler-types.js";
import type { CallTracker } from "./call-tracker.js";
import { asBuffer, methodPath, serverStreams } from "./service-definition.js";
import { requireDecoded } from "./request-decoding.js";
import { deadlineOf, requestStream } from "./request-stream.js";
import { isAbort, normalizeError, type ErrorMapper } from "../status/normalize.js";
import type { ReasonCatalog } from "../status/reasons.js";
import { toServiceError } from "../status/error-details.js";
import { RpcError, RuntimeRpcError } from "../errors.js";

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

function contextOf(call: AnyCall, method: DescMethod, controller: AbortController): CallContext {
  const deadline = call.getDeadline();
  return {
    method: methodPath(method),
    metadata: call.metadata,
    peer: call.getPeer(),
    deadline: deadline instanceof Date ? deadline : Number.isFinite(deadline) ? new Date(deadline) : undefined,
    signal: controller.signal,
  };
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

// A client enforcing its own deadline cancels slightly before the server's copy of it expires
// (the server's deadline counts from when the request arrived), so a cancel this close counts.
const DEADLINE_SLACK_MS = 100;

// grpc-js reports an expired deadline as a cancellation; the deadline tells the two apart.
function cancelReason(call: AnyCall): RpcError {
  const at = deadlineOf(call);
  return Number.isFinite(at) && Date.now() >= at - DEADLINE_SLACK_MS
    ? new RuntimeRpcError(status.DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED", "the call's deadline passed")
    : new RuntimeRpcError(status.CANCELLED, "CANCELLED", "call cancelled by the client");
}

/** Adapts one typed handler to the grpc-js handler of its method kind. */
function wrapMethod(method: DescMethod, handler: Handler, options: WrapOptions): UntypedHandleCall {
  const run = async (
    call: AnyCall,
    invoke: (ctx: CallContext) => Promise<unknown>,
    finish: (error: unknown, value?: unknown) => void,
  ): Promise<void> => {
    const controller = new AbortController();
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
    const leave = options.tracker.enter(controller, serverStreams(method), fail);
    (call as NodeJS.EventEmitter).on("cancelled", () => controller.abort(cancelReason(call)));
    try {
      const denied = options.authorize?.(call.metadata);
      if (denied !== undefined) throw denied;
      const value = await invoke(contextOf(call, method, controller));
      // An answer to a call that was cancelled, timed out or stopped meanwhile reaches nobody.
      const reason = controller.signal.reason;
      if (controller.signal.aborted && reason instanceof RpcError) throw reason;
      if (!answered) {
        answered = true;
        finish(null, value);
        end?.({ code: status.OK, reason: "" });
      }
    } catch (thrown) {
      // Once the call is aborted, what the handler throws because of it is that abort.
      const reason = controller.signal.reason;
      fail(controller.signal.aborted && reason instanceof RpcError && isAbort(thrown) ? reason : thrown);
    } finally {
      leave();
    }
  };
  const limit = options.maxResponseBytes;
  // Encoding here rather than in grpc-js sends a response that cannot be encoded (a value out of
  // range, a message over the limit) through the error pipeline: logged, counted, with ErrorInfo.
  const encode = (value: unknown): Buffer => {
    const bytes = toBinary(method.output, create(method.output, value as never));
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
    if (value === undefined || value === null) throw new TypeError(`${methodPath(method)}: the handler returned no response`);
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
          async (ctx) => answer(await handler(requireDecoded(call.request), ctx)),
          (error, value) => (error ? callback(error as never) : callback(null, value)),
        );
    case "client_streaming":
      return (call: ServerReadableStream<unknown, unknown>, callback: sendUnaryData<unknown>) =>
        void run(
          call,
          async (ctx) => answer(await handler(requestStream(call, ctx.signal), ctx)),
          (error, value) => (error ? callback(error as never) : callback(null, value)),
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

/** grpc-js handlers for the methods of `service` that have a typed handler. */
export function wrapHandlers(
  service: DescService,
  handlers: Record<string, unknown>,
  options: WrapOptions,
): Record<string, UntypedHandleCall> {
  const out: Record<string, UntypedHandleCall> = {};
  for (const method of service.methods) {
    const handler = handlers[method.localName];
    if (typeof handler === "function") out[method.localName] = wrapMethod(method, handler.bind(handlers) as Handler, options);
  }
  return out;
}
