import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

/**
 * A worker's young generation, in MB. V8's default (48) is sized for throughput of one main
 * thread and adds resident memory per worker. Each scavenge copies a file's fold state, which
 * lives until the file ends, so scavenges cost by their number: at 12 they took about a tenth of
 * a scan's CPU, at 24 about two thirds of that, for some 15 MB more resident per scan.
 */
export const WORKER_YOUNG_MB = 24;

// The young generation of the thread that scans beside the workers. V8 grows a main thread's to
// 32 MiB of semi-spaces, twice what a worker's bound allows, and a scan pays for it in resident
// memory (about 10 MB at the peak of a 1 GB scan), not in speed: the file being folded survives
// every scavenge either way. V8 reads two of its flags when it needs
// them: the semi-space size a new heap starts at, and the factor a young generation grows by.
// While a scan runs, workers start at their full young generation, and once this thread's has
// reached a worker's size it stops growing. The flags are the process's; they are put back when
// the last scan ends.
// V8 splits a young generation into two semi-spaces and a third of the same size for large objects.
const WORKER_SEMI_SPACE_MB = WORKER_YOUNG_MB / 3;
const HELD_BYTES = 2 * WORKER_SEMI_SPACE_MB * 2 ** 20;
// V8's defaults: a semi-space size of 0 lets V8 choose; young generations double as they grow.
const DEFAULT_FLAGS = ["--min-semi-space-size=0", "--semi-space-growth-factor=2"];

let scans = 0;
let held = false;

/** A scan on threads begins: workers started from now on begin with a full young generation. */
export function enterScan(): void {
  scans += 1;
  if (scans === 1) setFlagsFromString(`--min-semi-space-size=${WORKER_SEMI_SPACE_MB}`);
}

/** Between this thread's files: once its young generation has reached a worker's size, it grows no further. */
export function holdYoungGeneration(): void {
  if (held) return;
  const young = getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
  if (young === undefined || young.space_size < HELD_BYTES) return;
  setFlagsFromString("--semi-space-growth-factor=1");
  held = true;
}

/** A scan on threads ends; after the last, V8 sizes young generations as it would by itself. */
export function leaveScan(): void {
  scans -= 1;
  if (scans > 0) return;
  for (const flag of DEFAULT_FLAGS) setFlagsFromString(flag);
  held = false;
}
