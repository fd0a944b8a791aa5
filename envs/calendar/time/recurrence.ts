/**
 * Recurring events: expansion into instances (in the event's zone, DST-correct), instance ids, and the
 * rule rewrites a "this and following" split needs.
 *
 * Expansion runs rrule in "floating" time: each local wall clock of the event's zone is written as a UTC
 * `Date`, rrule steps through wall clocks, and luxon maps each wall clock back to an instant. So a weekly
 * 10:00 New York meeting stays at 10:00 local across DST changes.
 * @see https://developers.google.com/calendar/api/guides/recurringevents
 */
import { DateTime } from 'luxon'
import * as rruleModule from 'rrule'
import type { Options } from 'rrule'
import { type DateValue, type ParsedRecurrence, type RuleLine, parseRecurrence, ruleToString } from './recurrence-parse.ts'
import { jumpTowards } from './rrule-jump.ts'
import { ZoneClock } from './zone-clock.ts'
import { type ResolvedTime, dateInZone, startOfDateMs } from './zoned.ts'

// rrule ships a UMD main and an ESM module; Node's loader sees only a default export.
const { RRule } = (rruleModule as unknown as { default?: typeof rruleModule }).default ?? rruleModule

/**
 * Deviation: expansion stops after this many instances per call unless the caller passes its own `limit`;
 * the real API pages through unbounded series without a fixed cap.
 */
export const MAX_INSTANCES = 730

const HOUR = 3_600_000
const DAY = 24 * HOUR
const FAR_FUTURE = Date.UTC(9999, 0, 1)

export type Occurrence = { originalStartMs: number; date?: string }

/** Throws `CalendarTimeError('Invalid recurrence rule.')` on a malformed RRULE/EXRULE/RDATE/EXDATE line. */
export function validateRecurrence(lines: string[]): void {
  parseRecurrence(lines)
}

const floatOf = (ms: number, zc: ZoneClock) => zc.floatOf(ms)
const instantOfFloat = (f: number, zc: ZoneClock) => zc.instantOfFloat(f)

const floatOfDate = (date: string) => Date.parse(`${date}T00:00:00Z`)
const dateOfFloat = (f: number) => new Date(f).toISOString().slice(0, 10)
const wallFloat = (w: { year: number; month: number; day: number; hour: number; minute: number; second: number }) =>
  Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, Math.min(w.second, 59))

/** A date value as floating time of the event's zone (all-day events read UTC values as plain wall clocks). */
function floatOfValue(v: DateValue, zone: ZoneClock, allDay: boolean): number {
  switch (v.kind) {
    case 'date':
      return floatOfDate(v.date)
    case 'utc':
      return allDay ? v.ms : floatOf(v.ms, zone)
    case 'wall':
      return v.tzid && !allDay ? floatOf(instantOfFloat(wallFloat(v.wall), new ZoneClock(v.tzid)), zone) : wallFloat(v.wall)
  }
}

function ruleOf(rule: RuleLine, dtstartFloat: number, zone: ZoneClock, allDay: boolean, lo: number) {
  // All-day instances have no time of day, so time parts would only repeat the same date.
  const skip = allDay ? ['UNTIL', 'BYHOUR', 'BYMINUTE', 'BYSECOND'] : ['UNTIL']
  const rest = rule.parts.filter(([k]) => !skip.includes(k)).map(([k, v]) => `${k}=${v}`).join(';')
  const options: Partial<Options> = { ...RRule.parseString(rest), dtstart: new Date(dtstartFloat) }
  const until = rule.parts.find(([k]) => k === 'UNTIL')?.[1]
  if (until) {
    const value = parseUntil(until)
    // A date-only UNTIL on a timed event includes that whole day.
    const f = floatOfValue(value, zone, allDay) + (value.kind === 'date' && !allDay ? DAY - 1000 : 0)
    options.until = new Date(f)
  }
  // RFC 5545 3.8.5.3: DTSTART is the first of COUNT occurrences even when the rule does not match it.
  if (options.count) {
    const first = new RRule({ ...options, count: 1 }).all()[0]
    if (first?.getTime() !== dtstartFloat) options.count -= 1
    if (options.count === 0) return undefined
  }
  return new RRule(jumpTowards(options, lo))
}

