import type { Oracle } from '../types.ts'

/** Oracles of the calendar task families (tasks-lite/families/groups/calendar.ts), by id. */
export const calendarOracles: Record<string, Oracle<any>> = {}
