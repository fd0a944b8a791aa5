/**
 * When a Slack reminder fires: `reminders.add`'s `time` (a Unix time, seconds from now, or natural language such as
 * "in 15 minutes", "tomorrow at 9am", "on Friday", "every weekday at 8:30") and its `recurrence` object.
 *
 * Natural language is read by chrono-node (its English parser) in the caller's time zone, at the world's clock.
 * chrono is given the caller's wall time as if it were UTC, with no forward-dating: its own forward-dating and zone
 * handling consult the host's zone (same request, different answers on differently configured hosts), so the
 * rolling forward ("Friday" already past this week, "3pm" already past today) is done here, on luxon times in the
 * caller's zone. Recurrence ("every …") is parsed here; chrono reads only its time of day or date.
 */
import { parse as chronoParse, type ParsedResult } from 'chrono-node/en'
import { DateTime } from 'luxon'
import { SlackApiError } from '../core/errors/slack.ts'
import { parseJsonWithin } from '../core/json-width.ts'

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
export type Weekday = (typeof WEEKDAYS)[number]
export type Frequency = 'daily' | 'weekly' | 'monthly' | 'yearly'
/** Slack's wire shape: `weekdays` only for `weekly`. */
export type Recurrence = { frequency: Frequency; weekdays?: Weekday[] }
export type ReminderTime = { time: number; recurrence?: Recurrence }

const UNITS: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86400, week: 604800 }
/** The hour a reminder named by a date alone fires at ("tomorrow", "on Friday", "every Monday"), as Slack does. */
const DEFAULT_HOUR = 9
/** Words that may surround a time expression without changing it ("at 9am", "on Friday", "by noon"). */
const FILLER = /^(?:\s|[,.;:!]|\b(?:at|on|by|the|of|in|this|each|every|and)\b)*$/

const DAY_NAMES: Record<string, Weekday> = {}
for (const d of WEEKDAYS) {
  for (const n of [d, `${d}s`, d.slice(0, 3), d.slice(0, 3) + 's']) DAY_NAMES[n] = d
}
Object.assign(DAY_NAMES, { tue: 'tuesday', tues: 'tuesday', wed: 'wednesday', thu: 'thursday', thur: 'thursday' })
Object.assign(DAY_NAMES, { thurs: 'thursday', weds: 'wednesday' })

/** Reads `reminders.add`'s `time` and `recurrence` for a caller in `zone` at `nowSec` (the world's clock). */
export function reminderTime(raw: string | number, recurrence: unknown, nowSec: number, zone: string): ReminderTime {
  const s = String(raw).trim().toLowerCase().replace(/\s+/g, ' ')
  const given = recurrence === undefined || recurrence === null || recurrence === '' ? undefined : rule(recurrence)
  if (/^\d+$/.test(s)) {
    const n = Number(s)
    const time = n <= 86400 ? nowSec + n : n
    return given ? { time: nextOccurrence(given, time - 1, zone, time), recurrence: given } : { time }
  }
  const every = /^(?:every|each) (.+)$/.exec(s)
  if (every || given) return recurring(every ? every[1]! : s, given, nowSec, zone)
  const rel = /^in (\d+|an?|one) (second|minute|hour|day|week)s?$/.exec(s)
  if (rel) return { time: nowSec + (/^\d+$/.test(rel[1]!) ? Number(rel[1]) : 1) * UNITS[rel[2]!]! }
  return { time: oneOff(s, nowSec, zone) }
}

/** Validates a `recurrence` argument (an object, or its JSON text in a form-encoded call). */
function rule(v: unknown): Recurrence {
  let o = v
  if (typeof o === 'string') {
    try {
      o = parseJsonWithin(o)
    } catch {
      throw new SlackApiError('invalid_arguments')
    }
  }
  const r = (o ?? {}) as { frequency?: unknown; weekdays?: unknown }
  const frequency = r.frequency
  if (frequency !== 'daily' && frequency !== 'weekly' && frequency !== 'monthly' && frequency !== 'yearly') {
    throw new SlackApiError('invalid_arguments')
  }
  if (frequency !== 'weekly') return { frequency }
  const days = Array.isArray(r.weekdays) ? r.weekdays.map((d) => DAY_NAMES[String(d).toLowerCase()]) : []
  if (days.length === 0 || days.some((d) => d === undefined)) throw new SlackApiError('invalid_arguments')
  return { frequency, weekdays: sortDays(days as Weekday[]) }
}

