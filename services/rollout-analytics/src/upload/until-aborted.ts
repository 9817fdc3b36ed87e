/**
 * Iterates `source` until it ends or `signal` aborts; an abort rejects at once, even while a
 * message is awaited, with the signal's reason.
 */
export async function* untilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  // The race below observes the rejection; this keeps an unobserved one from being reported.
  aborted.catch(() => undefined);
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done === true) return;
      yield next.value;
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    // A pending read cannot be returned early; after an abort the transport ends the call.
    if (!signal.aborted) await iterator.return?.();
  }
}
