import type { Family } from '../common.ts'

/** The calendar task families, in a stable order (their oracles: oracles/groups/calendar.ts). */
export const calendarFamilies: Family[] = []
