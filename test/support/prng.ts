/** A small seeded PRNG (mulberry32), so a failing randomized test names the seed that reproduces it. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The randomness of one randomized test: seeded from SEEDBLOCK_TEST_SEED, else from the time, and
 * a `why` that names that seed in an assertion's message, so a failure can be replayed.
 */
export function seededRun() {
  const seed = Number(process.env.SEEDBLOCK_TEST_SEED ?? Date.now() % 2 ** 31);
  const random = prng(seed);
  return {
    seed,
    random,
    pick: <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!,
    why: (what: string) => `${what} (SEEDBLOCK_TEST_SEED=${seed})`,
  };
}
