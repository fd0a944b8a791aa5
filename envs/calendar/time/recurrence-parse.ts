/**
 * Parsing and validating an event's `recurrence` lines (RFC 5545 RRULE, EXRULE, RDATE, EXDATE).
 * rrule's own parser accepts nonsense (`FREQ=FOO`, `COUNT=abc`), so the rule grammar is checked here first.
 * @see https://developers.google.com/calendar/api/concepts/events-calendars#recurring_events
 * @see https://www.rfc-editor.org/rfc/rfc5545#section-3.3.10
 */
import { DateTime } from 'luxon'
import { CalendarTimeError, isValidZone } from './zoned.ts'

/** One RRULE/EXRULE, its parts in the order written (kept for re-serialising). */
export type RuleLine = { kind: 'RRULE' | 'EXRULE'; parts: [string, string][] }

/** A date value of RDATE/EXDATE/UNTIL: a UTC instant, a wall clock (in `tzid` or the event's zone) or a date. */
export type DateValue =
  { kind: 'utc'; ms: number } | { kind: 'wall'; tzid?: string; wall: Wall } | { kind: 'date'; date: string }

export type Wall = { year: number; month: number; day: number; hour: number; minute: number; second: number }

export type DatesLine = { kind: 'RDATE' | 'EXDATE'; params: [string, string][]; values: DateValue[] }

export type ParsedRecurrence = { rules: RuleLine[]; dates: DatesLine[] }

export const FREQS = ['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const

const invalid = () => new CalendarTimeError('Invalid recurrence rule.')

const intList = (min: number, max: number, signed: boolean) => (v: string) =>
  v.split(',').every((x) => {
    if (!/^[+-]?\d{1,3}$/.test(x)) return false
    const n = Number(x)
    return (signed || n > 0) && n !== 0 && Math.abs(n) >= min && Math.abs(n) <= max
  })
const zeroList = (max: number) => (v: string) => v.split(',').every((x) => /^\d{1,2}$/.test(x) && Number(x) <= max)

const PART_CHECKS: Record<string, (v: string) => boolean> = {
  FREQ: (v) => (FREQS as readonly string[]).includes(v),
  UNTIL: (v) => parseDateValue(v, undefined, undefined) !== undefined,
  COUNT: (v) => /^\d{1,6}$/.test(v) && Number(v) > 0,
  INTERVAL: (v) => /^\d{1,4}$/.test(v) && Number(v) > 0,
  BYSECOND: zeroList(60),
  BYMINUTE: zeroList(59),
  BYHOUR: zeroList(23),
  BYDAY: (v) => v.split(',').every((x) => /^([+-]?([1-9]|[1-4]\d|5[0-3]))?(MO|TU|WE|TH|FR|SA|SU)$/.test(x)),
  BYMONTHDAY: intList(1, 31, true),
  BYYEARDAY: intList(1, 366, true),
  BYWEEKNO: intList(1, 53, true),
  BYMONTH: intList(1, 12, false),
  BYSETPOS: intList(1, 366, true),
  WKST: (v) => (WEEKDAYS as readonly string[]).includes(v),
}

function parseRule(kind: RuleLine['kind'], body: string): RuleLine {
  const parts: [string, string][] = []
  for (const piece of body.split(';')) {
    if (piece === '') continue
    const eq = piece.indexOf('=')
    if (eq <= 0) throw invalid()
    const key = piece.slice(0, eq).toUpperCase()
    const value = piece.slice(eq + 1).toUpperCase()
    const check = PART_CHECKS[key]
    if (!check || !check(value) || parts.some(([k]) => k === key)) throw invalid()
    parts.push([key, value])
  }
  const get = (k: string) => parts.find(([key]) => key === k)?.[1]
  const freq = get('FREQ')
  if (!freq) throw invalid()
  if (get('COUNT') && get('UNTIL')) throw invalid()
  // RFC 5545 3.3.10: ordinal BYDAY only for MONTHLY/YEARLY; BYWEEKNO only YEARLY; BYSETPOS needs another BYxxx.
  // Deviation (unverified): these RFC "MUST NOT" combinations are rejected; the real API may be more lenient.
  const byday = get('BYDAY')
  if (byday && /\d/.test(byday) && freq !== 'MONTHLY' && freq !== 'YEARLY') throw invalid()
  if (byday && /\d/.test(byday) && freq === 'YEARLY' && get('BYWEEKNO')) throw invalid()
  if (get('BYWEEKNO') && freq !== 'YEARLY') throw invalid()
  if (get('BYMONTHDAY') && freq === 'WEEKLY') throw invalid()
  if (get('BYYEARDAY') && ['DAILY', 'WEEKLY', 'MONTHLY'].includes(freq)) throw invalid()
  if (get('BYSETPOS') && !parts.some(([k]) => k.startsWith('BY') && k !== 'BYSETPOS')) throw invalid()
  return { kind, parts }
}

/**
 * One date value: `20260309T150000Z` (UTC), `20260309T100000` (wall clock, in `tzid` if given) or
 * `20260309` (date; required when `valueType` is DATE).
 */
export function parseDateValue(
  v: string,
  tzid: string | undefined,
  valueType: string | undefined,
): DateValue | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/i.exec(v)
  if (!m) return undefined
  const [year, month, day] = [+m[1]!, +m[2]!, +m[3]!]
  if (m[4] === undefined) {
    if (valueType && valueType !== 'DATE') return undefined
    const dt = DateTime.fromObject({ year, month, day }, { zone: 'UTC' })
    return dt.isValid ? { kind: 'date', date: dt.toISODate()! } : undefined
  }
  if (valueType === 'DATE') return undefined
  const wall = { year, month, day, hour: +m[4], minute: +m[5]!, second: +m[6]! }
  const dt = DateTime.fromObject({ ...wall, second: Math.min(wall.second, 59) }, { zone: 'UTC' })
  if (!dt.isValid) return undefined
  if (m[7]) return { kind: 'utc', ms: dt.toMillis() }
  return tzid ? { kind: 'wall', tzid, wall } : { kind: 'wall', wall }
}

