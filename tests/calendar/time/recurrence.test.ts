import { DateTime } from 'luxon'
import { describe, expect, test } from 'vitest'
import {
  MAX_INSTANCES,
  expandRecurrence,
  followingRecurrence,
  instanceId,
  instanceSpan,
  iterateRecurrence,
  iterateRecurrenceSlices,
  parseInstanceId,
  truncateRecurrence,
  validateRecurrence,
} from '../../../envs/calendar/time/recurrence.ts'
import { CalendarTimeError, resolveEventTime } from '../../../envs/calendar/time/zoned.ts'

const HOUR = 3_600_000
const at = (dateTime: string, timeZone: string) => resolveEventTime({ dateTime, timeZone }, 'UTC')
const day = (date: string, timeZone = 'UTC') => resolveEventTime({ date }, timeZone)
const local = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toFormat("yyyy-MM-dd'T'HH:mmZZ")

function expandLocal(
  recurrence: string[],
  start: ReturnType<typeof at>,
  extra: { windowStartMs?: number; windowEndMs?: number; limit?: number; durationMs?: number } = {},
) {
  return expandRecurrence({ recurrence, start, durationMs: HOUR, ...extra }).map(
    (o) => o.date ?? local(o.originalStartMs, start.timeZone),
  )
}

describe('expandRecurrence across DST', () => {
  test('a weekly 10:00 New York meeting stays at 10:00 local across the March change', () => {
    const start = at('2026-02-23T10:00:00', 'America/New_York')
    expect(expandLocal(['RRULE:FREQ=WEEKLY;COUNT=4'], start)).toEqual([
      '2026-02-23T10:00-05:00',
      '2026-03-02T10:00-05:00',
      '2026-03-09T10:00-04:00',
      '2026-03-16T10:00-04:00',
    ])
  })
  test('and across the November change', () => {
    const start = at('2026-10-26T10:00:00', 'America/New_York')
    const out = expandRecurrence({ recurrence: ['RRULE:FREQ=WEEKLY;COUNT=2'], start, durationMs: HOUR })
    expect(out.map((o) => new Date(o.originalStartMs).toISOString())).toEqual([
      '2026-10-26T14:00:00.000Z',
      '2026-11-02T15:00:00.000Z',
    ])
  })
  test('Europe/London daily across the end of March', () => {
    const start = at('2026-03-28T09:00:00', 'Europe/London')
    expect(expandLocal(['RRULE:FREQ=DAILY;COUNT=3'], start)).toEqual([
      '2026-03-28T09:00+00:00',
      '2026-03-29T09:00+01:00',
      '2026-03-30T09:00+01:00',
    ])
  })
  test('Australia/Sydney leaves DST in April (southern hemisphere)', () => {
    const start = at('2026-04-04T09:00:00', 'Australia/Sydney')
    const out = expandRecurrence({ recurrence: ['RRULE:FREQ=DAILY;COUNT=2'], start, durationMs: HOUR })
    expect(out.map((o) => new Date(o.originalStartMs).toISOString())).toEqual([
      '2026-04-03T22:00:00.000Z',
      '2026-04-04T23:00:00.000Z',
    ])
  })
  test('Asia/Kolkata keeps its :30 offset', () => {
    const start = at('2026-03-09T09:00:00', 'Asia/Kolkata')
    const out = expandRecurrence({ recurrence: ['RRULE:FREQ=MONTHLY;COUNT=2'], start, durationMs: HOUR })
    expect(out.map((o) => new Date(o.originalStartMs).toISOString())).toEqual([
      '2026-03-09T03:30:00.000Z',
      '2026-04-09T03:30:00.000Z',
    ])
  })
  test('a daily 01:30 occurrence on the fall-back day is the first 01:30', () => {
    const start = at('2026-10-31T01:30:00', 'America/New_York')
    expect(expandLocal(['RRULE:FREQ=DAILY;COUNT=3'], start)).toEqual([
      '2026-10-31T01:30-04:00',
      '2026-11-01T01:30-04:00',
      '2026-11-02T01:30-05:00',
    ])
  })
  test('a daily 02:30 occurrence on the spring-forward day moves to 03:30', () => {
    const start = at('2026-03-07T02:30:00', 'America/New_York')
    expect(expandLocal(['RRULE:FREQ=DAILY;COUNT=3'], start)).toEqual([
      '2026-03-07T02:30-05:00',
      '2026-03-08T03:30-04:00',
      '2026-03-09T02:30-04:00',
    ])
  })
})

