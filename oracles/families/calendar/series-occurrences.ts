import type { Entity } from '../../types.ts'
import { expandRecurrence } from '../../../envs/calendar/time/expand.ts'
import { resolveEventTime } from '../../../envs/calendar/time/zoned.ts'

type Time = { dateTime?: string; date?: string; timeZone?: string }

/** Fields a write stamps on a series whatever it changes (not the meeting guests see). */
const STAMPS = new Set(['recurrence', 'updated', 'etag', 'sequence'])

/**
 * Start instants (epoch ms, ascending) of a recurring series' meetings up to `horizonMs`: its recurrence (RRULE,
 * EXRULE, RDATE, EXDATE) expanded in its zone, less the occurrences `exceptions` (events of the calendar) cancel.
 */
export function liveStarts(master: Entity, exceptions: Entity[], horizonMs: number): number[] {
  const recurrence = Array.isArray(master.recurrence) ? (master.recurrence as string[]) : []
  const start = resolveEventTime(master.start as Time, 'UTC')
  const end = resolveEventTime(master.end as Time, 'UTC', { side: 'end' })
  const cancelled = new Set(
    exceptions
      .filter((e) => e.recurringEventId === master.id && e.status === 'cancelled')
      .map((e) => resolveEventTime(e.originalStartTime as Time, start.timeZone, { side: 'originalStart' }).ms),
  )
  return expandRecurrence({ recurrence, start, durationMs: end.ms - start.ms, windowEndMs: horizonMs })
    .map((o) => o.originalStartMs)
    .filter((ms) => !cancelled.has(ms))
}

/** The series as guests see it, bar its recurrence: every field but the ones a write stamps is as it was. */
export function seriesOtherwiseSame(before: Entity, after: Entity): boolean {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)].filter((k) => !STAMPS.has(k)))
  const diff = [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
  return diff.length === 0
}