function parseDates(kind: DatesLine['kind'], paramText: string, body: string): DatesLine {
  const params: [string, string][] = []
  for (const p of paramText.split(';').filter(Boolean)) {
    const eq = p.indexOf('=')
    if (eq <= 0) throw invalid()
    params.push([p.slice(0, eq).toUpperCase(), p.slice(eq + 1)])
  }
  const tzid = params.find(([k]) => k === 'TZID')?.[1]
  const valueType = params.find(([k]) => k === 'VALUE')?.[1]?.toUpperCase()
  if (tzid !== undefined && !isValidZone(tzid)) throw invalid()
  if (valueType && !['DATE', 'DATE-TIME', 'PERIOD'].includes(valueType)) throw invalid()
  if (valueType === 'PERIOD' && kind !== 'RDATE') throw invalid()
  const values = body.split(',').map((raw) => {
    // Deviation: an RDATE PERIOD adds an instance at the period's start with the event's usual duration.
    const text = valueType === 'PERIOD' ? raw.split('/')[0]! : raw
    const value = parseDateValue(text.trim(), tzid, valueType === 'PERIOD' ? 'DATE-TIME' : valueType)
    if (!value) throw invalid()
    return value
  })
  return { kind, params, values }
}

/** Parses `recurrence` lines; throws `CalendarTimeError('Invalid recurrence rule.')` on anything malformed. */
export function parseRecurrence(lines: string[]): ParsedRecurrence {
  const out: ParsedRecurrence = { rules: [], dates: [] }
  for (const line of lines) {
    if (typeof line !== 'string') throw invalid()
    const colon = line.indexOf(':')
    if (colon <= 0) throw invalid()
    const head = line.slice(0, colon)
    const body = line.slice(colon + 1).trim()
    const semi = head.indexOf(';')
    const name = (semi < 0 ? head : head.slice(0, semi)).toUpperCase()
    const params = semi < 0 ? '' : head.slice(semi + 1)
    if (body === '') throw invalid()
    if (name === 'RRULE' || name === 'EXRULE') {
      if (params) throw invalid()
      out.rules.push(parseRule(name, body))
    } else if (name === 'RDATE' || name === 'EXDATE') {
      out.dates.push(parseDates(name, params, body))
    } else {
      throw invalid()
    }
  }
  return out
}

/** Serialises a rule line back to `RRULE:FREQ=…;…`. */
export function ruleToString(rule: RuleLine): string {
  return `${rule.kind}:${rule.parts.map(([k, v]) => `${k}=${v}`).join(';')}`
}