describe('expandRecurrence rule parts', () => {
  const ny = (s: string) => at(s, 'America/New_York')
  test.each([
    [
      'BYDAY weekly list',
      ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=5'],
      '2026-03-02T09:00:00',
      ['2026-03-02', '2026-03-04', '2026-03-06', '2026-03-09', '2026-03-11'],
    ],
    [
      'last Friday monthly (-1FR)',
      ['RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=3'],
      '2026-01-30T09:00:00',
      ['2026-01-30', '2026-02-27', '2026-03-27'],
    ],
    [
      'second Tuesday monthly (2TU)',
      ['RRULE:FREQ=MONTHLY;BYDAY=2TU;COUNT=3'],
      '2026-01-13T09:00:00',
      ['2026-01-13', '2026-02-10', '2026-03-10'],
    ],
    [
      'BYSETPOS last weekday',
      ['RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=4'],
      '2026-01-30T09:00:00',
      ['2026-01-30', '2026-02-27', '2026-03-31', '2026-04-30'],
    ],
    [
      '31st skips short months',
      ['RRULE:FREQ=MONTHLY;BYMONTHDAY=31;COUNT=4'],
      '2026-01-31T09:00:00',
      ['2026-01-31', '2026-03-31', '2026-05-31', '2026-07-31'],
    ],
    [
      'BYMONTHDAY -1 is the last day',
      ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=3'],
      '2026-01-31T09:00:00',
      ['2026-01-31', '2026-02-28', '2026-03-31'],
    ],
    [
      'yearly BYMONTH + BYDAY (US Thanksgiving)',
      ['RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=4TH;COUNT=2'],
      '2026-11-26T09:00:00',
      ['2026-11-26', '2027-11-25'],
    ],
    [
      'INTERVAL=2 weekly',
      ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=3'],
      '2026-03-02T09:00:00',
      ['2026-03-02', '2026-03-16', '2026-03-30'],
    ],
    [
      'UNTIL in UTC is inclusive',
      ['RRULE:FREQ=DAILY;UNTIL=20260304T140000Z'],
      '2026-03-02T09:00:00',
      ['2026-03-02', '2026-03-03', '2026-03-04'],
    ],
    [
      'UNTIL just before excludes',
      ['RRULE:FREQ=DAILY;UNTIL=20260304T135959Z'],
      '2026-03-02T09:00:00',
      ['2026-03-02', '2026-03-03'],
    ],
    [
      'UNTIL as a date includes that day',
      ['RRULE:FREQ=DAILY;UNTIL=20260303'],
      '2026-03-02T09:00:00',
      ['2026-03-02', '2026-03-03'],
    ],
    [
      'WKST changes INTERVAL=2 weekly grouping',
      ['RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU;COUNT=4'],
      '2026-03-03T09:00:00',
      ['2026-03-03', '2026-03-15', '2026-03-17', '2026-03-29'],
    ],
    [
      'WKST=MO for the same rule',
      ['RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=MO;COUNT=4'],
      '2026-03-03T09:00:00',
      ['2026-03-03', '2026-03-08', '2026-03-17', '2026-03-22'],
    ],
    [
      'EXDATE with TZID removes one',
      ['RRULE:FREQ=DAILY;COUNT=4', 'EXDATE;TZID=America/New_York:20260303T090000'],
      '2026-03-02T09:00:00',
      ['2026-03-02', '2026-03-04', '2026-03-05'],
    ],
    [
      'EXDATE in UTC removes one',
      ['RRULE:FREQ=DAILY;COUNT=4', 'EXDATE:20260304T140000Z,20260305T140000Z'],
      '2026-03-02T09:00:00',
      ['2026-03-02', '2026-03-03'],
    ],
    [
      'EXDATE floating is read in the event zone',
      ['RRULE:FREQ=DAILY;COUNT=3', 'EXDATE:20260302T090000'],
      '2026-03-02T09:00:00',
      ['2026-03-03', '2026-03-04'],
    ],
    [
      'EXDATE VALUE=DATE removes that day',
      ['RRULE:FREQ=DAILY;COUNT=3', 'EXDATE;VALUE=DATE:20260303'],
      '2026-03-02T09:00:00',
      ['2026-03-02', '2026-03-04'],
    ],
    [
      'RDATE adds an instance',
      ['RRULE:FREQ=WEEKLY;COUNT=2', 'RDATE;TZID=America/New_York:20260305T090000'],
      '2026-03-02T09:00:00',
      ['2026-03-02', '2026-03-05', '2026-03-09'],
    ],
    ['RDATE only', ['RDATE:20260310T130000Z'], '2026-03-02T09:00:00', ['2026-03-02', '2026-03-10']],
    [
      'EXRULE removes a pattern',
      ['RRULE:FREQ=DAILY;COUNT=5', 'EXRULE:FREQ=WEEKLY;BYDAY=TU'],
      '2026-03-02T09:00:00',
      ['2026-03-02', '2026-03-04', '2026-03-05', '2026-03-06'],
    ],
    [
      'DTSTART off the rule is an instance and the first of COUNT',
      ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3'],
      '2026-03-04T09:00:00',
      ['2026-03-04', '2026-03-09', '2026-03-16'],
    ],
    [
      'DTSTART off the rule without COUNT',
      ['RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20260317T000000Z'],
      '2026-03-04T09:00:00',
      ['2026-03-04', '2026-03-09', '2026-03-16'],
    ],
    [
      'COUNT=1 off the rule is only DTSTART',
      ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=1'],
      '2026-03-04T09:00:00',
      ['2026-03-04'],
    ],
    ['lowercase rule text', ['rrule:freq=daily;count=2'], '2026-03-02T09:00:00', ['2026-03-02', '2026-03-03']],
  ])('%s', (_name, recurrence, startLocal, dates) => {
    expect(expandLocal(recurrence, ny(startLocal)).map((s) => s.slice(0, 10))).toEqual(dates)
  })

  test('every instance keeps the local time', () => {
    const out = expandLocal(['RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=12'], ny('2026-01-30T09:00:00'))
    expect(out.every((s) => s.slice(11, 16) === '09:00')).toBe(true)
    expect(out).toHaveLength(12)
  })
})

