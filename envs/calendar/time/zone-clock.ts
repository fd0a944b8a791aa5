/**
 * Fast wall-clock ↔ instant conversion for one zone, for expanding many instances. Offsets are looked up
 * through luxon's IANA zone and memoised per week. A week that contains one offset change keeps the instant
 * of the change (found by bisection, then checked hour by hour); any other week with a change, and wall
 * clocks near one, take luxon's exact path.
 *
 * `ZoneClock.of(name)` shares one clock per zone across calls: the memo is a pure function of the IANA
 * database in this process (like luxon's own formatter caches), holds no world state and is bounded.
 */
import { DateTime, IANAZone } from 'luxon'

const WEEK = 7 * 86_400_000
const DAY = 86_400_000
const HOUR = 3_600_000

type Change = { at: number; before: number; after: number }

export class ZoneClock {
  readonly #zone: IANAZone
  /** Per week: its one offset, its one change, or null (luxon for every instant). */
  readonly #weeks = new Map<number, number | Change | null>()

  constructor(readonly name: string) {
    this.#zone = IANAZone.create(name)
  }

  static #shared = new Map<string, ZoneClock>()

  /** The shared clock of `name` (at most 64 zones are kept). */
  static of(name: string): ZoneClock {
    let clock = ZoneClock.#shared.get(name)
    if (!clock) {
      if (ZoneClock.#shared.size >= 64) ZoneClock.#shared.clear()
      clock = new ZoneClock(name)
      ZoneClock.#shared.set(name, clock)
    }
    return clock
  }

  /** UTC offset in minutes at `ms`. */
  offset(ms: number): number {
    const week = Math.floor(ms / WEEK)
    let known = this.#weeks.get(week)
    if (known === undefined) {
      if (this.#weeks.size >= 10_000) this.#weeks.clear()
      const a = this.#zone.offset(week * WEEK)
      const b = this.#zone.offset((week + 1) * WEEK - 1)
      known = a === b ? a : this.#changeIn(week * WEEK, a, b)
      this.#weeks.set(week, known)
    }
    if (typeof known === 'number') return known
    return known ? (ms < known.at ? known.before : known.after) : this.#zone.offset(ms)
  }

  /** The one change from `before` to `after` in the week starting at `from`, or null when there is not exactly one. */
  #changeIn(from: number, before: number, after: number): Change | null {
    if (!Number.isFinite(before) || !Number.isFinite(after)) return null
    let lo = from
    let hi = from + WEEK - 1
    // Invariant: offset(lo) is `before`, offset(hi) is not.
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2)
      if (this.#zone.offset(mid) === before) lo = mid
      else hi = mid
    }
    const change = { at: hi, before, after }
    if (this.#zone.offset(hi) !== after) return null
    for (let t = from; t < from + WEEK; t += HOUR) {
      if (this.#zone.offset(t) !== (t < change.at ? before : after)) return null
    }
    return change
  }

  /** Local wall clock of `ms` written as a UTC epoch ("floating" time). */
  floatOf(ms: number): number {
    return ms + this.offset(ms) * 60_000
  }

  /** Instant of a floating wall clock; DST gaps move forward, repeated hours mean the first one. */
  instantOfFloat(f: number): number {
    const before = this.offset(f - DAY)
    if (before === this.offset(f + DAY)) return f - before * 60_000
    const d = new Date(f)
    return wallClockToMs(
      { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() },
      this.name,
    )
  }
}

/**
 * Instant of a wall clock read in `zone`. A time skipped by DST moves forward (luxon's choice); a time that
 * occurs twice means the first one, as RFC 5545 3.3.5 specifies. (Exported again by ./zoned.ts.)
 */
export function wallClockToMs(
  w: { year: number; month: number; day: number; hour?: number; minute?: number; second?: number; millisecond?: number },
  zone: string,
): number {
  const dt = DateTime.fromObject(w, { zone })
  const floating = DateTime.fromObject(w, { zone: 'UTC' }).toMillis()
  for (const probe of [dt.toMillis() - 86_400_000, dt.toMillis() + 86_400_000]) {
    const candidate = floating - DateTime.fromMillis(probe, { zone }).offset * 60_000
    if (candidate < dt.toMillis() && DateTime.fromMillis(candidate, { zone }).offset * 60_000 === floating - candidate) return candidate
  }
  return dt.toMillis()
}
