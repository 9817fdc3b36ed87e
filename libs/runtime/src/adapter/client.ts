import {
  Metadata,
  makeGenericClientConstructor,
  type CallOptions,
  type ChannelCredentials,
  type ChannelOptions,
  type Client,
  type ClientDuplexStream,
  type ClientUnaryCall,
  type ClientReadableStream,
  type ClientWritableStream,
  type ServiceError,
} from "@grpc/grpc-js";
import { create, type DescMethod, type DescService, type MessageInitShape, type MessageShape } from "@bufbuild/protobuf";
import type { GenService, GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import { toGrpcServiceDefinition } from "./service-definition.js";

/** Per-call options of a typed client method. */
export interface ClientCallOptions {
  /** Absolute deadline, or milliseconds from now. */
  readonly deadline?: Date | number | undefined;
  /** Cancels the call when aborted. */
  readonly signal?: AbortSignal | undefined;
  /** Request headers. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

type Method = GenServiceMethods[string];
type Req<M extends Method> = MessageInitShape<M["input"]>;
type Res<M extends Method> = MessageShape<M["output"]>;

/** The promise/async-iterable shape of a method of the given kind. */
export type ClientMethod<M extends Method> = M["methodKind"] extends "unary"
  ? (request: Req<M>, options?: ClientCallOptions) => Promise<Res<M>>
  : M["methodKind"] extends "server_streaming"
    ? (request: Req<M>, options?: ClientCallOptions) => AsyncIterable<Res<M>>
    : M["methodKind"] extends "client_streaming"
      ? (requests: AsyncIterable<Req<M>> | Iterable<Req<M>>, options?: ClientCallOptions) => Promise<Res<M>>
      : (requests: AsyncIterable<Req<M>> | Iterable<Req<M>>, options?: ClientCallOptions) => AsyncIterable<Res<M>>;

/** A typed client of `S`; `close()` releases its channel. */
export type TypedClient<S extends GenServiceMethods> = { [K in keyof S]: ClientMethod<S[K]> } & { close(): void };

function callArgs(options: ClientCallOptions | undefined): { metadata: Metadata; callOptions: CallOptions } {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(options?.headers ?? {})) metadata.set(key, value);
  const deadline = options?.deadline;
  const callOptions: CallOptions =
    deadline === undefined ? {} : { deadline: typeof deadline === "number" ? Date.now() + deadline : deadline };
  return { metadata, callOptions };
}

// The listener goes when the call ends, so a signal shared by many calls does not collect them.
function bindSignal(call: { cancel(): void; once(event: "status", listener: () => void): unknown }, signal: AbortSignal | undefined): void {
  if (signal === undefined) return;
  if (signal.aborted) {
    call.cancel();
    return;
  }
  const cancel = (): void => call.cancel();
  signal.addEventListener("abort", cancel, { once: true });
  call.once("status", () => signal.removeEventListener("abort", cancel));
}

// Feeds requests into a client-side stream, honouring backpressure, then half-closes. A call that
// ends first (the server answered or failed) never drains, so its status also stops the feed and
// returns the caller's iterator.
async function pump(
  stream: ClientWritableStream<unknown> | ClientDuplexStream<unknown, unknown>,
  method: DescMethod,
  requests: AsyncIterable<unknown> | Iterable<unknown>,
): Promise<void> {
  let ended = false;
  let wake = (): void => undefined;
  const onStatus = (): void => {
    ended = true;
    wake();
  };
  stream.once("status", onStatus);
  try {
    for await (const request of requests) {
      if (ended) return;
      if (!stream.write(create(method.input, request as never))) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          stream.once("drain", resolve);
        });
        stream.off("drain", wake);
        if (ended) return;
      }
    }
    stream.end();
  } catch (error) {
    stream.cancel();
    throw error;
  } finally {
    stream.off("status", onStatus);
  }
}

// A caller that stops iterating early (break, return, a throw in its loop) cancels the call;
// otherwise it would stay open on the server with nobody reading it.
async function* messagesOf(call: ClientReadableStream<unknown> | ClientDuplexStream<unknown, unknown>): AsyncGenerator<unknown> {
  let finished = false;
  try {
    for await (const message of call) yield message;
    finished = true;
  } finally {
    if (!finished) call.cancel();
  }
}

function bindMethod(client: Client, method: DescMethod): unknown {
  const raw = (client as unknown as Record<string, (...args: unknown[]) => unknown>)[method.localName]!.bind(client);
  switch (method.methodKind) {
    case "unary":
      return (request: unknown, options?: ClientCallOptions) => {
        const { metadata, callOptions } = callArgs(options);
        return new Promise((resolve, reject) => {
          const call = raw(create(method.input, request as never), metadata, callOptions, (error: ServiceError | null, value: unknown) =>
            error ? reject(error) : resolve(value),
          ) as ClientUnaryCall;
          bindSignal(call, options?.signal);
        });
      };
    case "server_streaming":
      return (request: unknown, options?: ClientCallOptions) => {
        const { metadata, callOptions } = callArgs(options);
        const call = raw(create(method.input, request as never), metadata, callOptions) as ClientReadableStream<unknown>;
        bindSignal(call, options?.signal);
        return messagesOf(call);
      };
    case "client_streaming":
      return (requests: AsyncIterable<unknown>, options?: ClientCallOptions) => {
        const { metadata, callOptions } = callArgs(options);
        return new Promise((resolve, reject) => {
          const call = raw(metadata, callOptions, (error: ServiceError | null, value: unknown) =>
            error ? reject(error) : resolve(value),
          ) as ClientWritableStream<unknown>;
          bindSignal(call, options?.signal);
          pump(call, method, requests).catch(reject);
        });
      };
    case "bidi_streaming":
      return (requests: AsyncIterable<unknown>, options?: ClientCallOptions) => {
        const { metadata, callOptions } = callArgs(options);
        const call = raw(metadata, callOptions) as ClientDuplexStream<unknown, unknown>;
        bindSignal(call, options?.signal);
        pump(call, method, requests).catch((error: unknown) => call.destroy(error as Error));
        return messagesOf(call);
      };
  }
}

/** Options for a typed client. */
export interface ClientOptions {
  /** Channel credentials; insecure when omitted. */
  readonly credentials: ChannelCredentials;
  /** grpc-js channel options. */
  readonly channelOptions?: ChannelOptions | undefined;
}

/** A typed promise/async-iterable client of `service` at `address` (host:port). */
export function createClient<S extends GenServiceMethods>(service: GenService<S>, address: string, options: ClientOptions): TypedClient<S> {
  const desc = service as unknown as DescService;
  const Constructor = makeGenericClientConstructor(toGrpcServiceDefinition(desc), desc.typeName);
  const client = new Constructor(address, options.credentials, options.channelOptions);
  const typed: Record<string, unknown> = { close: () => client.close() };
  for (const method of desc.methods) typed[method.localName] = bindMethod(client, method);
  return typed as TypedClient<S>;
}
