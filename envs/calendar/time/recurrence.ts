/**
 * Recurring events: validation, expansion into instances, instance ids and "this and following" splits.
 * The pieces live in ./expand.ts, ./instance-id.ts and ./recurrence-split.ts; this module is the entry point.
 * @see https://developers.google.com/calendar/api/guides/recurringevents
 */
import { parseRecurrence } from './recurrence-parse.ts'

export { MAX_INSTANCES, type ExpandOptions, type Occurrence, expandRecurrence, instanceSpan } from './expand.ts'
export { instanceId, parseInstanceId } from './instance-id.ts'
export { followingRecurrence, truncateRecurrence } from './recurrence-split.ts'
export { iterateRecurrence } from './stream.ts'

/** Throws `CalendarTimeError('Invalid recurrence rule.')` on a malformed RRULE/EXRULE/RDATE/EXDATE line. */
export function validateRecurrence(lines: string[]): void {
  parseRecurrence(lines)
}