describe('expandRecurrence all-day', () => {
  test('yields dates and local midnights', () => {
    const start = day('2026-03-07', 'America/New_York')
    const out = expandRecurrence({
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3', 'EXDATE;VALUE=DATE:20260308'],
      start,
      durationMs: 24 * HOUR,
    })
    expect(out).toEqual([
      { originalStartMs: Date.parse('2026-03-07T05:00:00Z'), date: '2026-03-07' },
      { originalStartMs: Date.parse('2026-03-09T04:00:00Z'), date: '2026-03-09' },
    ])
  })
  test('yearly birthday on Feb 29 only in leap years', () => {
    const start = day('2028-02-29')
    expect(
      expandRecurrence({ recurrence: ['RRULE:FREQ=YEARLY;COUNT=2'], start, durationMs: 24 * HOUR }).map((o) => o.date),
    ).toEqual(['2028-02-29', '2032-02-29'])
  })
  test('UNTIL as a date and RDATE as a date', () => {
    const start = day('2026-03-02')
    const out = expandRecurrence({
      recurrence: ['RRULE:FREQ=WEEKLY;UNTIL=20260309', 'RDATE;VALUE=DATE:20260320'],
      start,
      durationMs: 24 * HOUR,
    })
    expect(out.map((o) => o.date)).toEqual(['2026-03-02', '2026-03-09', '2026-03-20'])
  })
  test('window overlap uses whole days', () => {
    const start = day('2026-03-02')
    const out = expandRecurrence({
      recurrence: ['RRULE:FREQ=DAILY'],
      start,
      durationMs: 2 * 24 * HOUR,
      windowStartMs: Date.parse('2026-03-10T12:00:00Z'),
      windowEndMs: Date.parse('2026-03-11T00:00:00Z'),
    })
    expect(out.map((o) => o.date)).toEqual(['2026-03-09', '2026-03-10'])
  })
})

