/** The simulator's and the tests' random numbers: the same seed, the same numbers (pure). */

/** A deterministic PRNG (mulberry32): uniform, normal, and whole numbers in a range. */
export function createRandom(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => {
    let u = 0;
    while (u === 0) u = next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
  };
  return { next, normal, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)) };
}