const sortDays = (days: Weekday[]) => WEEKDAYS.filter((d) => days.includes(d))

/** The caller's wall time now, as chrono's reference (read as UTC: see the module comment). */
function reference(nowSec: number, zone: string) {
  const local = DateTime.fromSeconds(nowSec, { zone })
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second)
  return { instant: new Date(wall), timezone: 0 }
}

/** chrono's reading of `s`, only when it covers the whole text (apart from filler words). */
function readWhole(s: string, nowSec: number, zone: string): ParsedResult | undefined {
  const found = chronoParse(s, reference(nowSec, zone))
  if (found.length !== 1) return undefined
  const r = found[0]!
  const rest = s.slice(0, r.index) + ' ' + s.slice(r.index + r.text.length)
  return FILLER.test(rest) ? r : undefined
}

/** The wall-clock hour and minute a result names, or undefined when it names a date only. */
function timeOfDay(r: ParsedResult): { hour: number; minute: number } | undefined {
  const k = r.start
  const tags = r.tags()
  if (k.isCertain('hour')) return { hour: k.get('hour')!, minute: k.get('minute') ?? 0 }
  // "this afternoon", "tonight": chrono's hour for the part of day; "morning" is Slack's 9 AM.
  if (tags.has('casualReference/morning')) return { hour: DEFAULT_HOUR, minute: 0 }
  if (tags.has('parser/ENCasualTimeParser') || tags.has('casualReference/tonight')) {
    return { hour: k.get('hour')!, minute: k.get('minute') ?? 0 }
  }
  return undefined
}

function oneOff(s: string, nowSec: number, zone: string): number {
  const r = readWhole(s, nowSec, zone)
  // Deviation: what chrono's English grammar does not read ("end of day", "after lunch") is refused.
  if (!r) throw new SlackApiError('cannot_parse')
  const k = r.start
  const now = DateTime.fromSeconds(nowSec, { zone })
  // "in 3 days", "next week": the same time of day, that far ahead.
  const relative = r.tags().has('result/relativeDate') && !k.isCertain('hour')
  const tod = relative ? { hour: now.hour, minute: now.minute } : (timeOfDay(r) ?? { hour: DEFAULT_HOUR, minute: 0 })
  const date = { year: k.get('year')!, month: k.get('month')!, day: k.get('day')! }
  let at = DateTime.fromObject({ ...date, ...tod, second: relative ? now.second : 0 }, { zone })
  if (at.toSeconds() <= nowSec) {
    // Rolled forward as a person means it: a weekday to next week's, a time of day to tomorrow's, a date to next
    // year's. A date named in full (year included) or "today" stays in the past and is refused below.
    if (k.isCertain('weekday') && !k.isCertain('day')) at = at.plus({ weeks: 1 })
    else if (!k.isCertain('day') && !r.tags().has('casualReference/today')) at = at.plus({ days: 1 })
    else if (!k.isCertain('year') && k.isCertain('month')) at = at.plus({ years: 1 })
  }
  return Math.floor(at.toSeconds())
}

/** A weekday list ("monday, wednesday and friday"), or undefined when `s` is not one. */
function dayList(s: string): Weekday[] | undefined {
  const words = s.split(/\s*(?:,|\band\b|&|\/)\s*/).filter(Boolean)
  const days = words.map((w) => DAY_NAMES[w])
  return days.length && days.every((d) => d !== undefined) ? sortDays(days as Weekday[]) : undefined
}

/** The rule an "every …" phrase names before its time ("day", "weekday", "monday and thursday", "month"). */
function frequencyOf(head: string): Recurrence {
  if (head === 'day' || head === 'morning') return { frequency: 'daily' }
  if (head === 'weekday' || head === 'weekdays') return { frequency: 'weekly', weekdays: WEEKDAYS.slice(0, 5) }
  // "every week": on the anchor's weekday (filled in by the caller).
  if (head === 'week') return { frequency: 'weekly', weekdays: [] }
  if (head === 'month') return { frequency: 'monthly' }
  if (head === 'year') return { frequency: 'yearly' }
  const days = dayList(head)
  if (days) return { frequency: 'weekly', weekdays: days }
  throw new SlackApiError('cannot_parse')
}

