import { afterEach, describe, expect, test } from 'vitest'
import { DateTime, Info, Settings } from 'luxon'
import {
  luxonZone,
  offsetFn,
  shortZoneName,
  validWallClockToMs,
  wallClockToMs,
} from '../../../envs/calendar/time/zone-clock.ts'
import { isValidDate } from '../../../envs/calendar/time/zoned.ts'
import { ruleText, whenText } from '../../../envs/calendar/invites/when.ts'
import { vtimezone } from '../../../envs/calendar/invites/ics.ts'

// The zone math that replaced luxon DateTimes on Calendar's hot paths (docs/decisions/0303) must give luxon's numbers
// and texts exactly. Each test compares with the DateTime code it replaced, kept here as the reference, on zones with
// DST, half-hour and 45-minute offsets, historical local mean time (fractional offsets), and instants around changes.

const ZONES = [
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'America/Santiago',
  'Asia/Kolkata',
  'Pacific/Apia',
  'Africa/Casablanca',
  'UTC',
  'utc',
  'GMT',
  'EST',
  'Etc/GMT+5',
  'America/St_Johns',
  'Asia/Gaza',
  'Europe/Moscow',
  'Antarctica/Troll',
  'Pacific/Chatham',
  'America/Havana',
  'Asia/Tehran',
  'Bogus/Zone',
]
const HOUR = 3_600_000
const DAY = 86_400_000

/** Instants around every offset change of `zone` in `year` (hour by hour, half hours too), and a few others. */
function instantsOf(zone: string, year: number, from = -26, to = 50): number[] {
  const out: number[] = []
  const offset = (t: number) => DateTime.fromMillis(t, { zone }).offset
  for (let t = Date.UTC(year, 0, 1); t < Date.UTC(year + 1, 0, 1); t += DAY) {
    if (offset(t) !== offset(t + DAY)) for (let k = from; k <= to; k++) out.push(t + k * HOUR + (k % 2) * 1_800_000)
  }
  for (let k = 0; k < 12; k++)
    out.push(Date.UTC(year, k, 1 + ((k * 5) % 28), (k * 7) % 24, (k * 13) % 60, k % 3 ? 0 : 30, k % 4 ? 0 : 250))
  return out
}
const YEARS = [1890, 1944, 2026]

afterEach(() => {
  Settings.now = () => Date.now()
})

describe('offsetFn', () => {
  test('gives IANAZone.offset for every instant, including local mean time, BC years, NaN and the limits of Date', () => {
    let checked = 0
    for (const name of ZONES) {
      const zone = Info.normalizeZone(name)
      const offset = offsetFn(zone)
      const extra = [
        NaN,
        8.64e15,
        -8.64e15,
        8.64e15 + 1,
        0,
        -1,
        -62135596800001,
        -62198755200000,
        Date.UTC(-500, 3, 1),
        Date.UTC(12000, 3, 1),
      ]
      for (const year of YEARS) {
        for (const t of [...instantsOf(name, year), ...extra]) {
          expect([name, t, offset(t)]).toEqual([name, t, zone.offset(t)])
          checked++
        }
      }
    }
    expect(checked).toBeGreaterThan(10_000)
  })
})

/** What wallClockToMs was: luxon's fromObject, then the earlier of two readings of a repeated wall clock. */
function wallClockReference(
  w: { year: number; month: number; day: number; hour: number; minute: number; second: number; millisecond: number },
  zone: string,
): number {
  const dt = DateTime.fromObject(w, { zone })
  const floating = DateTime.fromObject(w, { zone: 'UTC' }).toMillis()
  for (const probe of [dt.toMillis() - DAY, dt.toMillis() + DAY]) {
    const candidate = floating - DateTime.fromMillis(probe, { zone }).offset * 60_000
    if (candidate < dt.toMillis() && DateTime.fromMillis(candidate, { zone }).offset * 60_000 === floating - candidate)
      return candidate
  }
  return dt.toMillis()
}

