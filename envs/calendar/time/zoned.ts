/**
 * Event times: parsing `EventDateTime` the way Calendar v3 reads it, and rendering it back.
 * All zone math goes through luxon (IANA database of the running Node).
 * @see https://developers.google.com/calendar/api/v3/reference/events#resource
 */
import { DateTime, IANAZone } from 'luxon'
import { ZoneClock, validWallClockToMs, wallClockToMs } from './zone-clock.ts'
import { AnswerError } from '../../core/errors/answer-error.ts'

export { wallClockToMs }

/** A time input the API rejects; `message` is Google's wording, `reason` the `errors[].reason`. */
export class CalendarTimeError extends AnswerError {
  override readonly name = 'CalendarTimeError'
  constructor(
    message: string,
    readonly reason: 'invalid' | 'required' | 'timeRangeEmpty' = 'invalid',
  ) {
    super(message)
  }
}

export type EventDateTime = { date?: string; dateTime?: string; timeZone?: string }

/**
 * A parsed event time. `ms` is the UTC instant (all-day: midnight of `date` in `timeZone`);
 * `timeZone` is the effective zone; `givenTimeZone` the zone the client sent, if any.
 */
export type ResolvedTime = { ms: number; allDay: boolean; date?: string; timeZone: string; givenTimeZone?: string }

/** Which side of the event a time is, for error messages ("…for start time."). */
export type TimeSide = 'start' | 'end' | 'originalStart'

export type ResolveOptions = {
  side?: TimeSide
  /** Recurring events must name a zone for timed starts/ends, as the real API requires. */
  recurring?: boolean
}

const SIDE_TEXT: Record<TimeSide, string> = {
  start: 'start time',
  end: 'end time',
  originalStart: 'original start time',
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/
const DATE_TIME_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})?$/
const RFC3339_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/

/**
 * Zone names already checked. luxon's check builds an `Intl.DateTimeFormat` per call, which dominated event
 * rendering; the answer is a pure function of the name and this process's IANA database (no world state),
 * so it is memoised here, bounded like `ZoneClock`'s memo.
 */
const zoneValidity = new Map<string, boolean>()

export function isValidZone(zone: string): boolean {
  if (typeof zone !== 'string' || zone.length === 0) return false
  let valid = zoneValidity.get(zone)
  if (valid === undefined) {
    if (zoneValidity.size >= 1024) zoneValidity.clear()
    valid = IANAZone.isValidZone(zone)
    zoneValidity.set(zone, valid)
  }
  return valid
}

/** `YYYY-MM-DD` that names a real calendar day. */
export function isValidDate(date: string): boolean {
  const m = DATE_RE.exec(date)
  if (!m) return false
  // What `DateTime.fromObject({ year, month, day }, { zone: 'UTC' }).isValid` checks for a four-digit year: a month
  // 1–12 and a day of that month (luxon's hasInvalidGregorianData; midnight is always a valid time).
  const year = +m[1]!
  const month = +m[2]!
  const day = +m[3]!
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leapYear(year) ? 29 : MONTH_DAYS[month - 1]!)
}

type WallClock = {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
  millisecond: number
}

function wallClock(m: RegExpExecArray): WallClock {
  return {
    year: +m[1]!,
    month: +m[2]!,
    day: +m[3]!,
    hour: +m[4]!,
    minute: +m[5]!,
    second: m[6] ? +m[6] : 0,
    millisecond: m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0,
  }
}

function offsetMinutes(text: string): number {
  if (text === 'Z' || text === 'z') return 0
  const sign = text.startsWith('-') ? -1 : 1
  return sign * (Number(text.slice(1, 3)) * 60 + Number(text.slice(4, 6)))
}

/** Instant of a wall clock with a fixed offset; undefined when a field is out of range. */
function instantAt(w: WallClock, offsetMin: number): number | undefined {
  const utc = utcMillis(w)
  if (utc === undefined || Math.abs(offsetMin) >= 24 * 60) return undefined
  return utc - offsetMin * 60_000
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const leapYear = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)

/**
 * A UTC wall clock's instant under luxon's validity rules (real day of the month; hours 0–23, or 24 at exactly
 * 24:00:00.000; minutes and seconds 0–59; milliseconds 0–999), in arithmetic: `DateTime.fromObject` cost tens of
 * microseconds per timestamp (docs/decisions/0270). Years below 100, which `Date.UTC` reads as 19xx, go to luxon.
 */
function utcMillis(w: WallClock): number | undefined {
  const { year, month, day, hour, minute, second, millisecond } = w
  if (year < 100) {
    const dt = DateTime.fromObject(w, { zone: 'UTC' })
    return dt.isValid ? dt.toMillis() : undefined
  }
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && leapYear(year) ? 29 : MONTH_DAYS[month - 1]!)) {
    return undefined
  }
  if (hour > 24 || (hour === 24 && (minute !== 0 || second !== 0 || millisecond !== 0))) return undefined
  if (minute > 59 || second > 59 || millisecond > 999) return undefined
  return Date.UTC(year, month - 1, day, hour, minute, second, millisecond)
}

/** Midnight of `date` (YYYY-MM-DD) in `zone`. */
export function startOfDateMs(date: string, zone: string): number {
  return DateTime.fromISO(date, { zone }).startOf('day').toMillis()
}

/** `YYYY-MM-DD` of an instant in `zone`. */
export function dateInZone(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toISODate()!
}

/**
 * RFC 3339 timestamp with a mandatory offset (`timeMin`, `timeMax`, `updatedMin`). Undefined when malformed,
 * so the caller can answer 400 with its own parameter name.
 */
