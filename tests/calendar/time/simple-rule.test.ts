import * as rruleModule from 'rrule'
import type { Options } from 'rrule'
import { describe, expect, test, vi } from 'vitest'
import { Rng } from '../../../envs/core/rng.ts'
import { SimpleRule } from '../../../envs/calendar/time/simple-rule.ts'

const { RRule } = (rruleModule as unknown as { default?: typeof rruleModule }).default ?? rruleModule
const DAY = 86_400_000
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU']

type Case = { parts: [string, string][]; dtstart: number; until?: number }

/** A random rule of the kinds SimpleRule takes, with a DTSTART and maybe an UNTIL. */
function randomCase(rng: Rng): Case {
  const freq = rng.pick(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'])
  const parts: [string, string][] = [['FREQ', freq]]
  if (rng.chance(0.4)) parts.push(['INTERVAL', String(rng.int(2, 5))])
  if (rng.chance(0.5)) {
    // Mostly plain or mostly ordinal days: rrule requires a day to match both kinds, so a mix rarely matches
    // (and rrule then walks to year 9999 looking for one).
    const ordinal = (freq === 'MONTHLY' || freq === 'YEARLY') && rng.chance(0.5)
    const days = rng
      .shuffle(WEEKDAYS)
      .slice(0, rng.int(1, 4))
      .map((d) => {
        if (!ordinal || rng.chance(0.05)) return d
        return freq === 'MONTHLY'
          ? `${rng.pick(['', '+', '-'])}${rng.int(1, 5)}${d}`
          : `${rng.pick(['', '-'])}${rng.int(1, 53)}${d}`
      })
    parts.push(['BYDAY', days.join(',')])
  }
  if (freq !== 'WEEKLY' && rng.chance(0.35))
    parts.push([
      'BYMONTHDAY',
      Array.from({ length: rng.int(1, 3) }, () => String(rng.int(1, 31) * (rng.chance(0.3) ? -1 : 1))).join(','),
    ])
  if (rng.chance(0.25))
    parts.push(['BYMONTH', rng.shuffle([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]).slice(0, rng.int(1, 5)).join(',')])
  if (rng.chance(0.3)) parts.push(['WKST', rng.pick(WEEKDAYS)])
  const yearday = () => String(rng.int(1, 366) * (rng.chance(0.3) ? -1 : 1))
  const yeardays = () => Array.from({ length: rng.int(1, 4) }, yearday).join(',')
  if (freq === 'YEARLY' && rng.chance(0.2)) parts.push(['BYYEARDAY', yeardays()])
  // Times of day, distinct values in any order (rrule keeps the order written).
  const some = (n: number, max: number) =>
    rng
      .shuffle(Array.from({ length: n }, (_, i) => i))
      .slice(0, rng.int(1, max))
      .join(',')
  if (rng.chance(0.25)) parts.push(['BYHOUR', some(24, 4)])
  if (rng.chance(0.25)) parts.push(['BYMINUTE', some(60, 3)])
  if (rng.chance(0.2)) parts.push(['BYSECOND', some(rng.chance(0.1) ? 61 : 60, 3)])
  // First or last of each period (rrule walks to year 9999 looking for a position no period has).
  if (rng.chance(0.2)) parts.push(['BYSETPOS', rng.pick(['1', '-1', '1,-1'])])
  const dtstart = Date.UTC(
    rng.int(1995, 2035),
    rng.int(0, 11),
    rng.int(1, 31),
    rng.int(0, 23),
    rng.pick([0, 15, 30, 45]),
    rng.chance(0.1) ? rng.int(0, 59) : 0,
  )
  let until: number | undefined
  const end = rng.int(0, 2)
  if (end === 1) parts.push(['COUNT', String(rng.int(1, 40))])
  if (end === 2) until = dtstart + rng.int(0, 4 * 365) * DAY + rng.int(-12, 12) * 3_600_000
  return { parts: rng.shuffle(parts), dtstart, until }
}

/** rrule over the same options, as expand.ts builds them for rules it does not hand to SimpleRule. */
function rruleOf(c: Case, count?: number) {
  const options: Partial<Options> = {
    ...RRule.parseString(c.parts.map(([k, v]) => `${k}=${v}`).join(';')),
    dtstart: new Date(c.dtstart),
  }
  if (c.until !== undefined) options.until = new Date(c.until)
  if (count !== undefined) options.count = count
  return new RRule(options)
}

/** Floats inside [lo, hi], stopping after `budget` of them, as expand.ts reads both expanders. */
function between(c: Case, lo: number, hi: number, budget: number) {
  const viaRrule: number[] = []
  rruleOf(c).between(new Date(lo), new Date(hi), true, (d) => viaRrule.push(d.getTime()) < budget)
  const viaSimple: number[] = []
  SimpleRule.of(c.parts, c.dtstart, c.until)!.scan(lo, hi, (f) => {
    if (f < lo) return true
    if (f > hi) return false
    return viaSimple.push(f) < budget
  })
  return { viaRrule, viaSimple }
}

/** BYHOUR, BYMINUTE and BYSECOND listing every value: 86,400 times a day. */
const TIMES = (): [string, string][] => {
  const every = (n: number) => Array.from({ length: n }, (_, i) => i).join(',')
  return [
    ['BYHOUR', every(24)],
    ['BYMINUTE', every(60)],
    ['BYSECOND', every(60)],
  ]
}

const show = (c: Case) =>
  `${c.parts.map(([k, v]) => `${k}=${v}`).join(';')} from ${new Date(c.dtstart).toISOString()}${c.until !== undefined ? ` until ${new Date(c.until).toISOString()}` : ''}`
const iso = (fs: number[]) => fs.map((f) => new Date(f).toISOString())

describe('SimpleRule', () => {
  test('yields what rrule yields for random rules and windows', () => {
    const rng = new Rng(5545)
    const bad: string[] = []
    let compared = 0
    for (let i = 0; i < 600; i++) {
      const c = randomCase(rng)
      expect(SimpleRule.of(c.parts, c.dtstart, c.until), show(c)).toBeDefined()
      // Windows near DTSTART and years later (where SimpleRule starts its walk near the window).
      const lo =
        c.dtstart + (rng.chance(0.5) ? rng.int(0, 60) * DAY : rng.int(0, 30 * 365) * DAY) + rng.int(0, 23) * 3_600_000
      const hi = lo + rng.int(1, 3 * 365) * DAY
      const budget = rng.chance(0.3) ? rng.int(1, 10) : Number.MAX_SAFE_INTEGER
      const { viaRrule, viaSimple } = between(c, lo, hi, budget)
      compared += viaRrule.length
      if (JSON.stringify(viaRrule) !== JSON.stringify(viaSimple))
        bad.push(
          `${show(c)} [${new Date(lo).toISOString()}, ${new Date(hi).toISOString()}] budget ${budget}: rrule ${iso(viaRrule).slice(0, 4)}… simple ${iso(viaSimple).slice(0, 4)}…`,
        )
    }
    expect(bad).toEqual([])
    expect(compared).toBeGreaterThan(10_000)
  })

  test('finds the first occurrence as rrule does with COUNT=1', () => {
    const rng = new Rng(3)
    const bad: string[] = []
    for (let i = 0; i < 300; i++) {
      const c = randomCase(rng)
      if (c.parts.some(([k]) => k === 'COUNT')) continue
      const want = rruleOf(c, 1).all()[0]?.getTime()
      const got = SimpleRule.of(c.parts, c.dtstart, c.until)!.first()
      if (want !== got) bad.push(`${show(c)}: rrule ${want} simple ${got}`)
    }
    expect(bad).toEqual([])
  })

  test('stops where rrule stops near year 9999', () => {
    const c: Case = {
      parts: [
        ['FREQ', 'WEEKLY'],
        ['BYDAY', 'MO,SU'],
      ],
      dtstart: Date.UTC(9998, 11, 1, 9),
    }
    const { viaRrule, viaSimple } = between(c, c.dtstart, Date.UTC(10001, 0, 1), Number.MAX_SAFE_INTEGER)
    expect(viaSimple).toEqual(viaRrule)
    expect(viaSimple.length).toBeGreaterThan(100)
  })

  test('walks a rule of 86,400 times a day as rrule does, in and between days, with COUNT and UNTIL', () => {
    const every = (n: number) => Array.from({ length: n }, (_, i) => i).join(',')
    const dense: [string, string][] = [['FREQ', 'DAILY'], ...TIMES()]
    const dtstart = Date.UTC(2026, 2, 2, 7, 30)
    const cases: Case[] = [
      { parts: dense, dtstart },
      { parts: [...dense, ['COUNT', '100000']], dtstart },
      { parts: dense, dtstart, until: dtstart + 30 * 3_600_000 + 17_000 },
      {
        parts: [
          ['FREQ', 'WEEKLY'],
          ['BYDAY', 'TU,SA'],
          ['BYHOUR', '23,0,12'],
          ['BYMINUTE', every(60)],
          ['BYSECOND', '59,0'],
        ],
        dtstart,
      },
    ]
    for (const c of cases) {
      for (const [lo, hi, budget] of [
        [dtstart, dtstart + DAY, 1000],
        [dtstart + 16 * 3_600_000 + 1234, dtstart + 2 * DAY, 100_000],
        [dtstart + 26 * 3_600_000, dtstart + 27 * 3_600_000, Number.MAX_SAFE_INTEGER],
      ] as const) {
        const { viaRrule, viaSimple } = between(c, lo, hi, budget)
        expect(viaSimple.length, show(c)).toBe(viaRrule.length)
        expect(viaSimple, show(c)).toEqual(viaRrule)
      }
    }
    expect(between(cases[0]!, dtstart, dtstart + DAY, 1000).viaSimple.length).toBe(1000)
  })

  test('starts a walk without COUNT at `from`, not at the start of its day or of the series', () => {
    const every = (n: number) => Array.from({ length: n }, (_, i) => i).join(',')
    const parts: [string, string][] = [['FREQ', 'DAILY'], ...TIMES()]
    const dtstart = Date.UTC(2026, 2, 2)
    const from = Date.UTC(2040, 0, 1, 12, 30, 15)
    let early = 0
    const seen: number[] = []
    SimpleRule.of(parts, dtstart, undefined)!.scan(from, Infinity, (f) => {
      if (f < from) early++
      else seen.push(f)
      return seen.length < 3
    })
    expect(early).toBe(0)
    expect(seen).toEqual([from, from + 1000, from + 2000])
  })

  test('starts at DTSTART inside a dense period that began before it, with COUNT or without, as rrule does', () => {
    // 1,440 times a day: rrule still walks the days before DTSTART time by time; SimpleRule skips them.
    const every = (n: number) => Array.from({ length: n }, (_, i) => i).join(',')
    const dense: [string, string][] = [
      ['BYHOUR', every(24)],
      ['BYMINUTE', every(60)],
    ]
    const dtstart = Date.UTC(2026, 2, 2, 7, 30)
    const yearly: [string, string][] = [
      ['FREQ', 'YEARLY'],
      ['BYYEARDAY', every(366).replace(/^0,/, '') + ',366'],
    ]
    const monthly: [string, string][] = [
      ['FREQ', 'MONTHLY'],
      ['BYMONTHDAY', '1,2,3,4'],
    ]
    for (const freq of [yearly, monthly]) {
      for (const end of [[], [['COUNT', '3000']]] as [string, string][][]) {
        const c: Case = { parts: [...freq, ...dense, ...end], dtstart }
        for (const lo of [Date.UTC(2026, 0, 1), dtstart - 3_600_000, dtstart, dtstart + 5 * 60_000]) {
          const { viaRrule, viaSimple } = between(c, lo, dtstart + 2 * DAY, 500)
          expect(viaSimple[0], show(c)).toBe(Math.max(lo, dtstart))
          expect(viaSimple, show(c)).toEqual(viaRrule)
        }
      }
    }
  })

  test('counts a BY list value once however often it is written', () => {
    const rule = (parts: [string, string][]) => {
      const out: number[] = []
      SimpleRule.of(parts, Date.UTC(2026, 0, 5, 9), undefined)!.scan(-Infinity, Infinity, (f) => out.push(f) > 0)
      return out
    }
    const twice = rule([
      ['FREQ', 'DAILY'],
      ['BYHOUR', '9,10,9,10'],
      ['COUNT', '4'],
    ])
    expect(twice).toEqual(
      rule([
        ['FREQ', 'DAILY'],
        ['BYHOUR', '9,10'],
        ['COUNT', '4'],
      ]),
    )
    expect(new Set(twice).size).toBe(4)
  })

  test('picks BYSETPOS among 86,400 times a day as rrule does (positions count days × times)', () => {
    const every = (n: number) => Array.from({ length: n }, (_, i) => i).join(',')
    const dtstart = Date.UTC(2026, 2, 2, 7, 30)
    for (const setpos of ['1', '-1', '1,366,-366,200', '-300,301,-1']) {
      for (const freq of ['DAILY', 'WEEKLY']) {
        const c: Case = { parts: [['FREQ', freq], ...TIMES(), ['BYSETPOS', setpos]], dtstart }
        const days = freq === 'DAILY' ? 20 : 120
        const { viaRrule, viaSimple } = between(c, dtstart, dtstart + days * DAY, Number.MAX_SAFE_INTEGER)
        expect(viaSimple.length, show(c)).toBeGreaterThan(10)
        expect(viaSimple, show(c)).toEqual(viaRrule)
      }
    }
  })

  test('takes BYSETPOS past the period as rrule does: nothing after its end, its first day before its start', () => {
    const dtstart = Date.UTC(2026, 0, 5, 9)
    for (const setpos of ['5', '-5', '5,-5,2']) {
      const c: Case = {
        parts: [
          ['FREQ', 'MONTHLY'],
          ['BYDAY', 'MO'],
          ['BYSETPOS', setpos],
        ],
        dtstart,
      }
      const { viaRrule, viaSimple } = between(c, dtstart, dtstart + 730 * DAY, Number.MAX_SAFE_INTEGER)
      expect(viaSimple.length, show(c)).toBeGreaterThan(5)
      expect(viaSimple, show(c)).toEqual(viaRrule)
    }
  })

  test('stops a rule whose days never match after one 400-year cycle of periods', () => {
    const spy = vi.spyOn(SimpleRule.prototype as unknown as { dayMatches(dn: number): boolean }, 'dayMatches')
    try {
      const feb30: [string, string][] = [
        ['FREQ', 'DAILY'],
        ['BYMONTH', '2'],
        ['BYMONTHDAY', '30'],
      ]
      const never = SimpleRule.of(feb30, Date.UTC(2026, 0, 5), undefined)!
      expect(never.first()).toBeUndefined()
      // 146,097 days: one Gregorian cycle; rrule walks on to year 9999 (2.9 million days).
      expect(spy.mock.calls.length).toBeLessThanOrEqual(146_098)
    } finally {
      spy.mockRestore()
    }
    const third: [string, string][] = [
      ['FREQ', 'MONTHLY'],
      ['BYMONTHDAY', '1,2'],
      ['BYSETPOS', '3'],
    ]
    const none = SimpleRule.of(third, Date.UTC(2026, 0, 5), undefined)!
    expect(none.first()).toBeUndefined()
  })

  test('keeps walking a rule that matches rarely', () => {
    // Feb 29 every 100 years: 2000 and 2400 are leap years, 2100-2300 not.
    for (const c of [
      {
        parts: [
          ['FREQ', 'YEARLY'],
          ['INTERVAL', '100'],
          ['BYMONTH', '2'],
          ['BYMONTHDAY', '29'],
        ],
        dtstart: Date.UTC(2000, 0),
      },
      {
        parts: [
          ['FREQ', 'DAILY'],
          ['BYMONTH', '2'],
          ['BYMONTHDAY', '29'],
        ],
        dtstart: Date.UTC(2001, 2, 1, 9),
      },
    ] as Case[]) {
      const { viaRrule, viaSimple } = between(c, c.dtstart, Date.UTC(3000, 0, 1), Number.MAX_SAFE_INTEGER)
      expect(viaSimple.length, show(c)).toBeGreaterThan(1)
      expect(viaSimple, show(c)).toEqual(viaRrule)
    }
  })

  test.each([['FREQ=YEARLY;BYWEEKNO=10'], ['FREQ=HOURLY']])('leaves %s to rrule', (rule) => {
    const parts = rule.split(';').map((p) => p.split('=') as [string, string])
    expect(SimpleRule.of(parts, Date.UTC(2026, 0, 5, 9), undefined)).toBeUndefined()
  })

  test('leaves a DTSTART with milliseconds to rrule', () => {
    expect(SimpleRule.of([['FREQ', 'DAILY']], Date.UTC(2026, 0, 5, 9) + 250, undefined)).toBeUndefined()
  })
})
