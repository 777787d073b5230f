/**
 * Seeded randomness (mulberry32). The engine draws no unseeded randomness: a seed reproduces a run,
 * which lets a failing fault schedule or a shared URL be replayed exactly.
 */
export class Rng {
  private state: number;
  readonly seed: number;

  constructor(seed: number) {
    this.seed = seed >>> 0;
    this.state = this.seed;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, bound). */
  nextInt(bound: number): number {
    return Math.floor(this.next() * bound);
  }

  /** Picks one element; the array must not be empty. */
  pick<T>(items: readonly T[]): T {
    const item = items[this.nextInt(items.length)];
    if (item === undefined) throw new RangeError('pick from an empty array');
    return item;
  }

  /** A child generator, so sub-systems draw independent but reproducible streams. */
  fork(): Rng {
    return new Rng(Math.floor(this.next() * 4294967296));
  }
}
