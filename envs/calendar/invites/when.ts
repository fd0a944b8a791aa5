/**
 * The human "when" line of invitation mails, in the recipient's zone:
 * "Mon Mar 9, 2026 10am - 11am (EDT)", "Weekly on Monday from 10am to 11am (EDT)", "Mon Mar 9, 2026".
 */
import { DateTime } from 'luxon'
import { parseRecurrence } from '../time/recurrence-parse.ts'
import type { ResolvedTime } from '../time/zoned.ts'
import { daysIn, fixOffset, luxonZone, offsetFn, shortZoneName } from '../time/zone-clock.ts'

const DAY_NAMES: Record<string, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
}
const NTH: Record<string, string> = {
  '1': 'first',
  '2': 'second',
  '3': 'third',
  '4': 'fourth',
  '5': 'fifth',
  '-1': 'last',
  '-2': 'second to last',
}

const inZone = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).setLocale('en-US')

/** `10am`, `10:30am`, `12pm`. */
export function clockText(d: { hour: number; minute: number }): string {
  const hour = d.hour % 12 === 0 ? 12 : d.hour % 12
  return `${hour}${d.minute ? `:${String(d.minute).padStart(2, '0')}` : ''}${d.hour < 12 ? 'am' : 'pm'}`
}

/** Short zone name in the recipient's zone at that instant (`EDT`, `GMT+5:30`). */
export const zoneAbbrev = (ms: number, zone: string) => shortZoneName(ms, zone) ?? zone

const dayText = (d: DateTime) => d.toFormat('ccc LLL d, yyyy')

/** `Weekly on Monday`, `Daily`, `Monthly on the last Friday`, `Annually on March 9`, with COUNT/UNTIL. */
export function ruleText(recurrence: string[], start: ResolvedTime, zone: string): string | undefined {
  const rule = parseRecurrence(recurrence).rules.find((r) => r.kind === 'RRULE')
  if (!rule) return undefined
  const part = (k: string) => rule.parts.find(([key]) => key === k)?.[1]
  const interval = Number(part('INTERVAL') ?? '1')
  const local = start.allDay
    ? DateTime.fromISO(start.date!, { zone: 'UTC' }).setLocale('en-US')
    : inZone(start.ms, zone)
  const byday = part('BYDAY')?.split(',')
  const every = (unit: string, plain: string) => (interval > 1 ? `Every ${interval} ${unit}` : plain)
  let text: string
  switch (part('FREQ')) {
    case 'DAILY':
      text = every('days', 'Daily')
      break
    case 'WEEKLY': {
      const days = byday ?? [local.toFormat('cccc').slice(0, 2).toUpperCase()]
      const names =
        days.join(',') === 'MO,TU,WE,TH,FR' ? 'weekdays' : days.map((d) => DAY_NAMES[d.slice(-2)]).join(', ')
      text = `${every('weeks', 'Weekly')} on ${names}`
      break
    }
    case 'MONTHLY': {
      const m = byday?.length === 1 ? /^([+-]?\d)(\w\w)$/.exec(byday[0]!) : null
      const on = m
        ? `the ${NTH[m[1]!.replace('+', '')] ?? m[1]} ${DAY_NAMES[m[2]!]}`
        : `day ${part('BYMONTHDAY') ?? local.day}`
      text = `${every('months', 'Monthly')} on ${on}`
      break
    }
    case 'YEARLY':
      text = `${every('years', 'Annually')} on ${local.toFormat('LLLL d')}`
      break
    default:
      text = 'Repeats'
  }
  const count = part('COUNT')
  const until = part('UNTIL')
  if (count) text += `, ${count} times`
  if (until)
    text += `, until ${DateTime.fromISO(`${until.slice(0, 4)}-${until.slice(4, 6)}-${until.slice(6, 8)}`)
      .setLocale('en-US')
      .toFormat('LLL d, yyyy')}`
  return text
}

/** The "when" of an event as the invitation shows it, in `zone`. */
export function whenText(start: ResolvedTime, end: ResolvedTime, zone: string, recurrence?: string[]): string {
  const rule = recurrence?.length ? ruleText(recurrence, start, zone) : undefined
  if (start.allDay) {
    const first = DateTime.fromISO(start.date!, { zone: 'UTC' }).setLocale('en-US')
    const last = DateTime.fromISO(end.date ?? start.date!, { zone: 'UTC' })
      .setLocale('en-US')
      .minus({ days: 1 })
    if (rule) return rule
    return last > first ? `${dayText(first)} - ${dayText(last)}` : dayText(first)
  }
  const fast = timedWhen(start.ms, end.ms, zone, rule)
  if (fast !== undefined) return fast
  const s = inZone(start.ms, zone)
  const e = inZone(end.ms, zone)
  const abbrev = `(${zoneAbbrev(start.ms, zone)})`
  if (rule) return `${rule} from ${clockText(s)} to ${clockText(e)} ${abbrev}`
  if (s.hasSame(e, 'day')) return `${dayText(s)} ${clockText(s)} - ${clockText(e)} ${abbrev}`
  return `${dayText(s)} ${clockText(s)} - ${dayText(e)} ${clockText(e)} ${abbrev}`
}

