// Calendar's routes, imported by `loadRouter()` when a request first reaches the service (docs/decisions/0293).
import { createGoogleRouter } from '../core/http.ts'
import { calendarsRouter } from './routes/calendars.ts'
import { calendarListRouter } from './routes/calendar-list.ts'
import { aclRouter } from './routes/acl.ts'
import { miscRouter } from './routes/misc.ts'
import { eventsRouter } from './routes/events.ts'
import { eventsListRouter } from './routes/events-list.ts'

// Static paths (watch, import, quickAdd, channels) are registered before the `{id}` routes they resemble.
export const router = createGoogleRouter()
  .route('/', miscRouter)
  .route('/', calendarListRouter)
  .route('/', aclRouter)
  .route('/', eventsListRouter)
  .route('/', eventsRouter)
  .route('/', calendarsRouter)
