/**
 * The quickAdd grammar: a parse state and one rule per phrase kind. Each rule looks at token `i`, and when a
 * phrase starts there it records its meaning on the state, marks its tokens used and returns how many.
 */
import { DateTime } from 'luxon'
import type { Meridiem, Token } from './quickadd-lex.ts'

export type Clock = { hour: number; minute: number; meridiem?: Meridiem }
type Day = { year: number; month: number; day: number }

/** A word table without a prototype: the words are the user's text, and `constructor` must not find Object's. */
function lookup<T>(entries: Record<string, T>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries)
}

const WEEKDAYS = lookup<number>({
  mon: 1,
  monday: 1,
  tue: 2,
  tues: 2,
  tuesday: 2,
  wed: 3,
  weds: 3,
  wednesday: 3,
  thu: 4,
  thur: 4,
  thurs: 4,
  thursday: 4,
  fri: 5,
  friday: 5,
  sat: 6,
  saturday: 6,
  sun: 7,
  sunday: 7,
})
export const BYDAY = ['', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU']
const MONTHS = lookup<number>({
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
})
const NUMBER_WORDS = lookup<number>({
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  ten: 10,
  fifteen: 15,
  thirty: 30,
  'forty-five': 45,
})
const MINUTE_UNITS = lookup<number>({
  m: 1,
  min: 1,
  mins: 1,
  minute: 1,
  minutes: 1,
  h: 60,
  hr: 60,
  hrs: 60,
  hour: 60,
  hours: 60,
  d: 1440,
  day: 1440,
  days: 1440,
})
/** Default clock times of day parts ("tomorrow morning"). */
export const DAY_PARTS = lookup<Clock>({
  morning: { hour: 9, minute: 0 },
  afternoon: { hour: 14, minute: 0 },
  evening: { hour: 18, minute: 0 },
  tonight: { hour: 19, minute: 0 },
  night: { hour: 19, minute: 0 },
})
/** Words that only join a recognised phrase to the rest ("on Friday", "at 3pm"). */
export const CONNECTORS = new Set(['on', 'at', '@', 'from', 'by', 'this', 'for', ','])

export class Parse {
  used = new Set<number>()
  date?: Day
  weekday?: number
  start?: Clock
  end?: Clock
  durationMin?: number
  pm = false
  byday?: string[]
  rule?: string
  dayPart?: Clock
  allDay = false

  constructor(
    readonly toks: Token[],
    readonly today: DateTime,
  ) {}

  word(i: number): string | undefined {
    const t = this.toks[i]
    return t && (t.kind === 'word' || t.kind === 'sym') && !this.used.has(i)
      ? t.kind === 'word'
        ? t.norm
        : t.text
      : undefined
  }
  num(i: number): number | undefined {
    const t = this.toks[i]
    if (!t || this.used.has(i)) return undefined
    if (t.kind === 'num') return t.value
    return t.kind === 'word' ? NUMBER_WORDS[t.norm] : undefined
  }
  use(from: number, count: number): number {
    for (let k = from; k < from + count; k++) this.used.add(k)
    return count
  }
}

// ── phrase rules: each returns how many tokens it used at `i` (0 = no match) ──

type Rule = (p: Parse, i: number) => number

/** "every weekday", "every Tuesday and Thursday", "every other week", "every 2 months", "Mondays". */
const repetition: Rule = (p, i) => {
  const plural = p.word(i)?.match(/^(mon|tues|wednes|thurs|fri|satur|sun)days$/)
  if (plural) {
    p.rule = 'FREQ=WEEKLY'
    p.byday = [BYDAY[WEEKDAYS[`${plural[1]}day`]!]!]
    return p.use(i, 1)
  }
  if (p.word(i) !== 'every' && p.word(i) !== 'each') return 0
  let j = i + 1
  let interval = 1
  if (p.word(j) === 'other') ((interval = 2), j++)
  else if (
    p.num(j) !== undefined &&
    p.word(j) !== 'a' &&
    Number.isInteger(p.num(j)) &&
    p.num(j)! >= 1 &&
    p.num(j)! <= 999
  )
    ((interval = p.num(j)!), j++)
  const w = p.word(j)
  const suffix = interval > 1 ? `;INTERVAL=${interval}` : ''
  const freq = lookup<string>({
    day: 'DAILY',
    days: 'DAILY',
    week: 'WEEKLY',
    weeks: 'WEEKLY',
    month: 'MONTHLY',
    months: 'MONTHLY',
    year: 'YEARLY',
    years: 'YEARLY',
  })
  if (w && freq[w]) {
    p.rule = `FREQ=${freq[w]}${suffix}`
    const nth = w.startsWith('month') ? nthWeekday(p, j + 1) : undefined
    if (nth) p.byday = [nth.byday]
    return p.use(i, j - i + 1 + (nth?.used ?? 0))
  }
  if (w === 'weekday' || w === 'weekdays' || w === 'weekend' || w === 'weekends') {
    p.rule = `FREQ=WEEKLY${suffix}`
    p.byday = w.startsWith('weekday') ? ['MO', 'TU', 'WE', 'TH', 'FR'] : ['SA', 'SU']
    return p.use(i, j - i + 1)
  }
  const days: string[] = []
  while (p.word(j) !== undefined && WEEKDAYS[p.word(j)!.replace(/s$/, '')] !== undefined) {
    days.push(BYDAY[WEEKDAYS[p.word(j)!.replace(/s$/, '')]!]!)
    const sep = p.word(j + 1)
    if ((sep === 'and' || sep === ',') && WEEKDAYS[p.word(j + 2)?.replace(/s$/, '') ?? ''] !== undefined) j += 2
    else break
  }
  if (!days.length) return 0
  p.rule = `FREQ=WEEKLY${suffix}`
  p.byday = days
  return p.use(i, j - i + 1)
}

const ORDINALS = lookup<number>({ first: 1, second: 2, third: 3, fourth: 4, last: -1 })

/** "on the 2nd Tuesday", "on the last Friday" after "every month" → BYDAY=2TU / -1FR. */
function nthWeekday(p: Parse, i: number): { byday: string; used: number } | undefined {
  let j = i
  if (p.word(j) === 'on') j++
  if (p.word(j) === 'the') j++
  const t = p.toks[j]
  const n = t?.kind === 'num' && t.ordinal && !p.used.has(j) ? t.value : ORDINALS[p.word(j) ?? '']
  const wd = WEEKDAYS[p.word(j + 1) ?? '']
  if (n === undefined || n > 5 || wd === undefined) return undefined
  return { byday: `${n}${BYDAY[wd]}`, used: j + 2 - i }
}

/** Whether `day` matches one BYDAY entry (`TU`, `2TU`, `-1FR`). */
export function matchesByday(day: DateTime, entry: string): boolean {
  const m = /^(-?\d)?([A-Z]{2})$/.exec(entry)!
  if (BYDAY[day.weekday] !== m[2]) return false
  if (!m[1]) return true
  const n = Number(m[1])
  return n > 0 ? Math.ceil(day.day / 7) === n : day.plus({ days: 7 }).month !== day.month
}

const relativeDay: Rule = (p, i) => {
  const w = p.word(i)
  const offsets = lookup<number>({ today: 0, tonight: 0, tomorrow: 1, tmrw: 1, tmr: 1, yesterday: -1 })
  if (w === 'day' && p.word(i + 1) === 'after' && p.word(i + 2) === 'tomorrow')
    return setDay(p, p.today.plus({ days: 2 }), p.use(i, 3))
  if (w === undefined || offsets[w] === undefined) return 0
  if (w === 'tonight') p.dayPart = DAY_PARTS['tonight']
  return setDay(p, p.today.plus({ days: offsets[w] }), p.use(i, 1))
}

function setDay(p: Parse, d: DateTime, used: number): number {
  p.date = { year: d.year, month: d.month, day: d.day }
  return used
}

/** "Friday", "this Friday" (the next one on or after today), "next Friday" (the one in next week), "next week". */
const weekday: Rule = (p, i) => {
  const lead = p.word(i)
  const j = lead === 'next' || lead === 'this' || lead === 'coming' ? i + 1 : i
  const w = p.word(j)
  const later = { week: { weeks: 1 }, month: { months: 1 }, year: { years: 1 } }
  if (lead === 'next' && (w === 'week' || w === 'month' || w === 'year'))
    return setDay(p, p.today.plus(later[w]), p.use(i, 2))
  const wd = w === undefined ? undefined : WEEKDAYS[w]
  if (wd === undefined) return 0
  const ahead = (wd - p.today.weekday + 7) % 7
  // Deviation: "next Friday" means the Friday of next week (Monday-first weeks); the real product's reading may differ.
  const d = lead === 'next' ? p.today.startOf('week').plus({ weeks: 1, days: wd - 1 }) : p.today.plus({ days: ahead })
  return setDay(p, d, p.use(i, j - i + 1))
}

/** "March 14", "Mar 14th 2027", "14 March", "3/14", "2026-03-14". Dates already past this year mean next year. */
const calendarDate: Rule = (p, i) => {
  const t = p.toks[i]
  if (t?.kind === 'date' && !p.used.has(i)) return explicitDate(p, t.month, t.day, t.year, i, 1)
  const m1 = MONTHS[p.word(i) ?? '']
  const n1 = p.toks[i + 1]?.kind === 'num' ? p.num(i + 1) : undefined
  if (m1 !== undefined && n1 !== undefined && Number.isInteger(n1) && n1 >= 1 && n1 <= 31) {
    const y = yearAt(p, i + 2)
    return explicitDate(p, m1, n1, y, i, y === undefined ? 2 : 3)
  }
  const n0 = t?.kind === 'num' ? p.num(i) : undefined
  const m2 = MONTHS[p.word(i + 1 + (p.word(i + 1) === 'of' ? 1 : 0)) ?? '']
  if (n0 !== undefined && m2 !== undefined && Number.isInteger(n0) && n0 >= 1 && n0 <= 31) {
    const k = i + 2 + (p.word(i + 1) === 'of' ? 1 : 0)
    const y = yearAt(p, k)
    return explicitDate(p, m2, n0, y, i, k - i + (y === undefined ? 0 : 1))
  }
  return 0
}

function yearAt(p: Parse, i: number): number | undefined {
  const n = p.toks[i]?.kind === 'num' ? p.num(i) : undefined
  return n !== undefined && n >= 1900 && n <= 2999 ? n : undefined
}

/** Sets a named date and uses its `count` tokens at `i`; a date that does not exist (Feb 30) is left as text. */
function explicitDate(
  p: Parse,
  month: number,
  day: number,
  year: number | undefined,
  i: number,
  count: number,
): number {
  let d = DateTime.fromObject({ year: year ?? p.today.year, month, day }, { zone: p.today.zone })
  if (!d.isValid) return 0
  if (year === undefined && d < p.today) d = d.plus({ years: 1 })
  return setDay(p, d, p.use(i, count))
}

/** "in 3 days", "in 2 weeks". */
const inDays: Rule = (p, i) => {
  if (p.word(i) !== 'in') return 0
  const n = p.num(i + 1)
  const unit = p.word(i + 2)
  if (n === undefined || !unit) return 0
  const days = n > 3660 ? undefined : /^days?$/.test(unit) ? n : /^weeks?$/.test(unit) ? 7 * n : undefined
  return days === undefined ? 0 : setDay(p, p.today.plus({ days }), p.use(i, 3))
}

/** A clock time at `i`: `1pm`, `9:30`, `noon`, `midnight`, or a bare hour when `bare` allows it. */
function clockAt(p: Parse, i: number, bare: boolean): Clock | undefined {
  const t = p.toks[i]
  if (!t || p.used.has(i)) return undefined
  if (t.kind === 'time') return { hour: t.hour, minute: t.minute, ...(t.meridiem ? { meridiem: t.meridiem } : {}) }
  if (t.kind === 'word' && t.norm === 'noon') return { hour: 12, minute: 0 }
  if (t.kind === 'word' && t.norm === 'midnight') return { hour: 24, minute: 0 }
  if (bare && t.kind === 'num' && !t.ordinal && Number.isInteger(t.value) && t.value <= 24)
    return { hour: t.value, minute: 0 }
  return undefined
}

const RANGE_WORDS = new Set(['-', '–', '—', 'to', 'until', 'till', 'til', 'and'])

/** "7pm-9pm", "7-9pm", "from 2 to 3pm", "between 2 and 3", "at 4:15pm", "9:30". */
const clockRange: Rule = (p, i) => {
  const lead = p.word(i)
  const led = lead === 'from' || lead === 'between' || lead === 'at' || lead === '@'
  const s = led ? i + 1 : i
  const joiner = p.word(s + 1)
  const rangeNext = joiner !== undefined && RANGE_WORDS.has(joiner) && (joiner !== 'and' || lead === 'between')
  const end = rangeNext ? clockAt(p, s + 2, true) : undefined
  const start = clockAt(p, s, led || end !== undefined)
  if (!start) return 0
  if (end) {
    ;[p.start, p.end] = pairMeridiems(start, end)
    return p.use(i, s - i + 3)
  }
  p.start = start
  return p.use(i, s - i + 1)
}

/** "for 30 minutes", "for an hour", "for half an hour", "90 min", "for 1.5 hours", "for 2 days". */
const duration: Rule = (p, i) => {
  let j = p.word(i) === 'for' ? i + 1 : i
  let factor = 1
  if (p.word(j) === 'half' && (p.word(j + 1) === 'an' || p.word(j + 1) === 'a')) ((factor = 0.5), j++)
  const n = p.num(j)
  const unit = MINUTE_UNITS[p.word(j + 1) ?? '']
  if (n === undefined || unit === undefined) return 0
  if (j === i && p.toks[j]?.kind !== 'num') return 0
  // Durations beyond a year are not durations anyone means; the words stay in the summary.
  if (n * factor * unit > 366 * 1440) return 0
  p.durationMin = n * factor * unit
  return p.use(i, j - i + 2)
}

const allDay: Rule = (p, i) => (p.word(i) === 'all' && p.word(i + 1) === 'day' ? ((p.allDay = true), p.use(i, 2)) : 0)

const dayPart: Rule = (p, i) => {
  const w = p.word(i)
  const skip = w === 'in' && p.word(i + 1) === 'the' ? 2 : 0
  const part = DAY_PARTS[p.word(i + skip) ?? '']
  if (!part || p.word(i + skip) === 'tonight') return 0
  p.dayPart = part
  return p.use(i, skip + 1)
}

export const RULES: Rule[] = [
  repetition,
  relativeDay,
  weekday,
  calendarDate,
  inDays,
  duration,
  allDay,
  dayPart,
  clockRange,
]

/** 24-hour clocks for a range, sharing a meridiem written only once ("7-9pm", "11-1pm", "10am-2"). */
function pairMeridiems(a: Clock, b: Clock): [Clock, Clock] {
  if (!a.meridiem && b.meridiem) {
    const same = to24({ ...a, meridiem: b.meridiem })
    return [
      same.hour * 60 + same.minute <= to24(b).hour * 60 + to24(b).minute
        ? same
        : to24({ ...a, meridiem: b.meridiem === 'pm' ? 'am' : 'pm' }),
      to24(b),
    ]
  }
  const start = to24(a)
  if (a.meridiem && !b.meridiem && b.hour <= 12) {
    const same = to24({ ...b, meridiem: a.meridiem })
    return [
      start,
      same.hour * 60 + same.minute > start.hour * 60 + start.minute
        ? same
        : to24({ ...b, meridiem: a.meridiem === 'pm' ? 'am' : 'pm' }),
    ]
  }
  const end = to24(b)
  return [
    start,
    end.hour < start.hour && end.hour + 12 <= 24 && !b.meridiem && end.hour + 12 > start.hour
      ? { ...end, hour: end.hour + 12 }
      : end,
  ]
}

/**
 * A clock without am/pm: 13–24 and 0 are 24-hour; 1–6 read as afternoon (nobody books 3am by default);
 * 7–11 as morning unless the text said evening/tonight.
 */
export function to24(c: Clock, pm = false): Clock {
  if (c.meridiem === 'am') return { hour: c.hour === 12 ? 0 : c.hour, minute: c.minute }
  if (c.meridiem === 'pm') return { hour: c.hour === 12 ? 12 : c.hour + 12, minute: c.minute }
  if (c.hour === 0 || c.hour >= 12) return { hour: c.hour, minute: c.minute }
  return { hour: c.hour <= 6 || pm ? c.hour + 12 : c.hour, minute: c.minute }
}
