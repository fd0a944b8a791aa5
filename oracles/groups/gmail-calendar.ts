import type { Oracle } from '../types.ts'

/** Oracles of the gmail-calendar task families (tasks-lite/families/groups/gmail-calendar.ts), by id. */
export const gmailCalendarOracles: Record<string, Oracle<any>> = {}
