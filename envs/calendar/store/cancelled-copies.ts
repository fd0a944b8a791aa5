import { stmt, type Db } from '../../core/db.ts'
import { reserveCounter } from '../../core/ids.ts'
import type { EventRow } from '../schema.ts'
import { EVENT_COLUMNS } from './events.ts'

// Every guest's copy of a series that lacks the organizer's cancelled instances: each (instance, copy) pair once.
const MISSING = `FROM calendar_events e JOIN calendar_events s
  ON s.organizer_calendar_id = e.calendar_id AND s.id = @series
  AND s.calendar_id <> e.calendar_id AND s.status <> 'cancelled'
  WHERE e.calendar_id = @org AND e.recurring_event_id = @series AND e.status = 'cancelled'
  AND NOT EXISTS (SELECT 1 FROM calendar_events x WHERE x.calendar_id = s.calendar_id AND x.id = e.id)`

const COLUMNS = EVENT_COLUMNS.split(', ')
const VALUES = COLUMNS.map((col) =>
  col === '"calendar_id"'
    ? 's."calendar_id"'
    : col === '"change_seq"'
      ? '@first + row_number() OVER (ORDER BY e.rowid, s.rowid) - 1'
      : `e.${col}`,
).join(', ')
const COPY = `INSERT INTO calendar_events (${EVENT_COLUMNS}) SELECT ${VALUES} ${MISSING} ORDER BY e.rowid, s.rowid`

/**
 * Gives every guest's copy of `series` the instances its organizer cancelled that the copy lacks (a guest added
 * later would otherwise expand them, 0448): each a copy of the organizer's cancelled row, as propagate makes one.
 * Two statements and one counter reservation however many instances and guests (docs/decisions/0452).
 */
export function copyCancelledInstances(db: Db, series: EventRow): void {
  const n = stmt(db, `SELECT count(*) ${MISSING}`)
    .pluck(true)
    .get({ org: series.calendarId, series: series.id }) as number
  if (n === 0) return
  const first = reserveCounter(db, 'calendar.change', n)
  stmt(db, COPY).run({ org: series.calendarId, series: series.id, first })
}
