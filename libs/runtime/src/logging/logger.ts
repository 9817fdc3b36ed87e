import { pino, type Logger, type LevelWithSilent } from "pino";

export type { Logger };

/** A JSON logger on stdout tagged with the service name. Bodies are never logged. */
export function createLogger(service: string, level: LevelWithSilent = "info"): Logger {
  return pino({ level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime });
}