function parseUntil(text: string): DateValue {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(text)!
  if (m[4] === undefined) return { kind: 'date', date: `${m[1]}-${m[2]}-${m[3]}` }
  const wall = { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: +m[4], minute: +m[5]!, second: +m[6]! }
  return m[7] ? { kind: 'utc', ms: wallFloat(wall) } : { kind: 'wall', wall }
}

/** Floats of one rule inside [lo, hi]; stops once `budget` of them are at or after `countFrom`. */
function ruleFloats(rule: ReturnType<typeof ruleOf>, lo: number, hi: number, budget: number, countFrom = lo): number[] {
  const out: number[] = []
  let counted = 0
  rule?.between(new Date(lo), new Date(hi), true, (d) => {
    out.push(d.getTime())
    if (d.getTime() >= countFrom) counted++
    return counted < budget
  })
  return out
}

export type ExpandOptions = {
  recurrence: string[]
  start: ResolvedTime
  windowStartMs?: number
  windowEndMs?: number
  durationMs: number
  limit?: number
}

/**
 * Instances of a recurring event, ascending. With a window, an instance counts when it overlaps
 * [windowStartMs, windowEndMs) (one that started before the window but ends inside it is included).
 * DTSTART itself is always an instance (RFC 5545 3.8.5.3); EXDATE/EXRULE remove, RDATE adds.
 */
export function expandRecurrence(opts: ExpandOptions): Occurrence[] {
  const parsed = parseRecurrence(opts.recurrence)
  const { start } = opts
  const zone = new ZoneClock(start.timeZone)
  const allDay = start.allDay
  const limit = opts.limit ?? MAX_INSTANCES
  const dur = Math.max(0, opts.durationMs)
  const dtstart = allDay ? floatOfDate(start.date ?? dateInZone(start.ms, start.timeZone)) : floatOf(start.ms, zone)
  // Floating bounds with slack for offsets; the exact overlap test runs on instants below.
  const lo = Math.max(dtstart, opts.windowStartMs !== undefined ? floatOf(opts.windowStartMs - dur, zone) - 2 * DAY : dtstart)
  const hi = opts.windowEndMs !== undefined ? floatOf(opts.windowEndMs, zone) + 2 * DAY : FAR_FUTURE
  if (hi < lo) return []

  const exclusions = exclusionsOf(parsed, zone, allDay)
  const budget = limit + exclusions.count + 1
  // Floats this far past the slack surely start inside the window, so only they count towards the budget.
  const countFrom = opts.windowStartMs !== undefined ? Math.max(lo, floatOf(opts.windowStartMs - dur, zone) + 3 * HOUR) : lo
  const floats = new Set<number>()
  if (dtstart >= lo && dtstart <= hi) floats.add(dtstart)
  for (const rule of parsed.rules.filter((r) => r.kind === 'RRULE')) {
    for (const f of ruleFloats(ruleOf(rule, dtstart, zone, allDay, lo), lo, hi, budget, countFrom)) floats.add(allDay ? floatOfDate(dateOfFloat(f)) : f)
  }
  for (const line of parsed.dates.filter((d) => d.kind === 'RDATE')) {
    for (const v of line.values) {
      const f = floatOfValue(v, zone, allDay)
      if (f >= lo && f <= hi) floats.add(allDay ? floatOfDate(dateOfFloat(f)) : f)
    }
  }
  const sorted = [...floats].sort((a, b) => a - b)
  const last = sorted[sorted.length - 1] ?? lo
  for (const rule of parsed.rules.filter((r) => r.kind === 'EXRULE')) {
    for (const f of ruleFloats(ruleOf(rule, dtstart, zone, allDay, lo), lo, last, Number.MAX_SAFE_INTEGER)) exclusions.floats.add(f)
  }

  const days = Math.max(1, Math.round(dur / DAY))
  const out: Occurrence[] = []
  for (const f of sorted) {
    if (out.length >= limit) break
    if (exclusions.floats.has(f)) continue
    if (allDay) {
      const date = dateOfFloat(f)
      if (exclusions.dates.has(date)) continue
      const ms = instantOfFloat(f, zone)
      const endMs = instantOfFloat(f + days * DAY, zone)
      if (inWindow(ms, endMs, opts)) out.push({ originalStartMs: ms, date })
    } else {
      const ms = instantOfFloat(f, zone)
      if (exclusions.instants.has(ms) || exclusions.dates.has(dateOfFloat(f))) continue
      if (inWindow(ms, ms + dur, opts)) out.push({ originalStartMs: ms })
    }
  }
  return out
}

