import { Gauge, type Registry } from "@crs/runtime";
import type { ProjectHost } from "../projects/index.js";
import type { WatchRegistry } from "./watch-handlers.js";

/**
 * Gauges of the open watches, read at every scrape: listeners on the commit feed (one per open
 * watch; one that outlives its stream is a leak) and the messages they hold for their consumers
 * (bounded per watch, so a slow consumer cannot grow the server's memory).
 */
export function watchMetrics(registry: Registry, host: ProjectHost, watches: WatchRegistry): void {
  new Gauge({
    name: "crs_state_watch_listeners",
    help: "Commit listeners registered by open watches.",
    registers: [registry],
    collect() {
      this.set(host.commits.listeners);
    },
  });
  new Gauge({
    name: "crs_state_watch_queued_messages",
    help: "Messages open watches hold for consumers that have not read them yet.",
    registers: [registry],
    collect() {
      let queued = 0;
      for (const queue of watches.open) queued += queue.size;
      this.set(queued);
    },
  });
}
