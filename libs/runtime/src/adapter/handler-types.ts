import type { Metadata } from "@grpc/grpc-js";
import type { MessageInitShape, MessageShape } from "@bufbuild/protobuf";
import type { GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import type { EncodedMessage } from "./encoded-message.js";

/** What a handler knows about the call it serves. */
export interface CallContext {
  /** The full method path, `/<package>.<Service>/<Method>`. */
  readonly method: string;
  /** Request headers sent by the client. */
  readonly metadata: Metadata;
  /** The client's address. */
  readonly peer: string;
  /** The client's deadline, or undefined when it set none. */
  readonly deadline: Date | undefined;
  /** Aborted when the client cancels, the deadline passes, the server shuts down, or `end` is called. */
  readonly signal: AbortSignal;
  /**
   * Ends the call with `error` now, even while a streamed message waits for the client to read it:
   * how a stream refuses to buffer without bound for a consumer that stopped reading.
   */
  end(error: Error): void;
}

type Method = GenServiceMethods[string];
type In<M extends Method> = MessageShape<M["input"]>;
// An answer is a message (or its init shape), or the message already encoded.
type Out<M extends Method> = MessageInitShape<M["output"]> | EncodedMessage<M["output"]>;

/** A unary handler: one request, one answer. */
export type UnaryHandler<M extends Method> = (request: In<M>, ctx: CallContext) => Promise<Out<M>>;
/** A server-streaming handler: one request, answers yielded until done or aborted. */
export type ServerStreamHandler<M extends Method> = (request: In<M>, ctx: CallContext) => AsyncIterable<Out<M>>;
/** A client-streaming handler: requests consumed as they arrive, one answer. */
export type ClientStreamHandler<M extends Method> = (requests: AsyncIterable<In<M>>, ctx: CallContext) => Promise<Out<M>>;
/** A bidirectional handler: requests consumed and answers yielded concurrently. */
export type BidiStreamHandler<M extends Method> = (requests: AsyncIterable<In<M>>, ctx: CallContext) => AsyncIterable<Out<M>>;

/** The handler type a method of the given kind needs. */
export type HandlerFor<M extends Method> = M["methodKind"] extends "unary"
  ? UnaryHandler<M>
  : M["methodKind"] extends "server_streaming"
    ? ServerStreamHandler<M>
    : M["methodKind"] extends "client_streaming"
      ? ClientStreamHandler<M>
      : BidiStreamHandler<M>;

/**
 * Handlers for a service, keyed by the method's local name. Methods left out answer UNIMPLEMENTED,
 * the standard gRPC answer for a method this server does not serve.
 */
export type ServiceHandlers<S extends GenServiceMethods> = { [K in keyof S]?: HandlerFor<S[K]> };