function inWindow(ms: number, endMs: number, w: { windowStartMs?: number; windowEndMs?: number }): boolean {
  if (w.windowEndMs !== undefined && ms >= w.windowEndMs) return false
  if (w.windowStartMs !== undefined && !(endMs > w.windowStartMs || ms >= w.windowStartMs)) return false
  return true
}

/** EXDATE values keyed three ways: floats (wall clocks), instants (zoned/UTC values), local dates (VALUE=DATE). */
function exclusionsOf(parsed: ParsedRecurrence, zone: ZoneClock, allDay: boolean) {
  const floats = new Set<number>()
  const instants = new Set<number>()
  const dates = new Set<string>()
  let count = 0
  for (const line of parsed.dates.filter((d) => d.kind === 'EXDATE')) {
    for (const v of line.values) {
      count++
      if (v.kind === 'date') dates.add(v.date)
      else if (allDay) dates.add(dateOfFloat(floatOfValue(v, zone, true)))
      else if (v.kind === 'utc') instants.add(v.ms)
      else if (v.tzid) instants.add(instantOfFloat(wallFloat(v.wall), new ZoneClock(v.tzid)))
      else floats.add(wallFloat(v.wall))
    }
  }
  return { floats, instants, dates, count }
}

/**
 * Start and end of one instance: the series' length in absolute time for timed events, in whole days for
 * all-day ones (so a DST change inside the span does not shift the end date).
 */
export function instanceSpan(o: Occurrence, start: ResolvedTime, end: ResolvedTime): { start: ResolvedTime; end: ResolvedTime } {
  const given = start.givenTimeZone !== undefined ? { givenTimeZone: start.givenTimeZone } : {}
  if (!start.allDay || !o.date) {
    const s: ResolvedTime = { ms: o.originalStartMs, allDay: false, timeZone: start.timeZone, ...given }
    return { start: s, end: { ...s, ms: o.originalStartMs + (end.ms - start.ms), timeZone: end.timeZone } }
  }
  const days = Math.round((Date.parse(`${end.date ?? start.date}T00:00:00Z`) - Date.parse(`${start.date}T00:00:00Z`)) / DAY)
  const endDate = dateOfFloat(floatOfDate(o.date) + days * DAY)
  return {
    start: { ms: o.originalStartMs, allDay: true, date: o.date, timeZone: start.timeZone, ...given },
    end: { ms: startOfDateMs(endDate, start.timeZone), allDay: true, date: endDate, timeZone: start.timeZone, ...given },
  }
}

// ── instance ids ──────────────────────────────────────────────────────────────

const basicUtc = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')

/** `<baseId>_20260309T150000Z` for a timed instance, `<baseId>_20260309` for an all-day one. */
export function instanceId(baseId: string, originalStart: { ms: number; allDay: boolean; date?: string }): string {
  if (originalStart.allDay) return `${baseId}_${(originalStart.date ?? new Date(originalStart.ms).toISOString().slice(0, 10)).replace(/-/g, '')}`
  return `${baseId}_${basicUtc(originalStart.ms)}`
}

