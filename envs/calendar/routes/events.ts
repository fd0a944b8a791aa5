import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { calendarEventId } from '../../core/ids.ts'
import { nowMs } from '../../core/clock.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { Event } from '../api/schemas.gen.ts'
import { events, type EventRow } from '../schema.ts'
import { and, eq } from 'drizzle-orm'
import { etagOf, toEvent } from '../map.ts'
import { findCalendar, roleOf, atLeast } from '../store/access.ts'
import { isServiceAccount } from '../../core/users.ts'
import { dataOf, findEvent, lookupEvent } from '../store/events.ts'
import { bodyOf, EventInputError, type EventBody } from '../store/build.ts'
import {
  createEvent,
  deleteEvent,
  importEvent,
  insertEvent,
  moveEvent,
  writeEvent,
  type WriteOptions,
} from '../store/writes.ts'
import { quickAdd } from '../time/quickadd.ts'
import { CalendarTimeError } from '../time/zoned.ts'
import {
  bool,
  CalParams,
  int,
  invalid,
  isObject,
  json,
  jsonBody,
  noContent,
  notFound,
  required,
  requireCalendar,
  viewOf,
  calendarIdOf,
} from './common.ts'
import { notModified, requireIfMatch } from './common.ts'

const base = '/calendar/v3/calendars/{calendarId}/events'
const EvParams = CalParams.extend({ eventId: z.string() })
const SendUpdates = z.enum(['all', 'externalOnly', 'none']).optional()
const WriteQuery = z.object({
  sendUpdates: SendUpdates,
  sendNotifications: bool(),
  conferenceDataVersion: int(0, 1),
  maxAttendees: int(1),
  supportsAttachments: bool(),
})

const get = createRoute({
  operationId: 'calendar.events.get',
  method: 'get',
  path: `${base}/{eventId}`,
  request: {
    params: EvParams,
    query: z.object({ timeZone: z.string().optional(), maxAttendees: int(1), alwaysIncludeEmail: bool() }),
  },
  responses: { 200: json(Event) },
})
const insert = createRoute({
  operationId: 'calendar.events.insert',
  method: 'post',
  path: base,
  request: { params: CalParams, query: WriteQuery, body: jsonBody(Event) },
  responses: { 200: json(Event) },
})
const importRoute = createRoute({
  operationId: 'calendar.events.import',
  method: 'post',
  path: `${base}/import`,
  request: {
    params: CalParams,
    query: z.object({ conferenceDataVersion: int(0, 1), supportsAttachments: bool() }),
    body: jsonBody(Event),
  },
  responses: { 200: json(Event) },
})
const quick = createRoute({
  operationId: 'calendar.events.quickAdd',
  method: 'post',
  path: `${base}/quickAdd`,
  request: {
    params: CalParams,
    query: z.object({ text: z.string().optional(), sendUpdates: SendUpdates, sendNotifications: bool() }),
  },
  responses: { 200: json(Event) },
})
const update = createRoute({
  operationId: 'calendar.events.update',
  method: 'put',
  path: `${base}/{eventId}`,
  request: { params: EvParams, query: WriteQuery, body: jsonBody(Event) },
  responses: { 200: json(Event) },
})
const patch = createRoute({
  operationId: 'calendar.events.patch',
  method: 'patch',
  path: `${base}/{eventId}`,
  request: { params: EvParams, query: WriteQuery, body: jsonBody(Event) },
  responses: { 200: json(Event) },
})
const remove = createRoute({
  operationId: 'calendar.events.delete',
  method: 'delete',
  path: `${base}/{eventId}`,
  request: { params: EvParams, query: z.object({ sendUpdates: SendUpdates, sendNotifications: bool() }) },
  responses: noContent,
})
const move = createRoute({
  operationId: 'calendar.events.move',
  method: 'post',
  path: `${base}/{eventId}/move`,
  request: {
    params: EvParams,
    query: z.object({ destination: z.string().optional(), sendUpdates: SendUpdates, sendNotifications: bool() }),
  },
  responses: { 200: json(Event) },
})

/** Runs a write, turning input errors from the body and the time modules into Google's 400s. */
function checked<T>(fn: () => T): T {
  try {
    return fn()
  } catch (e) {
    if (e instanceof CalendarTimeError || e instanceof EventInputError) throw invalid(e.message, e.reason)
    if (e instanceof Error && e.message === 'Invalid attendee response status.') throw invalid(e.message)
    throw e
  }
}

const options = (q: {
  sendUpdates?: 'all' | 'externalOnly' | 'none'
  sendNotifications?: boolean
  conferenceDataVersion?: number
}): WriteOptions => ({
  sendUpdates: q.sendUpdates ?? (q.sendNotifications ? 'all' : 'none'),
  conferenceDataVersion: q.conferenceDataVersion ?? 0,
})

