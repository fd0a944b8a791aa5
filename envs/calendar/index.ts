import type { ServiceProvider } from '../core/service.ts'
import { specMethods } from './api/methods.gen.ts'
import { fieldTables } from './api/fields.gen.ts'
import { calendarTables } from './schema.ts'
import { CalendarSeed, seedCalendar } from './seed.ts'
import { dumpCalendar } from './state.ts'

/**
 * Google Calendar API v3: calendars, calendar lists, ACL rules with real access control, events (timed and
 * all-day in IANA zones, recurrence with instances and exceptions, attendees' copies and invitations,
 * incremental sync), free/busy, settings, colours and watch channels.
 * @see https://developers.google.com/calendar/api/v3/reference
 */
export const calendar: ServiceProvider<'calendar', CalendarSeed> = {
  name: 'calendar',
  family: 'google',
  tables: calendarTables,
  loadRouter: () => import('./router.ts').then((m) => m.router),
  pathPrefixes: ['/calendar/v3/'],
  // Calendar answers errors in the legacy envelope, without `status`
  // (as the recorded specs/parity/gcal/error_*.json show).
  googleErrorStyle: 'legacy',
  get specMethods() {
    return specMethods()
  },
  get fieldTables() {
    return fieldTables()
  },
  seedSchema: CalendarSeed,
  seed: seedCalendar,
  dump: dumpCalendar,
}