describe('expandRecurrence windowing', () => {
  const start = at('2026-03-02T09:00:00', 'America/New_York') // 14:00Z
  test('includes an instance that started before the window but ends inside it', () => {
    const out = expandRecurrence({
      recurrence: ['RRULE:FREQ=DAILY'],
      start,
      durationMs: 2 * HOUR,
      windowStartMs: Date.parse('2026-03-05T15:30:00Z'),
      windowEndMs: Date.parse('2026-03-06T14:00:00Z'),
    })
    expect(out.map((o) => local(o.originalStartMs, 'America/New_York'))).toEqual(['2026-03-05T09:00-05:00'])
  })
  test('excludes an instance that ends exactly at the window start, and one starting at the window end', () => {
    const out = expandRecurrence({
      recurrence: ['RRULE:FREQ=DAILY'],
      start,
      durationMs: HOUR,
      windowStartMs: Date.parse('2026-03-05T15:00:00Z'),
      windowEndMs: Date.parse('2026-03-06T14:00:00Z'),
    })
    expect(out).toEqual([])
  })
  test('a zero-length instance at the window start counts', () => {
    const out = expandRecurrence({
      recurrence: ['RRULE:FREQ=DAILY'],
      start,
      durationMs: 0,
      windowStartMs: Date.parse('2026-03-05T14:00:00Z'),
      limit: 1,
    })
    expect(out.map((o) => new Date(o.originalStartMs).toISOString())).toEqual(['2026-03-05T14:00:00.000Z'])
  })
  test('COUNT counts from the series start, not the window', () => {
    const out = expandRecurrence({
      recurrence: ['RRULE:FREQ=DAILY;COUNT=5'],
      start,
      durationMs: HOUR,
      windowStartMs: Date.parse('2026-03-05T00:00:00Z'),
    })
    expect(out).toHaveLength(2)
  })
  test('windows around and after the end of a COUNT rule find exactly its instances there', () => {
    const rule = ['RRULE:FREQ=DAILY;BYHOUR=9,21,3;COUNT=50']
    const all = expandRecurrence({ recurrence: rule, start, durationMs: HOUR })
    expect(all).toHaveLength(50)
    const end = all[49]!.originalStartMs
    for (const ws of [end - 3 * 24 * HOUR, end - HOUR, end, end + 1, end + 30 * 24 * HOUR]) {
      const we = ws + 10 * 24 * HOUR
      const got = expandRecurrence({ recurrence: rule, start, durationMs: HOUR, windowStartMs: ws, windowEndMs: we })
      expect(got).toEqual(all.filter((o) => o.originalStartMs + HOUR > ws && o.originalStartMs < we))
    }
  })
  test('an unbounded rule stops at the cap', () => {
    expect(expandRecurrence({ recurrence: ['RRULE:FREQ=DAILY'], start, durationMs: HOUR })).toHaveLength(MAX_INSTANCES)
    expect(expandRecurrence({ recurrence: ['RRULE:FREQ=DAILY'], start, durationMs: HOUR, limit: 10 })).toHaveLength(10)
  })
  test('a window far in the future still finds instances of an old series', () => {
    const out = expandRecurrence({
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO'],
      start,
      durationMs: HOUR,
      windowStartMs: Date.parse('2030-01-01T00:00:00Z'),
      windowEndMs: Date.parse('2030-01-15T00:00:00Z'),
    })
    expect(out.map((o) => local(o.originalStartMs, 'America/New_York'))).toEqual([
      '2030-01-07T09:00-05:00',
      '2030-01-14T09:00-05:00',
    ])
  })
})

