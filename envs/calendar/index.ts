import type { ServiceProvider } from '../core/service.ts'
import { createGoogleRouter } from '../core/http.ts'
import { specMethods } from './api/methods.gen.ts'
import { fieldTables } from './api/fields.gen.ts'
import { calendarTables } from './schema.ts'
import { calendarsRouter } from './routes/calendars.ts'
import { calendarListRouter } from './routes/calendar-list.ts'
import { aclRouter } from './routes/acl.ts'
import { miscRouter } from './routes/misc.ts'
import { eventsRouter } from './routes/events.ts'
import { eventsListRouter } from './routes/events-list.ts'
import { CalendarSeed, seedCalendar } from './seed.ts'
import { dumpCalendar } from './state.ts'

// Static paths (watch, import, quickAdd, channels) are registered before the `{id}` routes they resemble.
const router = createGoogleRouter()
  .route('/', miscRouter)
  .route('/', calendarListRouter)
  .route('/', aclRouter)
  .route('/', eventsListRouter)
  .route('/', eventsRouter)
  .route('/', calendarsRouter)

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
  router,
  pathPrefixes: ['/calendar/v3/'],
  // Calendar answers errors in the legacy envelope, without `status` (as the recorded specs/parity/gcal/error_*.json show).
  googleErrorStyle: 'legacy',
  specMethods,
  fieldTables,
  seedSchema: CalendarSeed,
  seed: seedCalendar,
  dump: dumpCalendar,
}
