/**
 * What the project host sees, made visible to operators: Prometheus metrics on the service's
 * /metrics registry (journal batches and sync latency, loads and unloads, repairs, skipped
 * corruption, projects in DATA_LOSS) and one structured log line per notice.
 */

import { Counter, Gauge, Histogram, type Logger, type Registry } from "@crs/runtime";
import type { BatchReport } from "./journal/group-commit.js";
import type { HostCounters, HostEvents, StoreHost, UnloadReason } from "./projects/index.js";

type Level = "debug" | "info" | "warn" | "error";

/** Log level per host notice: routine tenancy at debug, repairs at warn, lost data and a failing disk at error. */
const NOTICE_LEVELS: Readonly<Record<string, Level>> = {
  "project-loaded": "debug",
  "project-unloaded": "debug",
  "cut-torn-tail": "warn",
  "cut-after-corruption": "warn",
  "snapshot-passed-over": "warn",
  "project-data-loss": "error",
  "store-not-writable": "error",
  "store-writable": "info",
};

const UNLOAD_REASONS: readonly UnloadReason[] = ["idle", "capacity", "write_failed", "deleted"];

/** The observers to open the host with, and `watch` to call once it is open. */
export interface HostTelemetry {
  /** Pass to the host: batches feed the histograms, notices the log. */
  readonly events: HostEvents;
  /** Lets the counters and gauges read `host` at every scrape. */
  watch(host: StoreHost): void;
}

/** Registers the host's metrics in `registry` and logs its notices through `logger`. */
export function hostTelemetry(registry: Registry, logger: Logger): HostTelemetry {
  let host: StoreHost | undefined;
  const registers = [registry];
  const batchSize = new Histogram({
    name: "crs_state_journal_batch_writes",
    help: "Writes (mutations, checkpoints, catalogue changes) gathered into one synced journal batch.",
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
    registers,
  });
  const syncSeconds = new Histogram({
    name: "crs_state_journal_sync_seconds",
    help: "Wall time of one synced journal batch write, by outcome.",
    labelNames: ["outcome"],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  // Counters mirror the host's own, read at scrape time.
  const counter = (name: string, help: string, read: (c: HostCounters) => number) =>
    new Counter({
      name,
      help,
      registers,
      collect() {
        this.reset();
        if (host !== undefined) this.inc(read(host.counters));
      },
    });
  counter("crs_state_projects_loaded_total", "Projects recovered into memory.", (c) => c.projectsLoaded);
  counter("crs_state_journal_torn_tails_cut_total", "Torn last journal records cut aside by recovery.", (c) => c.tornTailsCut);
  counter(
    "crs_state_journal_corruption_cuts_total",
    "Journals cut after corruption because skip-corrupted was set.",
    (c) => c.corruptionsSkipped,
  );
  counter(
    "crs_state_journal_records_skipped_total",
    "Corrupted journal records (and those after them) skipped because skip-corrupted was set.",
    (c) => c.recordsSkipped,
  );
  counter("crs_state_snapshots_corrupt_total", "State snapshots passed over because they failed verification.", (c) => c.corruptSnapshots);
  counter("crs_state_journal_write_failures_total", "Synced journal batches that failed.", (c) => c.writeFailures);
  new Counter({
    name: "crs_state_projects_unloaded_total",
    help: "Projects that left memory, by reason (idle, capacity, write_failed, deleted).",
    labelNames: ["reason"],
    registers,
    collect() {
      this.reset();
      for (const reason of UNLOAD_REASONS) this.inc({ reason }, host?.counters.projectsUnloaded[reason] ?? 0);
    },
  });
  new Gauge({
    name: "crs_state_projects_in_memory",
    help: "Projects loaded in memory now.",
    registers,
    collect() {
      this.set(host?.loadedProjectIds().length ?? 0);
    },
  });
  new Gauge({
    name: "crs_state_projects_data_loss",
    help: "Projects refused with DATA_LOSS because recovery found damage it may not repair.",
    registers,
    collect() {
      this.set(host?.lostProjectCount() ?? 0);
    },
  });
  const batch = (r: BatchReport): void => {
    batchSize.observe(r.submissions);
    syncSeconds.observe({ outcome: r.error === undefined ? "ok" : "failed" }, r.ms / 1000);
    if (r.error !== undefined)
      logger.warn({ event: "journal-batch-failed", writes: r.submissions, ops: r.ops, ms: r.ms, err: r.error }, "journal batch failed");
  };
  const notice = (event: string, fields: Record<string, string | number>): void => {
    logger[NOTICE_LEVELS[event] ?? "info"]({ ...fields, event }, event);
  };
  return {
    events: { batch, notice },
    watch(h) {
      host = h;
    },
  };
}
