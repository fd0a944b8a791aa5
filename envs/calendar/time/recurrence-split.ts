/**
 * Recurrence rewrites for "this and following" edits: the original series is cut before the split instance
 * and a new series carries on with the rest.
 */
import { DAY, MAX_INSTANCES, expandRecurrence, instantOfFloat, parseUntil, wallFloat } from './expand.ts'
import { basicUtc } from './instance-id.ts'
import { type DateValue, type RuleLine, parseRecurrence, ruleToString } from './recurrence-parse.ts'
import { ZoneClock } from './zone-clock.ts'
import { type ResolvedTime, dateInZone, startOfDateMs } from './zoned.ts'

/** Instants (or all-day starts) of one rule alone, up to `beforeMs`. */
function countBefore(rule: RuleLine, start: ResolvedTime, beforeMs: number): number {
  const count = Number(rule.parts.find(([k]) => k === 'COUNT')?.[1] ?? MAX_INSTANCES)
  return expandRecurrence({
    recurrence: [ruleToString({ ...rule, kind: 'RRULE' })],
    start,
    durationMs: 0,
    windowEndMs: beforeMs,
    limit: count,
  }).length
}

function dateValueMs(v: DateValue, start: ResolvedTime): number {
  if (v.kind === 'utc') return v.ms
  if (v.kind === 'date') return startOfDateMs(v.date, start.timeZone)
  return instantOfFloat(wallFloat(v.wall), ZoneClock.of(v.tzid ?? start.timeZone))
}

/** Keeps RDATE/EXDATE values for which `keep(ms)` holds; drops lines left empty. */
function filterDates(lines: string[], start: ResolvedTime, keep: (ms: number) => boolean): string[] {
  const out: string[] = []
  for (const line of lines) {
    const name = line.slice(0, line.search(/[;:]/)).toUpperCase()
    if (name !== 'RDATE' && name !== 'EXDATE') continue
    const colon = line.indexOf(':')
    const parsedLine = parseRecurrence([line]).dates[0]!
    const values = line
      .slice(colon + 1)
      .split(',')
      .filter((_, i) => keep(dateValueMs(parsedLine.values[i]!, start)))
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