describe('validateRecurrence', () => {
  test.each([
    ['RRULE:FREQ=FOO'],
    ['RRULE:COUNT=3'],
    ['RRULE:FREQ=DAILY;COUNT=abc'],
    ['RRULE:FREQ=DAILY;COUNT=0'],
    ['RRULE:FREQ=DAILY;BYDAY=XX'],
    ['RRULE:FREQ=DAILY;FOO=1'],
    ['RRULE:FREQ=DAILY;COUNT=2;UNTIL=20260101T000000Z'],
    ['RRULE:FREQ=DAILY;UNTIL=2026-01-01'],
    ['RRULE:FREQ=WEEKLY;BYDAY=2TU'],
    ['RRULE:FREQ=MONTHLY;BYSETPOS=1'],
    ['RRULE:FREQ=MONTHLY;BYMONTHDAY=32'],
    ['RRULE:FREQ=YEARLY;BYMONTH=13'],
    ['RRULE:FREQ=DAILY;INTERVAL=-1'],
    ['RRULE:FREQ=DAILY;FREQ=WEEKLY'],
    ['RRULE:'],
    ['FREQ=DAILY'],
    ['VEVENT:FREQ=DAILY'],
    ['EXDATE:2026-03-03'],
    ['EXDATE;TZID=Mars/Olympus:20260303T090000'],
    ['EXDATE;VALUE=DATE:20260303T090000'],
    ['EXDATE:20260230'],
    ['RDATE;VALUE=DURATION:PT1H'],
  ])('rejects %s', (line) => {
    expect(() => validateRecurrence([line])).toThrow(CalendarTimeError)
    expect(() => validateRecurrence([line])).toThrow('Invalid recurrence rule.')
  })
  test.each([
    [['RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20261231T235959Z']],
    [['RRULE:FREQ=MONTHLY;BYDAY=-1FR']],
    [['RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=9']],
    [['EXDATE;TZID=Europe/London:20260303T090000,20260304T090000']],
    [['RDATE;VALUE=DATE:20260303']],
    [['RDATE;VALUE=PERIOD:20260303T090000Z/PT1H']],
  ])('accepts %j', (lines) => {
    expect(() => validateRecurrence(lines)).not.toThrow()
  })
})

describe('instanceId', () => {
  test.each([
    [
      { ms: Date.parse('2026-03-09T15:00:00Z'), allDay: false },
      'abc123_20260309T150000Z',
      { baseId: 'abc123', originalStartMs: Date.parse('2026-03-09T15:00:00Z') },
    ],
    [
      { ms: Date.parse('2026-03-28T21:09:03Z'), allDay: false },
      '6aqu17qdbt1pa71n0rfie5cbmo_20260328T210903Z',
      { baseId: '6aqu17qdbt1pa71n0rfie5cbmo', originalStartMs: Date.parse('2026-03-28T21:09:03Z') },
    ],
    [{ ms: 0, allDay: true, date: '2026-03-09' }, 'abc123_20260309', { baseId: 'abc123', date: '2026-03-09' }],
  ])('round-trips %j', (start, id, parsed) => {
    expect(instanceId(parsed.baseId, start)).toBe(id)
    expect(parseInstanceId(id)).toEqual(parsed)
  })
  test.each([['abc123'], ['abc123_2026'], ['abc123_20261340'], ['abc123_20260309T250000Z'], ['_20260309']])(
    'parseInstanceId(%s) is undefined',
    (id) => {
      expect(parseInstanceId(id)).toBeUndefined()
    },
  )
})

