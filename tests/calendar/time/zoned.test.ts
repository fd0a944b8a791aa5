import { DateTime } from 'luxon'
import { describe, expect, test } from 'vitest'
import {
  CalendarTimeError,
  checkEventRange,
  isValidZone,
  parseRfc3339,
  renderEventTime,
  resolveEventTime,
  rfc3339InZone,
  rfc3339Utc,
} from '../../../envs/calendar/time/zoned.ts'

const utc = (s: string) => Date.parse(s)

describe('resolveEventTime', () => {
  test.each([
    [
      'offset is absolute',
      { dateTime: '2026-03-09T10:00:00-04:00', timeZone: 'Europe/London' },
      'UTC',
      '2026-03-09T14:00:00Z',
      'Europe/London',
    ],
    [
      'floating time read in its timeZone (EDT)',
      { dateTime: '2026-03-09T10:00:00', timeZone: 'America/New_York' },
      'UTC',
      '2026-03-09T14:00:00Z',
      'America/New_York',
    ],
    [
      'floating time read in its timeZone (EST)',
      { dateTime: '2026-03-07T10:00:00', timeZone: 'America/New_York' },
      'UTC',
      '2026-03-07T15:00:00Z',
      'America/New_York',
    ],
    [
      'floating time without zone uses the fallback',
      { dateTime: '2026-07-01T09:00:00' },
      'Asia/Kolkata',
      '2026-07-01T03:30:00Z',
      'Asia/Kolkata',
    ],
    [
      'Sydney summer offset',
      { dateTime: '2026-01-15T09:00:00', timeZone: 'Australia/Sydney' },
      'UTC',
      '2026-01-14T22:00:00Z',
      'Australia/Sydney',
    ],
    [
      'Sydney winter offset',
      { dateTime: '2026-07-15T09:00:00', timeZone: 'Australia/Sydney' },
      'UTC',
      '2026-07-14T23:00:00Z',
      'Australia/Sydney',
    ],
    ['Z suffix', { dateTime: '2026-03-28T21:09:03Z' }, 'America/New_York', '2026-03-28T21:09:03Z', 'America/New_York'],
    ['fractional seconds', { dateTime: '2026-03-28T21:09:03.250Z' }, 'UTC', '2026-03-28T21:09:03.250Z', 'UTC'],
    [
      'time that occurs twice means the first (EDT)',
      { dateTime: '2026-11-01T01:30:00', timeZone: 'America/New_York' },
      'UTC',
      '2026-11-01T05:30:00Z',
      'America/New_York',
    ],
    [
      'London ambiguous hour means BST',
      { dateTime: '2026-10-25T01:30:00', timeZone: 'Europe/London' },
      'UTC',
      '2026-10-25T00:30:00Z',
      'Europe/London',
    ],
    [
      'time skipped by DST moves forward',
      { dateTime: '2026-03-08T02:30:00', timeZone: 'America/New_York' },
      'UTC',
      '2026-03-08T07:30:00Z',
      'America/New_York',
    ],
  ])('%s', (_name, input, fallback, instant, zone) => {
    const r = resolveEventTime(input, fallback)
    expect(r.ms).toBe(utc(instant))
    expect(r.allDay).toBe(false)
    expect(r.timeZone).toBe(zone)
    expect(r.givenTimeZone).toBe((input as { timeZone?: string }).timeZone)
  })

  test('all-day date is midnight in the effective zone', () => {
    expect(resolveEventTime({ date: '2026-03-09' }, 'America/New_York')).toEqual({
      ms: utc('2026-03-09T04:00:00Z'),
      allDay: true,
      date: '2026-03-09',
      timeZone: 'America/New_York',
    })
  })

  test.each([
    ['neither date nor dateTime', {}, {}, 'Missing start time.', 'required'],
    [
      'both date and dateTime',
      { date: '2026-03-09', dateTime: '2026-03-09T10:00:00Z' },
      {},
      'Invalid start time.',
      'invalid',
    ],
    [
      'unknown zone',
      { dateTime: '2026-03-09T10:00:00', timeZone: 'Mars/Olympus' },
      {},
      'Invalid time zone definition for start time.',
      'invalid',
    ],
    [
      'unknown zone on end',
      { dateTime: '2026-03-09T10:00:00', timeZone: 'Nope' },
      { side: 'end' as const },
      'Invalid time zone definition for end time.',
      'invalid',
    ],
    ['malformed dateTime', { dateTime: 'tomorrow' }, {}, 'Invalid start time.', 'invalid'],
    ['month 13', { dateTime: '2026-13-01T10:00:00Z' }, {}, 'Invalid start time.', 'invalid'],
    ['February 30', { date: '2026-02-30' }, {}, 'Invalid start time.', 'invalid'],
    [
      'recurring without zone',
      { dateTime: '2026-03-09T10:00:00-04:00' },
      { recurring: true },
      'Missing time zone definition for start time.',
      'required',
    ],
    ['missing end', {}, { side: 'end' as const }, 'Missing end time.', 'required'],
  ])('%s is rejected', (_name, input, opts, message, reason) => {
    let err: unknown
    try {
      resolveEventTime(input, 'UTC', opts)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(CalendarTimeError)
    expect((err as CalendarTimeError).message).toBe(message)
    expect((err as CalendarTimeError).reason).toBe(reason)
  })

  test('a recurring all-day event needs no zone', () => {
    expect(resolveEventTime({ date: '2026-03-09' }, 'UTC', { recurring: true }).allDay).toBe(true)
  })
})

describe('renderEventTime', () => {
  test('renders in the output zone and echoes the event zone (parity: UTC calendar)', () => {
    const stored = { ms: utc('2026-03-28T21:09:03Z'), allDay: false, timeZone: 'UTC' }
    expect(renderEventTime(stored, 'UTC')).toEqual({ dateTime: '2026-03-28T21:09:03Z', timeZone: 'UTC' })
  })
  test('renders with the offset of the output zone, not the event zone', () => {
    const stored = { ms: utc('2026-03-09T14:00:00Z'), allDay: false, timeZone: 'America/New_York' }
    expect(renderEventTime(stored, 'Asia/Kolkata')).toEqual({
      dateTime: '2026-03-09T19:30:00+05:30',
      timeZone: 'America/New_York',
    })
  })
  test('omits timeZone when the event has none', () => {
    expect(renderEventTime({ ms: utc('2026-11-02T15:00:00Z'), allDay: false }, 'America/New_York')).toEqual({
      dateTime: '2026-11-02T10:00:00-05:00',
    })
  })
  test('all-day renders only the date', () => {
    expect(renderEventTime({ ms: 0, allDay: true, date: '2026-03-09', timeZone: 'UTC' }, 'Europe/London')).toEqual({
      date: '2026-03-09',
    })
  })
})

describe('rfc3339 helpers', () => {
  test.each([
    ['2026-03-09T10:00:00Z', utc('2026-03-09T10:00:00Z')],
    ['2026-03-09T10:00:00.5+01:00', utc('2026-03-09T09:00:00.500Z')],
    ['2026-03-09t10:00:00-05:30', utc('2026-03-09T15:30:00Z')],
    ['2026-03-09T10:00:00', undefined],
    ['2026-03-09', undefined],
    ['2026-03-32T10:00:00Z', undefined],
    ['garbage', undefined],
  ])('parseRfc3339(%s)', (input, expected) => {
    expect(parseRfc3339(input)).toBe(expected)
  })

  test.each([
    ['Europe/London', '2026-01-10T12:00:00Z', '2026-01-10T12:00:00Z'],
    ['Europe/London', '2026-07-10T12:00:00Z', '2026-07-10T13:00:00+01:00'],
    ['Asia/Kolkata', '2026-07-10T12:00:00Z', '2026-07-10T17:30:00+05:30'],
    ['America/New_York', '2026-11-01T05:30:00Z', '2026-11-01T01:30:00-04:00'],
    ['America/New_York', '2026-11-01T06:30:00Z', '2026-11-01T01:30:00-05:00'],
  ])('rfc3339InZone(%s, %s)', (zone, instant, expected) => {
    expect(rfc3339InZone(utc(instant), zone)).toBe(expected)
  })

  test('rfc3339Utc keeps milliseconds', () => {
    expect(rfc3339Utc(utc('2026-03-27T21:09:13.366Z'))).toBe('2026-03-27T21:09:13.366Z')
  })

  test('rfc3339Utc answers each instant right whatever came before (it remembers recent answers)', () => {
    const instants = [
      '2026-03-27T21:09:13.366Z',
      '2026-03-27T21:09:13.000Z',
      '1970-01-01T00:00:00.000Z',
      '2026-03-27T21:09:13.366Z',
    ]
    for (const order of [
      [0, 1, 0, 1, 2, 1, 0],
      [2, 2, 0, 3, 1, 2, 3, 0],
    ]) {
      for (const i of order) expect(rfc3339Utc(utc(instants[i]!))).toBe(instants[i])
    }
    expect(() => rfc3339Utc(Number.NaN)).toThrow(RangeError)
  })

  test.each([
    ['America/New_York', true],
    ['UTC', true],
    ['Asia/Kolkata', true],
    ['Mars/Olympus', false],
    ['', false],
  ])('isValidZone(%s)', (zone, ok) => expect(isValidZone(zone)).toBe(ok))
})

describe('checkEventRange', () => {
  test('end before start is an empty range', () => {
    const a = resolveEventTime({ dateTime: '2026-03-09T10:00:00Z' }, 'UTC')
    const b = resolveEventTime({ dateTime: '2026-03-09T09:00:00Z' }, 'UTC')
    expect(() => checkEventRange(a, b)).toThrow('The specified time range is empty.')
    expect(() => checkEventRange(b, a)).not.toThrow()
  })
})

describe('rfc3339InZone', () => {
  const viaLuxon = (ms: number, zone: string) => {
    const dt = DateTime.fromMillis(ms, { zone })
    const base = dt.toFormat("yyyy-MM-dd'T'HH:mm:ss")
    return dt.offset === 0 ? `${base}Z` : `${base}${dt.toFormat('ZZ')}`
  }
  test.each([
    'America/New_York',
    'Asia/Kolkata',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'Pacific/Chatham',
    'Europe/London',
    'UTC',
    'America/St_Johns',
  ])('writes what luxon writes in %s, 1890–2040', (zone) => {
    const bad: string[] = []
    // An odd step lands on many times of day; the years before 1900 have local-mean-time offsets in seconds.
    for (let ms = Date.UTC(1890, 0, 1, 0, 0, 7); ms < Date.UTC(2040, 0, 1); ms += 37 * 3_600_000 + 61_123) {
      if (rfc3339InZone(ms, zone) !== viaLuxon(ms, zone))
        bad.push(`${ms}: ${rfc3339InZone(ms, zone)} vs ${viaLuxon(ms, zone)}`)
    }
    expect(bad.slice(0, 5)).toEqual([])
  })
  test('an unknown zone renders in UTC', () => {
    expect(rfc3339InZone(Date.UTC(2026, 2, 9, 15), 'Mars/Base')).toBe('2026-03-09T15:00:00Z')
  })
})

describe('parseRfc3339', () => {
  // The instant is computed in arithmetic (docs/decisions/0270); luxon's DateTime.fromObject in UTC is the reference
  // for which wall clocks are valid and where they fall.
  const reference = (s: string) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(s)
    if (!m) return undefined
    const w = {
      year: +m[1]!,
      month: +m[2]!,
      day: +m[3]!,
      hour: +m[4]!,
      minute: +m[5]!,
      second: +m[6]!,
      millisecond: m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0,
    }
    const o = m[8]!
    const off = o === 'Z' || o === 'z' ? 0 : (o[0] === '-' ? -1 : 1) * (+o.slice(1, 3) * 60 + +o.slice(4, 6))
    const dt = DateTime.fromObject(w, { zone: 'UTC' })
    return !dt.isValid || Math.abs(off) >= 24 * 60 ? undefined : dt.toMillis() - off * 60_000
  }
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')

  test('agrees with luxon on every day of the calendar grid (leap years, month ends, years below 100)', () => {
    for (const year of [0, 4, 99, 100, 1900, 2000, 2023, 2024, 9999]) {
      for (let month = 0; month <= 13; month++) {
        for (const day of [0, 1, 28, 29, 30, 31, 32]) {
          const s = `${pad(year, 4)}-${pad(month)}-${pad(day)}T12:00:00Z`
          expect({ s, ms: parseRfc3339(s) }).toEqual({ s, ms: reference(s) })
        }
      }
    }
  })

  test('agrees with luxon on clock fields and offsets, 24:00:00 included', () => {
    for (const date of ['2024-02-29', '2023-12-31', '0050-06-15']) {
      for (const hour of [0, 23, 24, 25]) {
        for (const minute of [0, 59, 60]) {
          for (const second of [0, 59, 60]) {
            for (const frac of ['', '.999', '.0001']) {
              for (const off of ['Z', 'z', '+05:30', '-23:59', '+24:00']) {
                const s = `${date}T${pad(hour)}:${pad(minute)}:${pad(second)}${frac}${off}`
                expect({ s, ms: parseRfc3339(s) }).toEqual({ s, ms: reference(s) })
              }
            }
          }
        }
      }
    }
  })
})
