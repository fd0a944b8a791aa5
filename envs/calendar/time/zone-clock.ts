/**
 * Fast wall-clock ↔ instant conversion for one zone, for expanding many instances. Offsets are looked up
 * through luxon's IANA zone and memoised per week. Weeks that contain an offset change, and wall clocks near
 * one, take luxon's exact path.
 *
 * `ZoneClock.of(name)` shares one clock per zone across calls: the memo is a pure function of the IANA
 * database in this process (like luxon's own formatter caches), holds no world state and is bounded.
 */
import { IANAZone } from 'luxon'
import { wallClockToMs } from './zoned.ts'

const WEEK = 7 * 86_400_000
const DAY = 86_400_000

export class ZoneClock {
  readonly #zone: IANAZone
  readonly #weeks = new Map<number, number | null>()

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
      known = a === this.#zone.offset((week + 1) * WEEK - 1) ? a : null
      this.#weeks.set(week, known)
    }
    return known ?? this.#zone.offset(ms)
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
