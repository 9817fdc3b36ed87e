import { setTimeout as sleep } from "node:timers/promises";
import { credentials, status } from "@grpc/grpc-js";
import { EchoService, ErrorReason, ErrorReasonSchema, file_crs_testing_v1_echo } from "@crs/contracts/gen/crs/testing/v1/echo_pb";
import { createClient, type TypedClient } from "../adapter/client.js";
import type { ServiceHandlers } from "../adapter/handler-types.js";
import { RpcError } from "../errors.js";
import { createLogger } from "../logging/logger.js";
import { GrpcServer } from "../server/grpc-server.js";
import { reasonCatalog } from "../status/reasons.js";
import type { ServerOptions } from "../server/server-options.js";

/** The echo service's reasons, mapped as a production service maps its own. */
export const echoReasons = reasonCatalog(ErrorReasonSchema, {
  INVALID_ARGUMENT: ErrorReason.INVALID_ARGUMENT,
  LIMIT_EXCEEDED: ErrorReason.LIMIT_EXCEEDED,
  UNAUTHENTICATED: ErrorReason.UNAUTHENTICATED,
  SHUTTING_DOWN: ErrorReason.SHUTTING_DOWN,
  CANCELLED: ErrorReason.CANCELLED,
  DEADLINE_EXCEEDED: ErrorReason.DEADLINE_EXCEEDED,
  INTERNAL: ErrorReason.INTERNAL,
  UNIMPLEMENTED: ErrorReason.UNIMPLEMENTED,
});

/** What the echo handlers saw, so tests can assert on server-side behaviour. */
export interface EchoObservations {
  /** Reasons of the abort signals handlers observed. */
  readonly aborts: unknown[];
}

/** Echo handlers exercising every call kind; `fail_reason` makes a call fail with that reason. */
export function echoHandlers(seen: EchoObservations): ServiceHandlers<typeof EchoService.method> {
  const failIf = (reason: string): void => {
    if (reason === "PLAIN_ERROR") throw new TypeError("an internal detail that must not reach the client");
    if (reason !== "") throw new RpcError(status.FAILED_PRECONDITION, reason, `echo refused: ${reason}`, { hint: "test" });
  };
  return {
    async echo(request, ctx) {
      failIf(request.failReason);
      if (request.delayMs > 0) {
        await sleep(request.delayMs, undefined, { signal: ctx.signal }).catch(() => seen.aborts.push(ctx.signal.reason));
      }
      return { message: request.message };
    },
    async *echoStream(request, ctx) {
      ctx.signal.addEventListener("abort", () => seen.aborts.push(ctx.signal.reason), { once: true });
      for (let index = 0; request.count === 0 || index < request.count; index++) {
        if (ctx.signal.aborted) return;
        yield { message: request.message, index };
        await sleep(request.intervalMs, undefined, { signal: ctx.signal }).catch(() => undefined);
      }
    },
    async echoCollect(requests) {
      const pieces: string[] = [];
      for await (const piece of requests) {
        failIf(piece.failReason);
        pieces.push(piece.message);
      }
      return { message: pieces.join(" "), count: pieces.length };
    },
    async *echoChat(requests) {
      let index = 0;
      for await (const request of requests) yield { message: request.message, index: index++ };
    },
  };
}

/** A listening echo server on a free loopback port, with a client bound to it. */
export async function startEchoServer(options: Partial<ServerOptions> = {}, handlers?: ServiceHandlers<typeof EchoService.method>) {
  const seen: EchoObservations = { aborts: [] };
  const server = new GrpcServer({
    name: "echo",
    address: "127.0.0.1:0",
    reasons: echoReasons,
    logger: createLogger("echo", "silent"),
    reflectionFiles: [file_crs_testing_v1_echo],
    ...options,
  });
  server.add(EchoService, handlers ?? echoHandlers(seen));
  const port = await server.listen();
  const client: TypedClient<typeof EchoService.method> = createClient(EchoService, `127.0.0.1:${port}`, {
    credentials: credentials.createInsecure(),
  });
  return { server, port, client, seen };
}
