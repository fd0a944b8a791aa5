import type { Family } from '../common.ts'

/** The gmail-calendar task families, in a stable order (their oracles: oracles/groups/gmail-calendar.ts). */
export const gmailCalendarFamilies: Family[] = []