describe('wallClockToMs', () => {
  test('reads wall clocks as the DateTime path did, in gaps and repeated hours, whatever the offset now is', () => {
    // luxon's first guess is the zone's offset now: a winter and a summer "now" take different routes through gaps.
    for (const now of [Date.UTC(2026, 0, 15), Date.UTC(2026, 6, 15)]) {
      Settings.now = () => now
      for (const zone of ZONES) {
        for (const year of [1890, 2026]) {
          for (const t of instantsOf(zone, year, -4, 28)) {
            const d = new Date(t)
            const w = {
              year: d.getUTCFullYear(),
              month: d.getUTCMonth() + 1,
              day: d.getUTCDate(),
              hour: d.getUTCHours(),
              minute: d.getUTCMinutes(),
              second: d.getUTCSeconds(),
              millisecond: d.getUTCMilliseconds(),
            }
            const expected = wallClockReference(w, zone)
            expect([zone, w, wallClockToMs(w, zone)]).toEqual([zone, w, expected])
            const valid = DateTime.fromObject(w, { zone }).isValid ? expected : undefined
            expect([zone, w, validWallClockToMs(w, zone)]).toEqual([zone, w, valid])
          }
        }
      }
    }
  })

  test('refuses what luxon finds invalid, and takes luxon for years before 100', () => {
    const ok = { year: 2026, month: 3, day: 8, hour: 2, minute: 30, second: 0, millisecond: 0 }
    for (const w of [
      { ...ok, month: 2, day: 29 },
      { ...ok, month: 2, day: 30 },
      { ...ok, month: 13 },
      { ...ok, month: 0 },
      { ...ok, day: 0 },
      { ...ok, day: 32 },
      { ...ok, hour: 24 },
      { ...ok, hour: 24, minute: 0 },
      { ...ok, hour: 24, minute: 0, second: 0, millisecond: 0, day: 31, month: 12 },
      { ...ok, hour: 25 },
      { ...ok, minute: 60 },
      { ...ok, second: 60 },
      { ...ok, millisecond: 1000 },
      { ...ok, year: 2024, month: 2, day: 29 },
      { ...ok, year: 50 },
      { ...ok, year: 99, month: 12, day: 31, hour: 23 },
      { ...ok, year: 100 },
      { ...ok, year: 1900, month: 2, day: 29 },
    ]) {
      for (const zone of ['America/New_York', 'UTC', 'Bogus/Zone']) {
        const expected = DateTime.fromObject(w, { zone }).isValid ? wallClockReference(w, zone) : undefined
        expect([zone, w, validWallClockToMs(w, zone)]).toEqual([zone, w, expected])
      }
    }
  })
})

describe('shortZoneName', () => {
  test("is luxon's offsetNameShort in en-US, in a spread of this runtime's zones", () => {
    const zones = [...Intl.supportedValuesOf('timeZone').filter((_, i) => i % 12 === 0), ...ZONES]
    for (const zone of zones) {
      for (let t = Date.UTC(1900, 0, 1); t < Date.UTC(2040, 0, 1); t += 331 * DAY + 7 * HOUR) {
        const expected = DateTime.fromMillis(t, { zone }).setLocale('en-US').offsetNameShort
        if (shortZoneName(t, zone) !== expected) expect([zone, t, shortZoneName(t, zone)]).toEqual([zone, t, expected])
      }
    }
    expect(shortZoneName(NaN, 'America/New_York')).toBe(
      DateTime.fromMillis(NaN, { zone: 'America/New_York' }).offsetNameShort,
    )
    expect(shortZoneName(9e15, 'America/New_York')).toBeNull()
  })
})

/** What the timed branch of whenText was: luxon DateTimes throughout. */
function whenReference(startMs: number, endMs: number, zone: string, recurrence?: string[]): string {
  const inZone = (ms: number) => DateTime.fromMillis(ms, { zone }).setLocale('en-US')
  const day = (d: DateTime) => d.toFormat('ccc LLL d, yyyy')
  const clock = (d: DateTime) =>
    `${d.hour % 12 === 0 ? 12 : d.hour % 12}${d.minute ? `:${String(d.minute).padStart(2, '0')}` : ''}${d.hour < 12 ? 'am' : 'pm'}`
  const rule = recurrence ? ruleText(recurrence, { ms: startMs, allDay: false, timeZone: zone }, zone) : undefined
  const s = inZone(startMs)
  const e = inZone(endMs)
  const abbrev = `(${inZone(startMs).offsetNameShort ?? zone})`
  if (rule) return `${rule} from ${clock(s)} to ${clock(e)} ${abbrev}`
  if (s.hasSame(e, 'day')) return `${day(s)} ${clock(s)} - ${clock(e)} ${abbrev}`
  return `${day(s)} ${clock(s)} - ${day(e)} ${clock(e)} ${abbrev}`
}

