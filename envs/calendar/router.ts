// Calendar's routes, imported by `loadRouter()` when a request first reaches the service (docs/decisions/0293).
import { createGoogleRouter } from '../core/http.ts'
import { calendarsRouter } from './routes/calendars.ts'
import { calendarListRouter } from './routes/calendar-list.ts'
import { aclRouter } from './routes/acl.ts'
import { miscRouter } from './routes/misc.ts'
import { eventsRouter } from './routes/events.ts'
import { eventsListRouter } from './routes/events-list.ts'
import { isValidZone } from './time/zoned.ts'

// ICU loads its date and zone data with the process's first `Intl.DateTimeFormat` (20–30 ms of CPU, then a
// fraction of a millisecond per zone). Every event write checks a zone and most answers render an offset, so the
// service's first request pays that load here, with the route imports, instead of its first event write (0357).
// `isValidZone` memoises a pure answer (true for 'UTC' in every runtime): nothing of a world is read or kept.
isValidZone('UTC')

// Static paths (watch, import, quickAdd, channels) are registered before the `{id}` routes they resemble.
export const router = createGoogleRouter()
  .route('/', miscRouter)
  .route('/', calendarListRouter)
  .route('/', aclRouter)
  .route('/', eventsListRouter)
  .route('/', eventsRouter)
  .route('/', calendarsRouter)
