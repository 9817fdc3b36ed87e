import type { ProjectHost } from "../projects/index.js";

/** What the crs.state.v1 handlers need from the running server. */
export interface HandlerDeps {
  /** The project store. */
  readonly host: ProjectHost;
  /** High-resolution clock for reported durations, in milliseconds. */
  readonly elapsed: () => number;
  /** Largest response the server sends, in bytes; listings of large rows page well under it. */
  readonly maxMessageBytes: number;
  /** Largest document ImportState takes, in bytes. */
  readonly maxImportBytes: number;
}