const ID_RE = /^[a-v0-9]{5,1024}$/

function render(c: WorldContext, calendarId: string, row: EventRow, tz?: string) {
  const { cal, role } = requireCalendar(c, calendarId, 'freeBusyReader')
  return toEvent(c.var.world.db, row, viewOf(c, cal, role, tz))
}

function requireBody(c: WorldContext): EventBody {
  const b = c.req.valid('json' as never) as EventBody
  if (!isObject(b)) throw invalid('Invalid event body.')
  return b
}

function requireEvent(c: WorldContext, calendarId: string, eventId: string) {
  const found = lookupEvent(c.var.world.db, calendarId, eventId)
  if (!found) throw notFound()
  return found
}

const NO_INVITES = 'Service accounts cannot invite attendees without Domain-Wide Delegation of Authority.'

/**
 * A service account acting with its own token may not invite guests: Google answers 403 forbiddenForServiceAccounts
 * (domain `calendar`) when a write names an attendee the event did not have. Itself, and guests already on the
 * event, are no invitation. Deviation (unverified): `events.import` (which mails nobody) is let through.
 */
function refuseInvites(c: WorldContext, attendees: unknown, had: readonly { email: string }[] = []) {
  if (!isServiceAccount(c.var.user) || !Array.isArray(attendees)) return
  const known = new Set([c.var.user.email, ...had.map((a) => a.email)].map((e) => e.toLowerCase()))
  const invites = attendees.some(
    (a) => isObject(a) && typeof a.email === 'string' && !known.has(a.email.trim().toLowerCase()),
  )
  if (invites)
    throw new GoogleApiError('PERMISSION_DENIED', 'forbiddenForServiceAccounts', NO_INVITES, { domain: 'calendar' })
}

function write(c: WorldContext, merge: boolean) {
  const { calendarId, eventId } = c.req.valid('param' as never) as { calendarId: string; eventId: string }
  const { cal, role } = requireCalendar(c, calendarId, 'writer')
  const body = requireBody(c)
  const current = requireEvent(c, cal.id, eventId)
  requireIfMatch(c, etagOf(current.row.updatedMs, current.row.changeSeq))
  const q = c.req.valid('query' as never) as z.output<typeof WriteQuery>
  const full: EventBody = merge ? { ...bodyOf(current.row), ...body } : { ...body }
  refuseInvites(c, full.attendees, dataOf(current.row).attendees)
  // An update that leaves attendees out keeps them only on a patch; a copy's attendee list is the organizer's.
  const row = c.var.world.tx((db) => checked(() => writeEvent(db, cal, c.var.user, current, full, options(q))))
  // Writing an event changes neither the calendar nor anyone's access to it: the view is the one checked above.
  return c.json(toEvent(c.var.world.db, row, viewOf(c, cal, role)) as never, 200)
}

