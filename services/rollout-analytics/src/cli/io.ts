/** Where the CLI writes: report output, messages, and whether stderr is a terminal (for the progress bar). */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readonly errIsTty: boolean;
  /** Working directory relative paths are read against. */
  readonly cwd: string;
  /** Standard input, read as a stream of chunks (only when a command is given `-`). */
  stdin(): AsyncIterable<Uint8Array>;
}

/** The process's own streams. */
export function processIo(): CliIo {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    errIsTty: process.stderr.isTTY === true,
    cwd: process.cwd(),
    stdin: () => process.stdin,
  };
}
