/**
 * Expansion of a recurring event into instances, in the event's zone and DST-correct.
 *
 * rrule runs in "floating" time: each local wall clock of the event's zone is written as a UTC `Date`,
 * rrule steps through wall clocks, and the zone's offsets map each wall clock back to an instant. So a weekly
 * 10:00 New York meeting stays at 10:00 local across DST changes.
 * @see https://developers.google.com/calendar/api/guides/recurringevents
 */
import * as rruleModule from 'rrule'
import type { Options } from 'rrule'
import { type DateValue, type ParsedRecurrence, type RuleLine, parseRecurrence } from './recurrence-parse.ts'
import { jumpTowards } from './rrule-jump.ts'
import { BoundedMap } from '../../core/bounded-map.ts'
import { SimpleRule } from './simple-rule.ts'
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
export const DAY = 24 * HOUR
const FAR_FUTURE = Date.UTC(9999, 0, 1)

export type Occurrence = { originalStartMs: number; date?: string }

const floatOf = (ms: number, zc: ZoneClock) => zc.floatOf(ms)
export const instantOfFloat = (f: number, zc: ZoneClock) => zc.instantOfFloat(f)

export const floatOfDate = (date: string) => Date.parse(`${date}T00:00:00Z`)
export const dateOfFloat = (f: number) => new Date(f).toISOString().slice(0, 10)
export const wallFloat = (w: {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, Math.min(w.second, 59))

/** A date value as floating time of the event's zone (all-day events read UTC values as plain wall clocks). */
function floatOfValue(v: DateValue, zone: ZoneClock, allDay: boolean): number {
  switch (v.kind) {
    case 'date':
      return floatOfDate(v.date)
    case 'utc':
      return allDay ? v.ms : floatOf(v.ms, zone)
    case 'wall':
      return v.tzid && !allDay
        ? floatOf(instantOfFloat(wallFloat(v.wall), ZoneClock.of(v.tzid)), zone)
        : wallFloat(v.wall)
  }
}

/** Floats of one rule inside [lo, hi]; stops once `budget` of them are at or after `countFrom`. */
type RuleFloats = (lo: number, hi: number, budget: number, countFrom?: number) => number[]

function ruleOf(rule: RuleLine, dtstartFloat: number, zone: ZoneClock, allDay: boolean): RuleFloats | undefined {
  // All-day instances have no time of day, so time parts would only repeat the same date.
  const skip = allDay ? ['UNTIL', 'BYHOUR', 'BYMINUTE', 'BYSECOND'] : ['UNTIL']
  const parts = rule.parts.filter(([k]) => !skip.includes(k))
  const untilText = rule.parts.find(([k]) => k === 'UNTIL')?.[1]
  let until: number | undefined
  if (untilText) {
    const value = parseUntil(untilText)
    // A date-only UNTIL on a timed event includes that whole day.
    until = floatOfValue(value, zone, allDay) + (value.kind === 'date' && !allDay ? DAY - 1000 : 0)
  }
  let simple = SimpleRule.of(parts, dtstartFloat, until)
  if (simple) {
    // RFC 5545 3.8.5.3: DTSTART is the first of COUNT occurrences even when the rule does not match it.
    if (simple.count !== undefined && simple.first() !== dtstartFloat) {
      if (simple.count === 1) return undefined
      simple = simple.withCount(simple.count - 1)
    }
    const rule = simple
    // A COUNT rule's walk starts at DTSTART; its last occurrence spares the walk for every window after it (a
    // listing asks once per slice). Up to 999,999 occurrences to walk, so it is found once per rule, not per listing.
    const key = `${parts.map(([k, v]) => `${k}=${v}`).join(';')}|${dtstartFloat}|${until}`
    const lastOf = () => lastOccurrence(key, rule)
    return (lo, hi, budget, countFrom = lo) => {
      const out: number[] = []
      if (rule.count !== undefined && lo > lastOf()) return out
      let counted = 0
      rule.scan(lo, hi, (f) => {
        if (f < lo) return true
        if (f > hi) return false
        out.push(f)
        if (f >= countFrom) counted++
        return counted < budget
      })
      return out
    }
  }
  const rest = parts.map(([k, v]) => `${k}=${v}`).join(';')
  const options: Partial<Options> = { ...RRule.parseString(rest), dtstart: new Date(dtstartFloat) }
  if (until !== undefined) options.until = new Date(until)
  // Deviation (unverified): the real API's count for an off-rule start was not recorded; RFC semantics here.
  if (options.count) {
    const first = new RRule({ ...options, count: 1 }).all()[0]
    if (first?.getTime() !== dtstartFloat) options.count -= 1
    if (options.count === 0) return undefined
  }
  return (lo, hi, budget, countFrom = lo) => rruleFloats(new RRule(jumpTowards(options, lo)), lo, hi, budget, countFrom)
}

/** Last occurrences of COUNT rules by rule text, DTSTART and UNTIL (a pure function of them), most recent kept. */
const lastOccurrences = new BoundedMap<string, number>(256)

function lastOccurrence(key: string, rule: SimpleRule): number {
  const known = lastOccurrences.recent(key)
  if (known !== undefined) return known
  let found = -Infinity
  rule.scan(-Infinity, Infinity, (f) => {
    found = Math.max(found, f)
    return true
  })
  lastOccurrences.set(key, found)
  return found
}

export function parseUntil(text: string): DateValue {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(text)!
  if (m[4] === undefined) return { kind: 'date', date: `${m[1]}-${m[2]}-${m[3]}` }
  const wall = { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: +m[4], minute: +m[5]!, second: +m[6]! }
  return m[7] ? { kind: 'utc', ms: wallFloat(wall) } : { kind: 'wall', wall }
}

function rruleFloats(
  rule: InstanceType<typeof RRule>,
  lo: number,
  hi: number,
  budget: number,
  countFrom: number,
): number[] {
  const out: number[] = []
  let counted = 0
  rule.between(new Date(lo), new Date(hi), true, (d) => {
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

/** Where and how many instances one expansion wants. */
export type ExpandWindow = Pick<ExpandOptions, 'windowStartMs' | 'windowEndMs' | 'limit'>

/** A series read once (rules, RDATEs, EXDATEs) for expanding many windows: `iterateRecurrence` walks one per slice. */
export type PreparedRecurrence = (w: ExpandWindow) => Occurrence[]

/**
 * Instances of a recurring event, ascending. With a window, an instance counts when it overlaps
 * [windowStartMs, windowEndMs) (one that started before the window but ends inside it is included).
 * DTSTART itself is always an instance (RFC 5545 3.8.5.3); EXDATE/EXRULE remove, RDATE adds.
 */
export function expandRecurrence(opts: ExpandOptions): Occurrence[] {
  return prepareRecurrence(opts)(opts)
}

/** `expandRecurrence` in two steps: the series' rules parsed once, then any number of windows. */
export function prepareRecurrence(opts: Omit<ExpandOptions, keyof ExpandWindow>): PreparedRecurrence {
  const parsed = parseRecurrence(opts.recurrence)
  const { start } = opts
  const zone = ZoneClock.of(start.timeZone)
  const allDay = start.allDay
  const dur = Math.max(0, opts.durationMs)
  const dtstart = allDay ? floatOfDate(start.date ?? dateInZone(start.ms, start.timeZone)) : floatOf(start.ms, zone)
  const exclusions = exclusionsOf(parsed, zone, allDay)
  const rrules = parsed.rules.filter((r) => r.kind === 'RRULE').map((r) => ruleOf(r, dtstart, zone, allDay))
  const exrules = parsed.rules.filter((r) => r.kind === 'EXRULE').map((r) => ruleOf(r, dtstart, zone, allDay))
  const rdates = parsed.dates
    .filter((d) => d.kind === 'RDATE')
    .flatMap((line) => line.values.map((v) => floatOfValue(v, zone, allDay)))
  const days = Math.max(1, Math.round(dur / DAY))

  return (w) => {
    const limit = w.limit ?? MAX_INSTANCES
    // Floating bounds with slack for offsets; the exact overlap test runs on instants below.
    const lo = Math.max(dtstart, w.windowStartMs !== undefined ? lowestFloat(w.windowStartMs - dur, zone) : dtstart)
    const hi = w.windowEndMs !== undefined ? floatOf(w.windowEndMs, zone) + 2 * DAY : FAR_FUTURE
    if (hi < lo) return []

    const budget = limit + exclusions.count + 1
    // Floats this far past the slack surely start inside the window, so only they count towards the budget.
    const countFrom = w.windowStartMs !== undefined ? Math.max(lo, floatOf(w.windowStartMs - dur, zone) + 3 * HOUR) : lo
    const floats = new Set<number>()
    if (dtstart >= lo && dtstart <= hi) floats.add(dtstart)
    for (const rule of rrules) {
      if (rule) for (const f of rule(lo, hi, budget, countFrom)) floats.add(allDay ? floatOfDate(dateOfFloat(f)) : f)
    }
    for (const f of rdates) {
      if (f >= lo && f <= hi) floats.add(allDay ? floatOfDate(dateOfFloat(f)) : f)
    }
    const sorted = [...floats].sort((a, b) => a - b)
    const last = sorted[sorted.length - 1] ?? lo
    let excluded = exclusions.floats
    if (exrules.length) {
      excluded = new Set(excluded)
      for (const rule of exrules) if (rule) for (const f of rule(lo, last, Number.MAX_SAFE_INTEGER)) excluded.add(f)
    }

    const out: Occurrence[] = []
    for (const f of sorted) {
      if (out.length >= limit) break
      if (excluded.has(f)) continue
      if (allDay) {
        const date = dateOfFloat(f)
        if (exclusions.dates.has(date)) continue
        const ms = instantOfFloat(f, zone)
        const endMs = instantOfFloat(f + days * DAY, zone)
        if (inWindow(ms, endMs, w)) out.push({ originalStartMs: ms, date })
      } else {
        const ms = instantOfFloat(f, zone)
        if (exclusions.instants.has(ms) || (exclusions.dates.size && exclusions.dates.has(dateOfFloat(f)))) continue
        if (inWindow(ms, ms + dur, w)) out.push({ originalStartMs: ms })
      }
    }
    return out
  }
}

/**
 * The lowest float an instant at or after `x` can have: floatOf(x) less the zone's offset changes around x and
 * an hour. An instant is its float less the offset, so a float below that maps before x (and instants two days
 * on have floats far above it). A fixed slack of two days made a dense rule (a time every second) collect
 * 172,800 floats before the window on every call; this one is an hour where the offset does not change.
 */
function lowestFloat(x: number, zone: ZoneClock): number {
  let min = Infinity
  let max = -Infinity
  for (let t = x - DAY; t <= x + 2 * DAY; t += 3 * HOUR) {
    const offset = zone.offset(t)
    min = Math.min(min, offset)
    max = Math.max(max, offset)
  }
  return floatOf(x, zone) - (max - min) * 60_000 - HOUR
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
      else if (v.tzid) instants.add(instantOfFloat(wallFloat(v.wall), ZoneClock.of(v.tzid)))
      else floats.add(wallFloat(v.wall))
    }
  }
  return { floats, instants, dates, count }
}

/**
 * Start and end of one instance: the series' length in absolute time for timed events, in whole days for
 * all-day ones (so a DST change inside the span does not shift the end date).
 */
export function instanceSpan(
  o: Occurrence,
  start: ResolvedTime,
  end: ResolvedTime,
): { start: ResolvedTime; end: ResolvedTime } {
  const given = start.givenTimeZone !== undefined ? { givenTimeZone: start.givenTimeZone } : {}
  if (!start.allDay || !o.date) {
    const s: ResolvedTime = { ms: o.originalStartMs, allDay: false, timeZone: start.timeZone, ...given }
    return { start: s, end: { ...s, ms: o.originalStartMs + (end.ms - start.ms), timeZone: end.timeZone } }
  }
  const days = Math.round(
    (Date.parse(`${end.date ?? start.date}T00:00:00Z`) - Date.parse(`${start.date}T00:00:00Z`)) / DAY,
  )
  const endDate = dateOfFloat(floatOfDate(o.date) + days * DAY)
  return {
    start: { ms: o.originalStartMs, allDay: true, date: o.date, timeZone: start.timeZone, ...given },
    end: {
      ms: startOfDateMs(endDate, start.timeZone),
      allDay: true,
      date: endDate,
      timeZone: start.timeZone,
      ...given,
    },
  }
}
