/**
 * Fast wall-clock ↔ instant conversion for one zone, for expanding many instances. Offsets are looked up
 * through luxon's IANA zone and memoised per week. A week that contains one offset change keeps the instant
 * of the change (found by bisection, then checked hour by hour); any other week with a change, and wall
 * clocks near one, take luxon's exact path.
 *
 * `ZoneClock.of(name)` shares one clock per zone across calls: the memo is a pure function of the IANA
 * database in this process (like luxon's own formatter caches), holds no world state and is bounded.
 */
import { DateTime, IANAZone, Info, Settings, type Zone } from 'luxon'

const WEEK = 7 * 86_400_000
const DAY = 86_400_000
const HOUR = 3_600_000

type Change = { at: number; before: number; after: number }

export class ZoneClock {
  readonly #zone: IANAZone
  /** `#zone.offset`, the same numbers through `offsetFn`. */
  readonly #offset: (ts: number) => number
  /** Per week: its one offset, its one change, or null (luxon for every instant). */
  readonly #weeks = new Map<number, number | Change | null>()

  constructor(readonly name: string) {
    this.#zone = IANAZone.create(name)
    this.#offset = offsetFn(this.#zone)
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
      const a = this.#offset(week * WEEK)
      const b = this.#offset((week + 1) * WEEK - 1)
      known = a === b ? a : this.#changeIn(week * WEEK, a, b)
      this.#weeks.set(week, known)
    }
    if (typeof known === 'number') return known
    return known ? (ms < known.at ? known.before : known.after) : this.#offset(ms)
  }

  /** The one change from `before` to `after` in the week starting at `from`, or null when there is not exactly one. */
  #changeIn(from: number, before: number, after: number): Change | null {
    if (!Number.isFinite(before) || !Number.isFinite(after)) return null
    let lo = from
    let hi = from + WEEK - 1
    // Invariant: offset(lo) is `before`, offset(hi) is not.
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2)
      if (this.#offset(mid) === before) lo = mid
      else hi = mid
    }
    const change = { at: hi, before, after }
    if (this.#offset(hi) !== after) return null
    for (let t = from; t < from + WEEK; t += HOUR) {
      if (this.#offset(t) !== (t < change.at ? before : after)) return null
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
      {
        year: d.getUTCFullYear(),
        month: d.getUTCMonth() + 1,
        day: d.getUTCDate(),
        hour: d.getUTCHours(),
        minute: d.getUTCMinutes(),
        second: d.getUTCSeconds(),
      },
      this.name,
    )
  }
}

/**
 * Instant of a wall clock read in `zone`. A time skipped by DST moves forward (luxon's choice); a time that
 * occurs twice means the first one, as RFC 5545 3.3.5 specifies. (Exported again by ./zoned.ts.)
 */
export function wallClockToMs(
  w: {
    year: number
    month: number
    day: number
    hour?: number
    minute?: number
    second?: number
    millisecond?: number
  },
  zone: string,
): number {
  const fast = wallClockFast(w, zone)
  if (typeof fast === 'number') return fast
  const dt = DateTime.fromObject(w, { zone })
  const floating = DateTime.fromObject(w, { zone: 'UTC' }).toMillis()
  for (const probe of [dt.toMillis() - 86_400_000, dt.toMillis() + 86_400_000]) {
    const candidate = floating - DateTime.fromMillis(probe, { zone }).offset * 60_000
    if (candidate < dt.toMillis() && DateTime.fromMillis(candidate, { zone }).offset * 60_000 === floating - candidate)
      return candidate
  }
  return dt.toMillis()
}

/**
 * `zone.offset` as a function, for IANA zones without luxon's `formatToParts` (about 15 µs a call here): the same
 * formatter luxon builds for the zone (`makeDTF`: en-US, h23, era), read with `format` (a few µs) and parsed into the
 * same fields, then luxon's own arithmetic (`IANAZone.offset`). A pure function of the zone name and this process's
 * ICU data, like luxon's formatter cache. Anything that does not read as expected goes to luxon itself.
 */
export function offsetFn(zone: Zone): (ts: number) => number {
  if (zone.type !== 'iana' || !zone.isValid) return (ts) => zone.offset(ts)
  let f = offsetFns.get(zone.name)
  if (!f) {
    if (offsetFns.size >= 256) offsetFns.clear()
    const dtf = new Intl.DateTimeFormat('en-US', {
      hour12: false,
      timeZone: zone.name,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      era: 'short',
    })
    f = (ts: number) => {
      const date = new Date(ts)
      const time = date.getTime()
      if (Number.isNaN(time)) return zone.offset(ts)
      const m = FORMATTED.exec(dtf.format(date))
      if (!m) return zone.offset(ts)
      let year = parseInt(m[3]!, 10)
      if (m[4] === 'BC') year = -Math.abs(year) + 1
      const hour = parseInt(m[5]!, 10)
      let asUTC = Date.UTC(
        year,
        parseInt(m[1]!, 10) - 1,
        parseInt(m[2]!, 10),
        hour === 24 ? 0 : hour,
        parseInt(m[6]!, 10),
        parseInt(m[7]!, 10),
        0,
      )
      if (year < 100 && year >= 0) {
        const d = new Date(asUTC)
        d.setUTCFullYear(year, parseInt(m[1]!, 10) - 1, parseInt(m[2]!, 10))
        asUTC = +d
      }
      let asTS = time
      const over = asTS % 1000
      asTS -= over >= 0 ? over : 1000 + over
      return (asUTC - asTS) / (60 * 1000)
    }
    offsetFns.set(zone.name, f)
  }
  return f
}
const offsetFns = new Map<string, (ts: number) => number>()
/** `makeDTF`'s `format` output in full: month/day/year era, hour:minute:second. */
const FORMATTED = /^(\d+)\/(\d+)\/(\d+) (AD|BC), (\d+):(\d+):(\d+)$/