/**
 * The timed branch of `whenText` without luxon DateTimes (a few hundred microseconds per mail): the same wall clocks
 * (the zone's offset at each instant), the same English names luxon's `en-US` formats use, and `hasSame(…, 'day')`
 * through the very steps luxon takes (startOf, plus, minus, each re-reading the zone's offset), so that days around
 * a DST change compare as they did. Undefined for what it does not cover (an invalid zone, years outside 1000–9999).
 */
function timedWhen(startMs: number, endMs: number, name: string, rule: string | undefined): string | undefined {
  const luxon = luxonZone(name)
  if (!luxon.isValid || !(Math.abs(startMs) <= 8.64e15) || !(Math.abs(endMs) <= 8.64e15)) return undefined
  const zone = offsetFn(luxon)
  const s = wallAt(zone, startMs)
  const e = wallAt(zone, endMs)
  if (s.c.year < 1000 || s.c.year > 9999 || e.c.year < 1000 || e.c.year > 9999) return undefined
  const abbrev = `(${zoneAbbrev(startMs, name)})`
  if (rule) return `${rule} from ${clockText(s.c)} to ${clockText(e.c)} ${abbrev}`
  if (sameDay(zone, s, endMs)) return `${wallDayText(s.c)} ${clockText(s.c)} - ${clockText(e.c)} ${abbrev}`
  return `${wallDayText(s.c)} ${clockText(s.c)} - ${wallDayText(e.c)} ${clockText(e.c)} ${abbrev}`
}

/** A zone's offset at an instant (luxon's `zone.offset`). */
type Offset = (ts: number) => number
type Fields = {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
  millisecond: number
}
/** What a luxon DateTime holds: its instant, the offset there and the wall clock (luxon's `ts`, `o`, `c`). */
type Wall = { ts: number; o: number; c: Fields }

/** luxon's `tsToObj`. */
function fieldsAt(ts: number, offset: number): Fields {
  const d = new Date(ts + offset * 60 * 1000)
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
  }
}

/** `DateTime.fromMillis(ts, { zone })`. */
function wallAt(zone: Offset, ts: number): Wall {
  const o = zone(ts)
  return { ts, o, c: fieldsAt(ts, o) }
}

/** luxon's `clone(dt, { ts })`: an unchanged instant keeps its fields, another one is read in the zone anew. */
const movedTo = (zone: Offset, prev: Wall, ts: number): Wall => (ts === prev.ts ? prev : wallAt(zone, ts))

/** luxon's `objToLocalTS` for years from 100 on. */
const localTs = (c: Fields) => Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second, c.millisecond)

/** `dt.startOf('day')`: `set({ hour: 0, minute: 0, second: 0, millisecond: 0 })`. */
function startOfDay(zone: Offset, d: Wall): Wall {
  const mixed = { ...d.c, hour: 0, minute: 0, second: 0, millisecond: 0 }
  mixed.day = Math.min(daysIn(mixed.year, mixed.month), mixed.day)
  return movedTo(zone, d, fixOffset(localTs(mixed), d.o, zone))
}

/** `dt.plus({ days })` (days ≥ 0 whole) and `dt.minus(ms)`: luxon's `adjustTime`. */
function adjusted(zone: Offset, d: Wall, days: number, ms: number): Wall {
  const c = { ...d.c, day: Math.min(d.c.day, daysIn(d.c.year, d.c.month)) + days }
  let ts = fixOffset(localTs(c), d.o, zone)
  if (ms !== 0) ts += ms
  return movedTo(zone, d, ts)
}

/** `s.hasSame(DateTime.fromMillis(endMs, { zone }), 'day')` for a DateTime `s` in that zone. */
function sameDay(zone: Offset, s: Wall, endMs: number): boolean {
  const first = startOfDay(zone, s).ts
  const last = adjusted(zone, startOfDay(zone, adjusted(zone, s, 1, 0)), 0, -1).ts
  return first <= endMs && endMs <= last
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
/** `toFormat('ccc LLL d, yyyy')` in `en-US` (luxon's English tables) for years 1000–9999. */
const wallDayText = (c: Fields) =>
  `${WEEKDAYS[new Date(Date.UTC(c.year, c.month - 1, c.day)).getUTCDay()]} ${MONTHS[c.month - 1]} ${c.day}, ${c.year}`