describe('whenText (timed)', () => {
  test('writes what luxon wrote, days around DST changes (hasSame) included', () => {
    let checked = 0
    for (const zone of ZONES) {
      for (const year of [1890, 2026]) {
        for (const t of instantsOf(zone, year, -6, 30)) {
          for (const length of [0, HOUR, 23 * HOUR]) {
            const start = { ms: t, allDay: false, timeZone: zone }
            const end = { ms: t + length, allDay: false, timeZone: zone }
            const got = whenText(start, end, zone)
            const expected = whenReference(t, t + length, zone)
            if (got !== expected) expect([zone, t, length, got]).toEqual([zone, t, length, expected])
            checked++
          }
        }
        const t = Date.UTC(year, 5, 3, 14)
        const rule = ['RRULE:FREQ=WEEKLY;BYDAY=MO']
        expect(
          whenText(
            { ms: t, allDay: false, timeZone: zone },
            { ms: t + HOUR, allDay: false, timeZone: zone },
            zone,
            rule,
          ),
        ).toBe(whenReference(t, t + HOUR, zone, rule))
      }
    }
    expect(checked).toBeGreaterThan(5_000)
  })
})

describe('isValidDate', () => {
  test("accepts exactly the dates luxon's fromObject accepts", () => {
    const p = (v: number, w: number) => String(v).padStart(w, '0')
    for (const year of [0, 4, 100, 1900, 2000, 2023, 2024, 2100, 2400, 9999]) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const expected = DateTime.fromObject({ year, month, day }, { zone: 'UTC' }).isValid
          expect([year, month, day, isValidDate(`${p(year, 4)}-${p(month, 2)}-${p(day, 2)}`)]).toEqual([
            year,
            month,
            day,
            expected,
          ])
        }
      }
    }
    expect(isValidDate('2026-1-01')).toBe(false)
  })
})

describe('vtimezone', () => {
  /** The day-by-day scan the VTIMEZONE block is built from, with DateTime offsets (the code before 0303). */
  function changesReference(zone: string, fromMs: number, toMs: number): number[] {
    const offset = (ms: number) => DateTime.fromMillis(ms, { zone }).offset
    const out: number[] = []
    for (let t = fromMs; t < toMs; t += DAY) {
      if (offset(t) === offset(t + DAY)) continue
      let [lo, hi] = [t, t + DAY]
      while (hi - lo > 60_000) {
        const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000
        if (offset(mid) === offset(lo)) lo = mid
        else hi = mid
      }
      out.push(hi)
    }
    return out
  }

  test('lists every offset change the DateTime scan finds', () => {
    for (const zone of [
      'America/New_York',
      'Australia/Lord_Howe',
      'Africa/Casablanca',
      'Europe/Moscow',
      'Asia/Kolkata',
    ]) {
      for (const year of [1944, 2026]) {
        const from = DateTime.fromMillis(Date.UTC(year, 5, 1), { zone }).startOf('year')
        const changes = changesReference(zone, from.toMillis(), from.plus({ years: 10 }).toMillis())
        const block = vtimezone(zone, Date.UTC(year, 5, 1))
        const starts = block
          .filter((l) => l.startsWith('DTSTART:') || l.startsWith('RDATE:'))
          .flatMap((l) => l.slice(l.indexOf(':') + 1).split(','))
        expect(starts.length).toBe(changes.length || 1)
        // Every change appears as a local start time in the offset before it.
        for (const ms of changes) {
          const before = DateTime.fromMillis(ms - 60_000, { zone }).offset
          expect(starts).toContain(
            DateTime.fromMillis(ms, { zone: 'UTC' }).plus({ minutes: before }).toFormat("yyyyMMdd'T'HHmmss"),
          )
        }
      }
    }
  })
})

test('luxonZone is the zone luxon resolves a name to', () => {
  for (const name of ['America/New_York', 'UTC', 'utc', 'gmt', 'Bogus/Zone']) {
    expect(luxonZone(name).equals(Info.normalizeZone(name)) || !luxonZone(name).isValid).toBe(true)
    expect(luxonZone(name).isValid).toBe(Info.normalizeZone(name).isValid)
  }
})
