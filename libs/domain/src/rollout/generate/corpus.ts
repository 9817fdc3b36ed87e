import { createPrng } from "./prng.js";
import { generateRollout, type GeneratedRollout } from "./rollout.js";
import { secretPlanter } from "./secrets.js";

// The corpus plan: an endless, seed-determined sequence of rollouts with realistic sizes and start
// times; the caller stops when it has the files or bytes it wants.

/** Options of a generated corpus. */
export interface CorpusOptions {
  /** Same seed, same bytes. */
  readonly seed: number;
  /** Earliest session start, Unix ms. */
  readonly fromMs: number;
  /** Sessions start within this many days after `fromMs`. */
  readonly spanDays: number;
  /** Plant `PLANTED-SECRET` strings in every body (prompts, arguments, outputs, reasoning, errors). */
  readonly plantSecrets: boolean;
  /** Share of files that carry one multi-megabyte line (default 0.02). */
  readonly bigLineShare?: number;
}

/** Default first session start: 2026-03-01T00:00:00Z. */
export const DEFAULT_CORPUS_FROM_MS = Date.UTC(2026, 2, 1);

/** Default spread of session starts, in days. */
export const DEFAULT_CORPUS_SPAN_DAYS = 60;

const DAY_MS = 86_400_000;

/** The rollouts of a corpus, in generation order (endless). */
export function* corpusRollouts(options: CorpusOptions): Generator<GeneratedRollout> {
  const root = createPrng(options.seed);
  const plant = secretPlanter(options.plantSecrets, root.hex(8));
  const bigShare = options.bigLineShare ?? 0.02;
  for (;;) {
    const rng = root.fork();
    // Log-uniform sizes between 2 KB and 600 KB, with a tail of multi-megabyte sessions.
    const targetBytes = rng.chance(0.03) ? rng.int(1_000_000, 4_000_000) : Math.round(2000 * 300 ** rng.next());
    const bigLineBytes = rng.chance(bigShare) ? rng.int(1_000_000, 3_000_000) : 0;
    const startMs = options.fromMs + Math.floor(rng.next() * options.spanDays * DAY_MS);
    yield generateRollout({ rng, plant, startMs, targetBytes, bigLineBytes });
  }
}