/**
 * "every …" (the words after "every"), or any `time` with a `recurrence` object: the rule and its first occurrence.
 * What follows the frequency ("at 9am", "on the 15th", "on March 3 at 10") is the time of day, and for monthly and
 * yearly reminders the day; without one, Slack's 9 AM.
 */
function recurring(s: string, given: Recurrence | undefined, nowSec: number, zone: string): ReminderTime {
  let rest = s
  if (!given) {
    // The frequency runs up to the first " at " / " on "; the rest keeps its word ("at 9am", "on the 15th").
    const cut = /\s(?=(?:at|on)\s)/.exec(s)
    rest = cut ? s.slice(cut.index + 1) : ''
  }
  let r = given ?? frequencyOf(rest ? s.slice(0, s.length - rest.length - 1) : s)
  const now = DateTime.fromSeconds(nowSec, { zone })
  let tod = { hour: DEFAULT_HOUR, minute: 0 }
  let anchor = now
  // "on the 15th" (monthly): chrono does not read a bare ordinal day.
  const ordinal = /^(?:on )?the (\d{1,2})(?:st|nd|rd|th)?(?: (at .+))?$/.exec(rest)
  if (ordinal) {
    const day = Number(ordinal[1])
    if (day < 1 || day > 31) throw new SlackApiError('cannot_parse')
    anchor = anchor.set({ day: Math.min(day, anchor.daysInMonth ?? 28) })
  }
  const timeText = ordinal ? (ordinal[2] ?? '') : rest
  if (timeText.trim()) {
    const p = readWhole(timeText, nowSec, zone)
    if (!p) throw new SlackApiError('cannot_parse')
    tod = timeOfDay(p) ?? tod
    const k = p.start
    if (k.isCertain('day') || k.isCertain('weekday')) {
      anchor = DateTime.fromObject({ year: k.get('year')!, month: k.get('month')!, day: k.get('day')! }, { zone })
    }
  }
  if (r.frequency === 'weekly' && r.weekdays!.length === 0) {
    r = { frequency: 'weekly', weekdays: [WEEKDAYS[anchor.weekday - 1]!] }
  }
  const start = anchor.set({ ...tod, second: 0, millisecond: 0 })
  return { time: nextOccurrence(r, nowSec, zone, Math.floor(start.toSeconds())), recurrence: r }
}

/**
 * The first occurrence of `rule` strictly after `afterSec`: at `anchorSec`'s wall-clock time of day in `zone`, on
 * every day (daily), on the listed weekdays (weekly), on the anchor's day of the month (monthly; the month's last
 * day where it is shorter) or the anchor's date (yearly).
 */
export function nextOccurrence(rule: Recurrence, afterSec: number, zone: string, anchorSec: number): number {
  const anchor = DateTime.fromSeconds(anchorSec, { zone })
  const after = DateTime.fromSeconds(afterSec, { zone })
  const tod = { hour: anchor.hour, minute: anchor.minute, second: anchor.second, millisecond: 0 }
  if (rule.frequency === 'daily' || rule.frequency === 'weekly') {
    const days = rule.weekdays ?? []
    let at = after.set(tod)
    for (let i = 0; i < 8; i++, at = at.plus({ days: 1 }).set(tod)) {
      const dayOk = rule.frequency === 'daily' || days.includes(WEEKDAYS[at.weekday - 1]!)
      if (dayOk && at.toSeconds() > afterSec) return Math.floor(at.toSeconds())
    }
    throw new SlackApiError('cannot_parse')
  }
  // Whole steps from the anchor (luxon clamps the day: the 31st is the 30th in a 30-day month, not a drift).
  const span = rule.frequency === 'monthly' ? after.diff(anchor, 'months').months : after.diff(anchor, 'years').years
  let n = Math.max(0, Math.floor(span) - 1)
  const at = (k: number) => anchor.plus(rule.frequency === 'monthly' ? { months: k } : { years: k })
  while (at(n).toSeconds() <= afterSec) n++
  return Math.floor(at(n).toSeconds())
}