export function parseRfc3339(s: string): number | undefined {
  const m = RFC3339_RE.exec(s)
  return m ? instantAt(wallClock(m), offsetMinutes(m[8]!)) : undefined
}

/**
 * `2026-03-09T10:00:00-04:00` in `zone`; a zero offset renders as `Z` (as the API renders UTC calendars).
 * Sub-second precision is not rendered: the real API keeps event times in whole seconds.
 */
export function rfc3339InZone(ms: number, zone: string): string {
  const name = isValidZone(zone) ? zone : 'UTC'
  // The zone's offset through `ZoneClock` (memoised per week) and the digits from a UTC Date: the same text
  // luxon's `toFormat` gives, without a DateTime and a formatter per instance.
  const offset = ZoneClock.of(name).offset(ms)
  const local = new Date(ms + offset * 60_000)
  const year = local.getUTCFullYear()
  if (!Number.isInteger(offset) || !(year >= 0 && year <= 9999)) return rfc3339ViaLuxon(ms, name)
  const base = `${pad(year, 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`
  if (offset === 0) return `${base}Z`
  const abs = Math.abs(offset)
  return `${base}${offset > 0 ? '+' : '-'}${pad(Math.trunc(abs / 60))}:${pad(abs % 60)}`
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** The general path (fractional historical offsets, years outside 0–9999). */
function rfc3339ViaLuxon(ms: number, zone: string): string {
  const dt = DateTime.fromMillis(ms, { zone })
  const base = dt.toFormat("yyyy-MM-dd'T'HH:mm:ss")
  return dt.offset === 0 ? `${base}Z` : `${base}${dt.toFormat('ZZ')}`
}

/**
 * `2026-03-09T15:00:00.000Z`, the form of `created`/`updated`. The last two answers are kept (a pure function's
 * memo, no world state): a listing renders the same few instants many times over (seeded events share them).
 */
export function rfc3339Utc(ms: number): string {
  if (ms === utcMemo[0]) return utcMemo[1]
  if (ms === utcMemo[2]) return utcMemo[3]
  const text = new Date(ms).toISOString()
  utcMemo[2] = utcMemo[0]
  utcMemo[3] = utcMemo[1]
  utcMemo[0] = ms
  utcMemo[1] = text
  return text
}
const utcMemo: [number, string, number, string] = [NaN, '', NaN, '']

/**
 * Reads a client's `EventDateTime`. `dateTime` with an offset is absolute; without one it is read in
 * `t.timeZone`, else in `fallbackZone` (the calendar's zone). `date` makes an all-day time.
 */
export function resolveEventTime(t: EventDateTime, fallbackZone: string, opts: ResolveOptions = {}): ResolvedTime {
  const side = SIDE_TEXT[opts.side ?? 'start']
  const hasDate = t.date != null && t.date !== ''
  const hasDateTime = t.dateTime != null && t.dateTime !== ''
  if (!hasDate && !hasDateTime) throw new CalendarTimeError(`Missing ${side}.`, 'required')
  if (hasDate && hasDateTime) throw new CalendarTimeError(`Invalid ${side}.`)
  const given = t.timeZone != null && t.timeZone !== '' ? t.timeZone : undefined
  if (given !== undefined && !isValidZone(given))
    throw new CalendarTimeError(`Invalid time zone definition for ${side}.`)
  const zone = given ?? (isValidZone(fallbackZone) ? fallbackZone : 'UTC')
  const extra = given !== undefined ? { givenTimeZone: given } : {}

  if (hasDate) {
    if (!isValidDate(t.date!)) throw new CalendarTimeError(`Invalid ${side}.`)
    return { ms: startOfDateMs(t.date!, zone), allDay: true, date: t.date!, timeZone: zone, ...extra }
  }
  const m = DATE_TIME_RE.exec(t.dateTime!)
  if (!m) throw new CalendarTimeError(`Invalid ${side}.`)
  // Recurring series need a zone to expand in; the real API refuses them without one.
  if (opts.recurring && given === undefined)
    throw new CalendarTimeError(`Missing time zone definition for ${side}.`, 'required')
  const w = wallClock(m)
  const ms = m[8] ? instantAt(w, offsetMinutes(m[8])) : validWallClockToMs(w, zone)
  if (ms === undefined) throw new CalendarTimeError(`Invalid ${side}.`)
  return { ms, allDay: false, timeZone: zone, ...extra }
}

/**
 * Renders a stored time as the API does: `{ date }` for all-day, else `dateTime` in `outputZone`
 * (the calendar's zone or the request's `timeZone` parameter), with `timeZone` only when the event has one.
 */
export function renderEventTime(
  stored: { ms: number; allDay: boolean; date?: string; timeZone?: string },
  outputZone: string,
): EventDateTime {
  if (stored.allDay) return { date: stored.date ?? dateInZone(stored.ms, stored.timeZone ?? outputZone) }
  const out: EventDateTime = { dateTime: rfc3339InZone(stored.ms, outputZone) }
  if (stored.timeZone) out.timeZone = stored.timeZone
  return out
}

/** Checks an event's span: the end must not precede the start, and both must be the same kind. */
export function checkEventRange(start: ResolvedTime, end: ResolvedTime): void {
  if (start.allDay !== end.allDay) throw new CalendarTimeError('Invalid end time.')
  if (end.ms < start.ms) throw new CalendarTimeError('The specified time range is empty.', 'timeRangeEmpty')
}
