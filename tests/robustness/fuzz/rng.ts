/** A small seeded generator (mulberry32) and the odd-but-legal values the fuzzer draws from. */
export class Rng {
  private s: number
  constructor(seed: number) {
    this.s = seed >>> 0 || 1
  }
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  int(n: number): number {
    return Math.floor(this.next() * n)
  }
  chance(p: number): boolean {
    return this.next() < p
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!
  }
  /** A short label-like text: plain, unicode (accents, CJK, emoji, RTL), spaces, or long. */
  text(max = 40): string {
    const parts = [
      'plan',
      'Café',
      '日本語',
      '🙂',
      'שלום',
      'a b',
      'x-y_z',
      'Q4',
      '"quoted"',
      'naïve',
      '👩‍💻',
      '  ',
      "it's",
      'a\\b',
    ]
    const kind = this.int(6)
    if (kind === 0) return 'n' + this.int(1000)
    if (kind === 5) return ('long' + this.int(10)).padEnd(Math.min(max, 30 + this.int(max)), 'é')
    let out = ''
    const n = 1 + this.int(3)
    for (let i = 0; i < n; i++) out += (i ? ' ' : '') + this.pick(parts)
    return out.trim() || 'blank' + this.int(9)
  }
}
