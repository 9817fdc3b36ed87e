import { setTimeout as sleep } from "node:timers/promises";
import { Metadata, status, type ServerDuplexStream, type ServerReadableStream } from "@grpc/grpc-js";
import { RuntimeRpcError } from "../errors.js";
import { requireDecoded } from "./request-decoding.js";

/** The receiving half of a client-stream or bidi call. */
export type RequestSource = ServerReadableStream<unknown, unknown> | ServerDuplexStream<unknown, unknown>;

/**
 * A client enforcing its own deadline cancels slightly before the server's copy of it expires
 * (the server's deadline counts from when the request arrived), so a cancel or an end of stream
 * this close to the deadline is taken as the deadline's.
 */
export const DEADLINE_SLACK_MS = 100;

/** When the call's deadline falls, in epoch milliseconds (NaN or Infinity when there is none). */
export function deadlineOf(call: { getDeadline(): Date | number }): number {
  const deadline = call.getDeadline();
  return deadline instanceof Date ? deadline.getTime() : deadline;
}

// Rejects with the signal's reason once it aborts; observed by the race that uses it.
function abortion(signal: AbortSignal): { promise: Promise<never>; release: () => void } {
  let onAbort = (): void => undefined;
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  promise.catch(() => undefined);
  return { promise, release: () => signal.removeEventListener("abort", onAbort) };
}

/**
 * The requests of a client-stream or bidi call, as handed to handlers. It ends normally only when
 * the client half-closed: when the call is cancelled, its deadline passes or the server aborts it,
 * the iteration throws that abort (even while a message is awaited), so a truncated upload is never
 * taken for a complete one.
 */
export async function* requestStream(call: RequestSource, signal: AbortSignal): AsyncGenerator<unknown, void, undefined> {
  // Iterating a Readable destroys it when the loop ends, which would drop the call's status;
  // the call must stay open until the handler answers.
  const iterator = call.iterator({ destroyOnReturn: false })[Symbol.asyncIterator]();
  const aborted = abortion(signal);
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted.promise]);
      if (next.done === true) break;
      yield requireDecoded(next.value);
    }
    // grpc-js ends the request stream the same way when the client half-closes and when the call
    // is torn down (client cancel, expired deadline); it only notices a teardown when it next
    // writes, and then reports the cancel a tick later. Sending the response headers now is that
    // write, and the next turn of the event loop has the answer. (A Node client that cancels
    // half-closes before it resets, so to the server its cancel looks like a complete stream
    // until the reset arrives; only a declared size or hash in the content can tell those apart.)
    call.sendMetadata(new Metadata());
    await new Promise((resolve) => setImmediate(resolve));
    // An end this close to the deadline may be the teardown of a client that gave up, whose cancel
    // a busy server has not read yet: the deadline itself, at most the slack away, decides.
    const left = deadlineOf(call) - Date.now();
    if (left > 0 && left < DEADLINE_SLACK_MS && !signal.aborted && !call.cancelled) await Promise.race([sleep(left), aborted.promise]);
    if (signal.aborted) throw signal.reason;
    if (call.cancelled) throw new RuntimeRpcError(status.CANCELLED, "CANCELLED", "call cancelled by the client");
    if (Date.now() >= deadlineOf(call))
      throw new RuntimeRpcError(status.DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED", "the call's deadline passed");
  } catch (error) {
    // A stream destroyed under the iterator (premature close) is the abort that destroyed it.
    throw signal.aborted ? signal.reason : error;
  } finally {
    aborted.release();
    // A pending read cannot be returned early; after an abort the transport ends the call.
    if (!signal.aborted) await iterator.return?.();
  }
}