export const eventsRouter = createGoogleRouter()
  .openapi(importRoute, (c) => {
    const { cal } = requireCalendar(c, c.req.valid('param').calendarId, 'writer')
    const b = requireBody(c)
    if (!b.iCalUID || typeof b.iCalUID !== 'string') throw required('Missing iCalUID.')
    const q = c.req.valid('query')
    const db = c.var.world.db
    const existing = db
      .select()
      .from(events)
      .where(and(eq(events.calendarId, cal.id), eq(events.iCalUID, b.iCalUID)))
      .get()
    const organizer = isObject(b.organizer) ? (b.organizer as { email?: string; displayName?: string }) : undefined
    const iCalUID = b.iCalUID
    const row = c.var.world.tx((tx) =>
      checked(() => {
        const o = { sendUpdates: 'none' as const, conferenceDataVersion: q.conferenceDataVersion ?? 0 }
        // Deviation (unverified): importing an iCalUID already on the calendar replaces that event.
        const id = existing?.id ?? calendarEventId(tx)
        return importEvent(tx, cal, c.var.user, id, b, { ...o, iCalUID, organizer, existing })
      }),
    )
    return c.json(render(c, cal.id, row) as never, 200)
  })
  .openapi(quick, (c) => {
    const { cal } = requireCalendar(c, c.req.valid('param').calendarId, 'writer')
    const q = c.req.valid('query')
    if (!q.text || !q.text.trim()) throw required('Required parameter: text')
    const parsed = quickAdd(q.text, nowMs(c.var.world.db), cal.timeZone)
    const body: EventBody = {
      summary: parsed.summary,
      start: parsed.start,
      end: parsed.end,
      ...(parsed.recurrence ? { recurrence: parsed.recurrence } : {}),
      ...(parsed.location ? { location: parsed.location } : {}),
      ...(parsed.attendees?.length ? { attendees: parsed.attendees.map((email) => ({ email })) } : {}),
    }
    // A repeating quickAdd needs a zone for its times; the calendar's is the one quickAdd read them in.
    if (body.recurrence && body.start?.dateTime)
      Object.assign(body, {
        start: { ...body.start, timeZone: cal.timeZone },
        end: { ...body.end, timeZone: cal.timeZone },
      })
    refuseInvites(c, body.attendees)
    const o = Object.assign(options(q), { minted: true })
    const row = c.var.world.tx((db) => checked(() => createEvent(db, cal, c.var.user, calendarEventId(db), body, o)))
    return c.json(render(c, cal.id, row) as never, 200)
  })
  .openapi(insert, (c) => {
    const { cal, role } = requireCalendar(c, c.req.valid('param').calendarId, 'writer')
    const b = requireBody(c)
    const q = c.req.valid('query')
    const db = c.var.world.db
    if (b.id !== undefined) {
      if (typeof b.id !== 'string' || !ID_RE.test(b.id)) throw invalid('Invalid resource id value.')
      if (findEvent(db, cal.id, b.id))
        throw new GoogleApiError('ALREADY_EXISTS', 'duplicate', 'The requested identifier already exists.')
    }
    refuseInvites(c, b.attendees)
    const o = Object.assign(options(q), { minted: b.id === undefined })
    const id = (tx: typeof db) => (b.id as string | undefined) ?? calendarEventId(tx)
    const { row, parts } = c.var.world.tx((tx) => checked(() => insertEvent(tx, cal, c.var.user, id(tx), b, o)))
    // Adding an event changes neither the calendar's zone nor the caller's role: the view is the one checked above.
    // The row is rendered from the objects its texts were written from (a JSON body's values, as parsing gives them).
    return c.json(toEvent(db, row, viewOf(c, cal, role), parts) as never, 200)
  })
  .openapi(get, (c) => {
    const { calendarId, eventId } = c.req.valid('param')
    const { cal, role } = requireCalendar(c, calendarId, 'freeBusyReader')
    const found = requireEvent(c, cal.id, eventId)
    if (notModified(c, etagOf(found.row.updatedMs, found.row.changeSeq))) return c.body(null, 304) as never
    return c.json(toEvent(c.var.world.db, found.row, viewOf(c, cal, role, c.req.valid('query').timeZone)) as never, 200)
  })
  .openapi(update, (c) => write(c, false))
  .openapi(patch, (c) => write(c, true))
  .openapi(remove, (c) => {
    const { calendarId, eventId } = c.req.valid('param')
    const { cal } = requireCalendar(c, calendarId, 'writer')
    const current = requireEvent(c, cal.id, eventId)
    if (current.row.status === 'cancelled')
      throw new GoogleApiError('GONE', 'deleted', 'Resource has been deleted', {}, 410)
    requireIfMatch(c, etagOf(current.row.updatedMs, current.row.changeSeq))
    c.var.world.tx((db) => deleteEvent(db, cal, current, options(c.req.valid('query'))))
    return c.body(null, 204)
  })
  .openapi(move, (c) => {
    const { calendarId, eventId } = c.req.valid('param')
    const q = c.req.valid('query')
    const { cal } = requireCalendar(c, calendarId, 'writer')
    if (!q.destination) throw required('Required parameter: destination')
    const db = c.var.world.db
    const dest = findCalendar(db, calendarIdOf(c, q.destination))
    if (!dest || roleOf(db, dest, c.var.user) === 'none') throw notFound()
    if (!atLeast(roleOf(db, dest, c.var.user), 'writer'))
      throw invalid('You need to have writer access to the destination calendar.', 'requiredAccessLevel')
    const current = requireEvent(c, cal.id, eventId)
    if (current.virtual || current.row.recurringEventId)
      throw invalid('Cannot change the organizer of an instance.', 'cannotChangeOrganizerOfInstance')
    if (current.row.organizerCalendarId !== cal.id)
      throw invalid('Cannot change the organizer of an event you do not organize.', 'cannotChangeOrganizer')
    if (dest.id === cal.id) return c.json(render(c, cal.id, current.row) as never, 200)
    if (findEvent(db, dest.id, eventId))
      throw new GoogleApiError('ALREADY_EXISTS', 'duplicate', 'The requested identifier already exists.')
    const row = c.var.world.tx((tx) => moveEvent(tx, current.row, dest))
    return c.json(render(c, dest.id, row) as never, 200)
  })