/** Inverse of `instanceId`; undefined for an id without an instance suffix. */
export function parseInstanceId(id: string): { baseId: string; originalStartMs?: number; date?: string } | undefined {
  const m = /^(.+)_(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/.exec(id)
  if (!m) return undefined
  const [, baseId, y, mo, d, h, mi, s] = m
  if (h === undefined) {
    const date = `${y}-${mo}-${d}`
    return DateTime.fromISO(date, { zone: 'UTC' }).isValid ? { baseId: baseId!, date } : undefined
  }
  const ms = Date.UTC(+y!, +mo! - 1, +d!, +h, +mi!, +s!)
  return basicUtc(ms) === `${y}${mo}${d}T${h}${mi}${s}Z` ? { baseId: baseId!, originalStartMs: ms } : undefined
}

// ── splits ("this and following") ─────────────────────────────────────────────

/** Instants (or all-day starts) of one rule alone, up to `beforeMs`. */
function countBefore(rule: RuleLine, start: ResolvedTime, beforeMs: number): number {
  const count = Number(rule.parts.find(([k]) => k === 'COUNT')?.[1] ?? MAX_INSTANCES)
  return expandRecurrence({ recurrence: [ruleToString({ ...rule, kind: 'RRULE' })], start, durationMs: 0, windowEndMs: beforeMs, limit: count }).length
}

function dateValueMs(v: DateValue, start: ResolvedTime): number {
  if (v.kind === 'utc') return v.ms
  if (v.kind === 'date') return startOfDateMs(v.date, start.timeZone)
  return instantOfFloat(wallFloat(v.wall), new ZoneClock(v.tzid ?? start.timeZone))
}

/** Keeps RDATE/EXDATE values for which `keep(ms)` holds; drops lines left empty. */
function filterDates(lines: string[], start: ResolvedTime, keep: (ms: number) => boolean): string[] {
  const out: string[] = []
  for (const line of lines) {
    const name = line.slice(0, line.search(/[;:]/)).toUpperCase()
    if (name !== 'RDATE' && name !== 'EXDATE') continue
    const colon = line.indexOf(':')
    const parsedLine = parseRecurrence([line]).dates[0]!
    const values = line.slice(colon + 1).split(',').filter((_, i) => keep(dateValueMs(parsedLine.values[i]!, start)))
    if (values.length) out.push(`${line.slice(0, colon)}:${values.join(',')}`)
  }
  return out
}

/**
 * The recurrence of the original series after a "this and following" split at `beforeMs` (the original
 * start of the first instance that moves to the new series): it ends just before `beforeMs`. A COUNT that
 * would reach `beforeMs` becomes an UNTIL (UTC for timed events, a date for all-day ones).
 */
export function truncateRecurrence(lines: string[], start: ResolvedTime, beforeMs: number): string[] {
  const parsed = parseRecurrence(lines)
  const until = start.allDay ? dateInZone(beforeMs - 1, start.timeZone).replace(/-/g, '') : basicUtc(beforeMs - 1000)
  const rules = parsed.rules.map((rule) => {
    const count = rule.parts.find(([k]) => k === 'COUNT')?.[1]
    const oldUntil = rule.parts.find(([k]) => k === 'UNTIL')?.[1]
    if (count && countBefore(rule, start, beforeMs) >= Number(count)) return ruleToString(rule)
    if (oldUntil && untilMs(oldUntil, start) < beforeMs) return ruleToString(rule)
    const parts = rule.parts.filter(([k]) => k !== 'COUNT' && k !== 'UNTIL')
    const at = parts.findIndex(([k]) => k === 'FREQ') + 1
    parts.splice(at, 0, ['UNTIL', until])
    return ruleToString({ ...rule, parts })
  })
  return [...rules, ...filterDates(lines, start, (ms) => ms < beforeMs)]
}

/**
 * The recurrence of the new series created by a split at `fromMs`: same rules, COUNT reduced by the
 * instances left behind, RDATE/EXDATE values before `fromMs` dropped.
 */
export function followingRecurrence(lines: string[], start: ResolvedTime, fromMs: number): string[] {
  const parsed = parseRecurrence(lines)
  const rules = parsed.rules.map((rule) => {
    const count = rule.parts.find(([k]) => k === 'COUNT')?.[1]
    if (!count) return ruleToString(rule)
    const left = Math.max(1, Number(count) - countBefore(rule, start, fromMs))
    return ruleToString({ ...rule, parts: rule.parts.map(([k, v]) => [k, k === 'COUNT' ? String(left) : v]) })
  })
  return [...rules, ...filterDates(lines, start, (ms) => ms >= fromMs)]
}

function untilMs(text: string, start: ResolvedTime): number {
  const v = parseUntil(text)
  const ms = dateValueMs(v, start)
  return v.kind === 'date' && !start.allDay ? ms + DAY - 1000 : ms
}
