import type { Oracle } from '../types.ts'
import { rsvp } from '../families/calendar/rsvp.ts'
import { recurrenceException } from '../families/calendar/recurrence-exception.ts'
import { bookRoom } from '../families/calendar/book-room.ts'

/** Oracles of the calendar task families (tasks-lite/families/groups/calendar.ts), by id. */
export const calendarOracles: Record<string, Oracle<any>> = {
  'calendar-rsvp': rsvp,
  'calendar-recurrence-exception': recurrenceException,
  'calendar-book-room': bookRoom,
}