describe('truncateRecurrence and followingRecurrence', () => {
  const start = at('2026-03-02T09:00:00', 'America/New_York')
  const split = Date.parse('2026-03-16T13:00:00Z') // the 4th weekly instance (EDT)
  test('an unbounded rule gets an UNTIL just before the split', () => {
    const cut = truncateRecurrence(['RRULE:FREQ=WEEKLY;BYDAY=MO'], start, split)
    expect(cut).toEqual(['RRULE:FREQ=WEEKLY;UNTIL=20260316T125959Z;BYDAY=MO'])
    expect(expandLocal(cut, start).map((s) => s.slice(0, 10))).toEqual(['2026-03-02', '2026-03-09'])
  })
  test('COUNT that reaches the split becomes UNTIL; the new series keeps the rest of the count', () => {
    const lines = ['RRULE:FREQ=WEEKLY;COUNT=5', 'EXDATE;TZID=America/New_York:20260309T090000,20260323T090000']
    expect(truncateRecurrence(lines, start, split)).toEqual([
      'RRULE:FREQ=WEEKLY;UNTIL=20260316T125959Z',
      'EXDATE;TZID=America/New_York:20260309T090000',
    ])
    expect(followingRecurrence(lines, start, split)).toEqual([
      'RRULE:FREQ=WEEKLY;COUNT=3',
      'EXDATE;TZID=America/New_York:20260323T090000',
    ])
  })
  test('a rule that already ends before the split is unchanged', () => {
    expect(truncateRecurrence(['RRULE:FREQ=WEEKLY;COUNT=2'], start, split)).toEqual(['RRULE:FREQ=WEEKLY;COUNT=2'])
    expect(truncateRecurrence(['RRULE:FREQ=WEEKLY;UNTIL=20260310T000000Z'], start, split)).toEqual([
      'RRULE:FREQ=WEEKLY;UNTIL=20260310T000000Z',
    ])
  })
  test('all-day series end with a date UNTIL on the day before', () => {
    const allDay = day('2026-03-02', 'America/New_York')
    const cut = truncateRecurrence(
      ['RRULE:FREQ=DAILY;COUNT=10', 'RDATE;VALUE=DATE:20260301,20260320'],
      allDay,
      Date.parse('2026-03-05T05:00:00Z'),
    )
    expect(cut).toEqual(['RRULE:FREQ=DAILY;UNTIL=20260304', 'RDATE;VALUE=DATE:20260301'])
  })
})

describe('expandRecurrence starting near the window', () => {
  const rules = [
    'RRULE:FREQ=DAILY;INTERVAL=3',
    'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU',
    'RRULE:FREQ=WEEKLY;INTERVAL=3',
    'RRULE:FREQ=MONTHLY;INTERVAL=5;BYMONTHDAY=31',
    'RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1',
    'RRULE:FREQ=MONTHLY;INTERVAL=2',
    'RRULE:FREQ=YEARLY;INTERVAL=2',
    'RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO',
    'RRULE:FREQ=DAILY;BYHOUR=9,15;UNTIL=20290101T000000Z',
    'RRULE:FREQ=MONTHLY;BYDAY=2TU,-1FR',
    'RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
  ]
  const starts = [
    at('2023-01-31T09:30:00', 'America/New_York'),
    at('2022-07-17T23:15:00', 'Australia/Sydney'),
    day('2021-03-31', 'Europe/London'),
  ]
  const windows = [
    ['2026-03-01', '2026-04-15'],
    ['2027-10-20', '2028-03-10'],
    ['2023-02-01', '2023-03-01'],
  ] as const
  test.each(rules)('%s gives the same instances as a walk from the series start', (rule) => {
    for (const start of starts) {
      const all = expandRecurrence({
        recurrence: [rule],
        start,
        durationMs: HOUR,
        limit: 5000,
        windowEndMs: Date.parse('2029-01-01T00:00:00Z'),
      })
      for (const [from, to] of windows) {
        const ws = Date.parse(`${from}T00:00:00Z`)
        const we = Date.parse(`${to}T00:00:00Z`)
        const endOf = (o: { originalStartMs: number; date?: string }) =>
          o.date
            ? DateTime.fromISO(o.date, { zone: start.timeZone }).plus({ days: 1 }).toMillis()
            : o.originalStartMs + HOUR
        const expected = all.filter((o) => o.originalStartMs < we && endOf(o) > ws)
        expect(
          expandRecurrence({ recurrence: [rule], start, durationMs: HOUR, windowStartMs: ws, windowEndMs: we }),
        ).toEqual(expected)
      }
    }
  })
})

