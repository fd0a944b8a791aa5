import type { Family } from '../common.ts'
import { calendarRsvp } from '../calendar/calendar-rsvp.ts'
import { calendarRecurrenceException } from '../calendar/calendar-recurrence-exception.ts'
import { calendarBookRoom } from '../calendar/calendar-book-room.ts'

/** The calendar task families, in a stable order (their oracles: oracles/groups/calendar.ts). */
export const calendarFamilies: Family[] = [calendarRsvp, calendarRecurrenceException, calendarBookRoom]