/** luxon's zone object for a name (what `{ zone: name }` resolves to), kept per name: a pure function of the name. */
const zones = new Map<string, Zone>()
export function luxonZone(name: string): Zone {
  let z = zones.get(name)
  if (!z) {
    if (zones.size >= 256) zones.clear()
    zones.set(name, (z = Info.normalizeZone(name)))
  }
  return z
}

/**
 * The instant of a wall clock when luxon finds it valid in `zone` (`DateTime.fromObject(w, { zone }).isValid`),
 * else undefined: `wallClockToMs` behind luxon's validity check.
 */
export function validWallClockToMs(
  w: { year: number; month: number; day: number; hour: number; minute: number; second: number; millisecond: number },
  zone: string,
): number | undefined {
  const fast = wallClockFast(w, zone)
  if (fast !== undefined) return fast ?? undefined
  return DateTime.fromObject(w, { zone }).isValid ? wallClockToMs(w, zone) : undefined
}

/**
 * `wallClockToMs` for a whole wall clock (years 100–9999, integer fields, a valid zone) without building DateTimes:
 * the same steps on the same zone's offsets. luxon's `fromObject` reads the wall clock as an instant with
 * `fixOffset`, starting from the zone's offset now, and `fromMillis(t).offset` is the zone's offset at `t`, so each
 * number below is the one the DateTime path computes. Null: a field outside luxon's ranges (an invalid DateTime);
 * undefined: not such a wall clock, take the DateTime path.
 */
function wallClockFast(
  w: {
    year: number
    month: number
    day: number
    hour?: number
    minute?: number
    second?: number
    millisecond?: number
  },
  name: string,
): number | null | undefined {
  const { year, month, day, hour, minute, second } = w
  const millisecond = w.millisecond ?? 0
  if (hour === undefined || minute === undefined || second === undefined) return undefined
  for (const v of [year, month, day, hour, minute, second, millisecond]) if (!Number.isInteger(v)) return undefined
  if (year < 100 || year > 9999) return undefined
  const zone = luxonZone(name)
  if (!zone.isValid) return null
  // luxon's hasInvalidGregorianData and hasInvalidTimeData.
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null
  if (hour < 0 || minute < 0 || second < 0 || millisecond < 0 || minute > 59 || second > 59 || millisecond > 999)
    return null
  if (hour > 24 || (hour === 24 && (minute !== 0 || second !== 0 || millisecond !== 0))) return null
  const offset = offsetFn(zone)
  const floating = Date.UTC(year, month - 1, day, hour, minute, second, millisecond)
  const at = fixOffset(floating, offset(Settings.now()), offset)
  for (const probe of [at - DAY, at + DAY]) {
    const candidate = floating - offset(probe) * 60_000
    if (candidate < at && offset(candidate) * 60_000 === floating - candidate) return candidate
  }
  return at
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
/** Days in a month of the proleptic Gregorian calendar (month 1–12). */
export const daysIn = (year: number, month: number) =>
  month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : MONTH_DAYS[month - 1]!

/** luxon's `fixOffset` (the instant of a local time from a guessed offset), the instant only. */
export function fixOffset(local: number, o: number, offset: (ts: number) => number): number {
  let guess = local - o * 60 * 1000
  const o2 = offset(guess)
  if (o === o2) return guess
  guess -= (o2 - o) * 60 * 1000
  const o3 = offset(guess)
  if (o2 === o3) return guess
  return local - Math.min(o2, o3) * 60 * 1000
}

/**
 * `DateTime.fromMillis(ms, { zone }).setLocale('en-US').offsetNameShort`: the zone's short name at `ms` (`EDT`,
 * `GMT+5:30`), or null. luxon builds a new `Intl.DateTimeFormat` for every such read (`parseZoneInfo`); this one
 * keeps the formatter per zone (built with the same locale and options, so its parts are the same), which is a pure
 * function of the zone name and this process's ICU data, like luxon's own formatter cache.
 */
export function shortZoneName(ms: number, name: string): string | null {
  const zone = luxonZone(name)
  if (zone.type !== 'iana' || !zone.isValid || !(Math.abs(ms) <= 8.64e15)) {
    return DateTime.fromMillis(ms, { zone: name }).setLocale('en-US').offsetNameShort
  }
  let format = nameFormats.get(zone.name)
  if (!format) {
    if (nameFormats.size >= 256) nameFormats.clear()
    format = new Intl.DateTimeFormat('en-US', {
      timeZoneName: 'short',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: zone.name,
    })
    nameFormats.set(zone.name, format)
  }
  const part = format.formatToParts(new Date(ms)).find((p) => p.type.toLowerCase() === 'timezonename')
  return part ? part.value : null
}
const nameFormats = new Map<string, Intl.DateTimeFormat>()
