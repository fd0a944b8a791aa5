import type { Db } from '../../core/db.ts'
import type { EventRow } from '../schema.ts'
import { calendarEvents, instanceRow, occurrences } from './events.ts'

export type Window = { min?: number; max?: number }

const overlaps = (r: Pick<EventRow, 'startMs' | 'endMs'>, w: Window) =>
  (w.max === undefined || r.startMs < w.max) && (w.min === undefined || r.endMs > w.min || (r.endMs === r.startMs && r.startMs >= w.min))

/**
 * Events of a calendar as single events (`singleEvents=true`): one-off events, stored exceptions and the
 * virtual instances of each series in the window (an occurrence with a stored exception is replaced by it).
 */
export function singleEvents(db: Db, calendarId: string, w: Window, includeCancelled: boolean): EventRow[] {
  const rows = calendarEvents(db, calendarId)
  const exceptionIds = new Set(rows.filter((r) => r.recurringEventId).map((r) => r.id))
  const out: EventRow[] = []
  for (const r of rows) {
    if (r.recurrence) {
      if (r.status === 'cancelled') {
        if (includeCancelled) out.push(r)
        continue
      }
      for (const o of occurrences(r, w.min, w.max)) {
        const inst = instanceRow(r, o)
        if (!exceptionIds.has(inst.id)) out.push(inst)
      }
      continue
    }
    if (r.status === 'cancelled' && !includeCancelled) continue
    if (r.status === 'cancelled' || overlaps(r, w)) out.push(r)
  }
  return out.sort((a, b) => a.startMs - b.startMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** Series and one-off events (`singleEvents=false`): a series is listed when any occurrence falls in the window. */
export function seriesEvents(db: Db, calendarId: string, w: Window, includeCancelled: boolean): EventRow[] {
  return calendarEvents(db, calendarId).filter((r) => {
    if (r.status === 'cancelled') return includeCancelled
    if (!r.recurrence) return overlaps(r, w)
    if (w.min === undefined && w.max === undefined) return true
    return occurrences(r, w.min, w.max, 1).length > 0
  })
}
