/** A small deterministic PRNG (mulberry32) for seed generators: same seed value, same sequence. */
export class Rng {
  #state: number
  constructor(seed: number) {
    this.#state = seed >>> 0 || 0x9e3779b9
  }
  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  int(min: number, maxInclusive: number): number {
    return min + Math.floor(this.next() * (maxInclusive - min + 1))
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list')
    return items[Math.floor(this.next() * items.length)]!
  }
  chance(p: number): boolean {
    return this.next() < p
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items]
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1))
      ;[out[i], out[j]] = [out[j]!, out[i]!]
    }
    return out
  }
  /** A derived generator, so adding draws in one part of a generator does not shift another part. */
  fork(label: string): Rng {
    let h = this.#state
    for (const ch of label) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0
    return new Rng(h)
  }
}
