// A small seeded generator of our own (sfc32, seeded through splitmix32) so a corpus is the same
// bytes for the same seed on every machine and Node version; Math.random cannot be seeded.

/** Seeded source of randomness for the corpus generator. */
export interface Prng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** One key of a weight table, chosen in proportion to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K;
  /** `n` lowercase hex digits. */
  hex(n: number): string;
  /** An independent generator derived from this one (so sub-plans do not shift each other). */
  fork(): Prng;
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** A generator whose whole sequence is fixed by `seed` (any safe integer). */
export function createPrng(seed: number): Prng {
  // Fold the high bits in so seeds above 2^32 still differ.
  const mix = splitmix32((seed ^ Math.floor(seed / 0x100000000)) >>> 0);
  let a = mix();
  let b = mix();
  let c = mix();
  let d = mix();
  const u32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) u32();
  const next = (): number => u32() / 0x100000000;
  const prng: Prng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
    weighted: (weights) => {
      const keys = Object.keys(weights) as (keyof typeof weights)[];
      const total = keys.reduce((sum, k) => sum + weights[k], 0);
      let roll = next() * total;
      for (const k of keys) {
        roll -= weights[k];
        if (roll < 0) return k;
      }
      return keys[keys.length - 1] as (typeof keys)[number];
    },
    hex: (n) => {
      let out = "";
      while (out.length < n) out += u32().toString(16).padStart(8, "0");
      return out.slice(0, n);
    },
    fork: () => createPrng(u32() * 0x200000 + (u32() >>> 11)),
  };
  return prng;
}
