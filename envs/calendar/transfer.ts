import { selectRows, type Db } from '../core/db.ts'
import { nowMs } from '../core/clock.ts'
import { findUserById } from '../core/users.ts'
import { findCalendar } from './store/access.ts'
import { dataOf, occurrences } from './store/events.ts'
import { moveEvent } from './store/writes.ts'
import { releaseRooms } from './store/rooms.ts'
import { events } from './schema.ts'

/** Bridge for a Directory rename (identity service): see ./store/rename.ts. */
export { renameCalendarAddress } from './store/rename.ts'

/**
 * Bridge for the Admin SDK Data Transfer API (identity service): a "Calendar" transfer moves the events the old
 * user organises on their primary calendar to the new user's primary calendar, as events.move does, so the new
 * user becomes the organiser and every guest's copy follows. As the API documents, only events that are in the
 * future, not private, and have at least one guest (or resource) move; a series moves when it still has an
 * occurrence after now. Returns how many events (series count once) moved. With `releaseResources`
 * (RELEASE_RESOURCES=TRUE), the rooms booked for the moved events are released: they leave the guest list and
 * their calendars.
 */
export function transferCalendarEvents(db: Db, fromId: string, toId: string, releaseResources = false): number {
  const from = findUserById(db, fromId)
  const to = findUserById(db, toId)
  if (!from || !to || fromId === toId) return 0
  const source = findCalendar(db, from.email)
  const dest = findCalendar(db, to.email)
  if (!source?.isPrimary || !dest?.isPrimary) return 0
  const now = nowMs(db)
  const rows = selectRows(db, events, { calendarId: source.id, organizerCalendarId: source.id }, { orderBy: ['rowid'] })
  let moved = 0
  for (const row of rows) {
    if (row.recurringEventId || row.status === 'cancelled') continue
    const data = dataOf(row)
    if (data.visibility === 'private' || data.visibility === 'confidential') continue
    const guests = (data.attendees ?? []).filter((a) => a.email.toLowerCase() !== from.email.toLowerCase())
    if (guests.length === 0) continue
    const future = row.recurrence ? occurrences(row, now, undefined, 1).length > 0 : row.startMs > now
    if (!future) continue
    // A new owner who was a guest has a copy of the event: the organiser's row replaces it.
    const after = moveEvent(db, row, dest)
    if (releaseResources) releaseRooms(db, after)
    moved++
  }
  return moved
}
