import { pino, type Logger, type LevelWithSilent } from "pino";

export type { Logger };

/**
 * Bytes of log lines held while stdout does not take them (a log reader that stopped reading):
 * lines beyond are dropped until it reads again, so a stalled collector cannot grow the process.
 */
const LOG_BUFFER_BYTES = 16 * 1024 * 1024;

/** How long the exit waits for a stalled log reader to take the lines still held, before dropping them. */
export const LOG_EXIT_FLUSH_MS = 2000;

type LogStream = ReturnType<typeof pino.destination>;

// Streams of the loggers made here, flushed at exit within LOG_EXIT_FLUSH_MS.
const streams = new Set<LogStream>();
// When the exit's flush gives up on a full pipe; until the exit, a full pipe is retried for good,
// without blocking (a write is tried again every tenth of a second).
let exitDeadline = Number.POSITIVE_INFINITY;

// pino flushes its streams at exit synchronously, retrying a full pipe for as long as it stays full:
// a log reader that stopped reading held the exit forever, past SIGTERM. This runs first and
// flushes within the bound; a stream it could not flush is then left alone by pino's own hook.
function flushAtExit(): void {
  exitDeadline = Date.now() + LOG_EXIT_FLUSH_MS;
  for (const stream of streams) {
    try {
      stream.flushSync();
    } catch {
      // The reader did not take the lines in time (or the stream is gone): they are dropped.
      stream.flushSync = () => undefined;
    }
  }
}

/** A JSON logger on stdout tagged with the service name. Bodies are never logged. */
export function createLogger(service: string, level: LevelWithSilent = "info"): Logger {
  if (streams.size === 0) {
    process.removeListener("exit", flushAtExit);
    process.prependListener("exit", flushAtExit);
  }
  const stream = pino.destination({
    dest: 1,
    sync: false,
    maxLength: LOG_BUFFER_BYTES,
    retryEAGAIN: () => Date.now() < exitDeadline,
  });
  streams.add(stream);
  stream.once("close", () => streams.delete(stream));
  return pino({ level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime }, stream);
}