describe('expandRecurrence windows next to offset changes', () => {
  // The walk starts an hour (plus the zone's offset changes nearby) before the window's float, not two days: a
  // window anywhere around a change still gets exactly the series' instances that overlap it.
  const halfHours = `RRULE:FREQ=DAILY;BYHOUR=${Array.from({ length: 24 }, (_, i) => i).join(',')};BYMINUTE=0,30`
  const changes = [
    ['America/New_York', '2026-03-08T07:00:00Z'],
    ['America/New_York', '2026-11-01T06:00:00Z'],
    ['Pacific/Apia', '2011-12-30T10:00:00Z'],
    ['Antarctica/Troll', '2026-03-29T01:00:00Z'],
    ['Australia/Lord_Howe', '2026-04-04T15:00:00Z'],
  ] as const
  test.each(changes)('%s around %s', (zone, change) => {
    const c = Date.parse(change)
    const dateTime = DateTime.fromMillis(c - 3 * 24 * HOUR, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ss")
    const start = resolveEventTime({ dateTime, timeZone: zone }, 'UTC')
    for (const durationMs of [0, HOUR, 5 * HOUR]) {
      const opts = { recurrence: [halfHours], start, durationMs }
      const all = expandRecurrence({ ...opts, limit: 5000, windowEndMs: c + 4 * 24 * HOUR })
      for (let ws = c - 36 * HOUR; ws <= c + 36 * HOUR; ws += 20 * 60_000) {
        const we = ws + 6 * HOUR
        const overlaps = (o: { originalStartMs: number }) =>
          o.originalStartMs + durationMs > ws || o.originalStartMs >= ws
        const expected = all.filter((o) => o.originalStartMs < we && overlaps(o))
        const got = expandRecurrence({ ...opts, windowStartMs: ws, windowEndMs: we })
        expect(got, `${durationMs} ${new Date(ws).toISOString()}`).toEqual(expected)
      }
    }
  })
})

describe('instanceSpan', () => {
  test('a timed instance keeps the series length in absolute time', () => {
    const start = at('2026-03-07T09:00:00', 'America/New_York')
    const end = at('2026-03-07T10:30:00', 'America/New_York')
    const [, second] = expandRecurrence({
      recurrence: ['RRULE:FREQ=DAILY;COUNT=2'],
      start,
      durationMs: end.ms - start.ms,
    })
    const span = instanceSpan(second!, start, end)
    expect(local(span.start.ms, 'America/New_York')).toBe('2026-03-08T09:00-04:00')
    expect(local(span.end.ms, 'America/New_York')).toBe('2026-03-08T10:30-04:00')
    expect(span.start.givenTimeZone).toBe('America/New_York')
  })
  test('an all-day instance keeps its length in days', () => {
    const start = day('2026-03-07', 'America/New_York')
    const end = day('2026-03-09', 'America/New_York')
    const span = instanceSpan({ originalStartMs: Date.parse('2026-03-14T05:00:00Z'), date: '2026-03-14' }, start, end)
    expect(span.start.date).toBe('2026-03-14')
    expect(span.end).toEqual({
      ms: Date.parse('2026-03-16T04:00:00Z'),
      allDay: true,
      date: '2026-03-16',
      timeZone: 'America/New_York',
    })
  })
})

describe('iterateRecurrence', () => {
  const start = at('2026-01-05T09:00:00', 'America/New_York')
  test.each([
    [
      'weekly in a window',
      ['RRULE:FREQ=WEEKLY;BYDAY=MO,TH'],
      { windowStartMs: Date.parse('2026-03-01T00:00:00Z'), windowEndMs: Date.parse('2026-09-01T00:00:00Z') },
    ],
    [
      'overlap at the window start',
      ['RRULE:FREQ=DAILY'],
      { windowStartMs: Date.parse('2026-02-10T14:30:00Z'), windowEndMs: Date.parse('2026-04-10T00:00:00Z') },
    ],
    ['bounded, no window', ['RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=14', 'RDATE:20300101T150000Z'], {}],
    ['sparse yearly', ['RRULE:FREQ=YEARLY;INTERVAL=3;UNTIL=20400101T000000Z'], {}],
  ])('%s yields what expandRecurrence returns, in order', (_name, recurrence, window) => {
    const opts = { recurrence, start, durationMs: 2 * HOUR, ...window }
    expect([...iterateRecurrence(opts)]).toEqual(expandRecurrence({ ...opts, limit: 100_000 }))
  })
  test('the sliced form marks every slice, also the empty ones after a COUNT rule ended', () => {
    const opts = {
      recurrence: ['RRULE:FREQ=DAILY;COUNT=20'],
      start,
      durationMs: HOUR,
      windowStartMs: Date.parse('2026-01-20T00:00:00Z'),
      windowEndMs: Date.parse('2027-01-01T00:00:00Z'),
    }
    const items = [...iterateRecurrenceSlices(opts)]
    expect(items.filter((o) => o !== null)).toEqual([...iterateRecurrence(opts)])
    expect(items.filter((o) => o !== null)).toHaveLength(5)
    // A week, then doubling slices to the window end: marks after each, most of them with nothing before.
    expect(items.filter((o) => o === null).length).toBeGreaterThanOrEqual(5)
    expect(items.at(-1)).toBeNull()
  })
  test('an unbounded series can be read lazily', () => {
    const taken: number[] = []
    for (const o of iterateRecurrence({ recurrence: ['RRULE:FREQ=DAILY'], start, durationMs: HOUR })) {
      taken.push(o.originalStartMs)
      if (taken.length === 3) break
    }
    expect(taken.map((ms) => local(ms, 'America/New_York'))).toEqual([
      '2026-01-05T09:00-05:00',
      '2026-01-06T09:00-05:00',
      '2026-01-07T09:00-05:00',
    ])
  })
})

describe('COUNT rules of the same text on different series', () => {
  test('each series ends at its own last occurrence (the last one is remembered per rule and wall-clock DTSTART)', () => {
    const rule = ['RRULE:FREQ=DAILY;COUNT=3']
    const year = { windowStartMs: Date.UTC(2026, 0, 1), windowEndMs: Date.UTC(2027, 0, 1) }
    const early = at('2026-01-05T09:00:00', 'UTC')
    const late = at('2026-06-10T09:00:00', 'UTC')
    const zoned = at('2026-06-10T09:00:00', 'Asia/Tokyo')
    // A window after the first series' end, read first: the second series must not inherit its end.
    expect(expandLocal(rule, early, { windowStartMs: Date.UTC(2026, 5, 1), windowEndMs: year.windowEndMs })).toEqual([])
    expect(expandLocal(rule, early, year)).toEqual([
      '2026-01-05T09:00+00:00',
      '2026-01-06T09:00+00:00',
      '2026-01-07T09:00+00:00',
    ])
    expect(expandLocal(rule, late, year)).toEqual([
      '2026-06-10T09:00+00:00',
      '2026-06-11T09:00+00:00',
      '2026-06-12T09:00+00:00',
    ])
    const fromLate = { windowStartMs: Date.UTC(2026, 5, 12, 1), windowEndMs: year.windowEndMs }
    expect(expandLocal(rule, late, fromLate)).toEqual(['2026-06-12T09:00+00:00'])
    expect(expandLocal(rule, zoned, fromLate)).toEqual([])
    expect(expandLocal(rule, zoned, year)).toEqual([
      '2026-06-10T09:00+09:00',
      '2026-06-11T09:00+09:00',
      '2026-06-12T09:00+09:00',
    ])
  })
})
