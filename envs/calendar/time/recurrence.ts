/**
 * Recurring events: validation, expansion into instances, instance ids and "this and following" splits.
 * The pieces live in ./expand.ts, ./instance-id.ts and ./recurrence-split.ts; this module is the entry point.
 * @see https://developers.google.com/calendar/api/guides/recurringevents
 */
import { parseRecurrence } from './recurrence-parse.ts'

/** The parts a BYWEEKNO rule may add to it; every other rule is expanded by ./simple-rule.ts. */
const WITH_WEEKNO = new Set([
  'FREQ',
  'INTERVAL',
  'WKST',
  'BYWEEKNO',
  'BYDAY',
  'UNTIL',
  'COUNT',
  'BYHOUR',
  'BYMINUTE',
  'BYSECOND',
])

export { MAX_INSTANCES, type ExpandOptions, type Occurrence, expandRecurrence, instanceSpan } from './expand.ts'
export { instanceId, parseInstanceId } from './instance-id.ts'
export { followingRecurrence, truncateRecurrence } from './recurrence-split.ts'
export { iterateRecurrence, iterateRecurrenceSlices } from './stream.ts'

/** Throws `CalendarTimeError('Invalid recurrence rule.')` on a malformed RRULE/EXRULE/RDATE/EXDATE line. */
export function validateRecurrence(lines: string[]): void {
  parseRecurrence(lines)
}

/**
 * Deviation (unverified): a BYWEEKNO rule is refused (`Invalid recurrence rule.`) when it adds BYMONTH,
 * BYMONTHDAY, BYYEARDAY or BYSETPOS, more than 24 times of day, or a COUNT above 5,000. Such rules are expanded
 * by the rrule library, which builds a `Date` for every time of every day it walks and cannot stop a walk that
 * matches nothing before year 9999 (`BYWEEKNO=1;BYMONTH=7` costs ~8,000 year tables on every listing). Calendar's
 * UI writes no BYWEEKNO rules.
 */
export function withinLibraryBounds(lines: string[]): boolean {
  return parseRecurrence(lines).rules.every(({ parts }) => {
    if (!parts.some(([k]) => k === 'BYWEEKNO')) return true
    const get = (k: string) => parts.find(([key]) => key === k)?.[1]
    const times = ['BYHOUR', 'BYMINUTE', 'BYSECOND'].reduce((n, k) => n * new Set(get(k)?.split(',') ?? ['']).size, 1)
    return parts.every(([k]) => WITH_WEEKNO.has(k)) && times <= 24 && Number(get('COUNT') ?? 0) <= 5000
  })
}
