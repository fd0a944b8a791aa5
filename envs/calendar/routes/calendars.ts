import { createRoute, z } from '@hono/zod-openapi'
import { and, eq } from 'drizzle-orm'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { nowMs } from '../../core/clock.ts'
import { findUserByAddress } from '../../core/users.ts'
import { Calendar } from '../api/schemas.gen.ts'
import { aclRules, calendarList, calendars, events } from '../schema.ts'
import { toCalendar } from '../map.ts'
import { createCalendar, nextChange, putRule, subscribe } from '../store/access.ts'
import { isValidZone } from '../time/zoned.ts'
import { calendarEvents, saveEvent } from '../store/events.ts'
import { CalParams, forbidden, invalid, json, jsonBody, noContent, required, requireCalendar } from './common.ts'
import type { Db } from '../../core/db.ts'

type Body = { summary?: string; description?: string; location?: string; timeZone?: string }
const base = '/calendar/v3/calendars'

const get = createRoute({
  operationId: 'calendar.calendars.get',
  method: 'get',
  path: `${base}/{calendarId}`,
  request: { params: CalParams },
  responses: { 200: json(Calendar) },
})
const insert = createRoute({
  operationId: 'calendar.calendars.insert',
  method: 'post',
  path: base,
  request: { body: jsonBody(Calendar) },
  responses: { 200: json(Calendar) },
})
const update = createRoute({
  operationId: 'calendar.calendars.update',
  method: 'put',
  path: `${base}/{calendarId}`,
  request: { params: CalParams, body: jsonBody(Calendar) },
  responses: { 200: json(Calendar) },
})
const patch = createRoute({
  operationId: 'calendar.calendars.patch',
  method: 'patch',
  path: `${base}/{calendarId}`,
  request: { params: CalParams, body: jsonBody(Calendar) },
  responses: { 200: json(Calendar) },
})
const remove = createRoute({
  operationId: 'calendar.calendars.delete',
  method: 'delete',
  path: `${base}/{calendarId}`,
  request: { params: CalParams },
  responses: noContent,
})
const clear = createRoute({
  operationId: 'calendar.calendars.clear',
  method: 'post',
  path: `${base}/{calendarId}/clear`,
  request: { params: CalParams },
  responses: noContent,
})
const transfer = createRoute({
  operationId: 'calendar.calendars.transferOwnership',
  method: 'post',
  path: `${base}/{calendarId}/transferOwnership`,
  request: { params: CalParams, query: z.object({ newOwnerEmail: z.string().optional() }) },
  responses: { 200: json(Calendar) },
})

function checkZone(tz: string | undefined) {
  if (tz !== undefined && !isValidZone(tz)) throw invalid('Invalid time zone definition.', 'invalid')
}

function write(c: WorldContext, id: string, b: Body, replace: boolean) {
  const { cal } = requireCalendar(c, id, 'owner')
  checkZone(b.timeZone)
  if (replace && !b.summary) throw required('Missing summary.')
  if (b.summary !== undefined && b.summary.trim() === '' && !cal.isPrimary) throw required('Missing summary.')
  return c.var.world.tx((db) => {
    const set = replace
      ? {
          summary: b.summary ?? cal.summary,
          description: b.description ?? null,
          location: b.location ?? null,
          timeZone: b.timeZone ?? cal.timeZone,
        }
      : {
          ...(b.summary !== undefined ? { summary: b.summary } : {}),
          ...(b.description !== undefined ? { description: b.description } : {}),
          ...(b.location !== undefined ? { location: b.location } : {}),
          ...(b.timeZone !== undefined ? { timeZone: b.timeZone } : {}),
        }
    db.update(calendars)
      .set({ ...set, updatedMs: nowMs(db) })
      .where(eq(calendars.id, cal.id))
      .run()
    return toCalendar(db, db.select().from(calendars).where(eq(calendars.id, cal.id)).get()!)
  })
}

/** Cancels every event of a calendar (its own rows; attendees' copies of them too). */
function cancelAll(db: Db, calendarId: string) {
  for (const r of calendarEvents(db, calendarId)) {
    if (r.status === 'cancelled') continue
    saveEvent(db, { ...r, status: 'cancelled', sequence: r.sequence + 1 })
    if (r.organizerCalendarId === calendarId) {
      for (const copy of db
        .select()
        .from(events)
        .where(and(eq(events.organizerCalendarId, calendarId), eq(events.id, r.id)))
        .all()) {
        if (copy.calendarId !== calendarId && copy.status !== 'cancelled')
          saveEvent(db, { ...copy, status: 'cancelled' })
      }
    }
  }
}

export const calendarsRouter = createGoogleRouter()
  .openapi(get, (c) =>
    c.json(toCalendar(c.var.world.db, requireCalendar(c, c.req.valid('param').calendarId).cal) as never, 200),
  )
  .openapi(insert, (c) => {
    const b = c.req.valid('json') as Body
    if (!b.summary || typeof b.summary !== 'string') throw required('Missing summary.')
    checkZone(b.timeZone)
    const cal = c.var.world.tx((db) => {
      const made = createCalendar(db, c.var.user, {
        summary: b.summary!,
        description: b.description,
        location: b.location,
        timeZone: b.timeZone ?? 'UTC',
      })
      // The row as stored: a lone surrogate in a text reads back as replacement characters.
      return db.select().from(calendars).where(eq(calendars.id, made.id)).get()!
    })
    return c.json(toCalendar(c.var.world.db, cal) as never, 200)
  })
  .openapi(update, (c) =>
    c.json(write(c, c.req.valid('param').calendarId, c.req.valid('json') as Body, true) as never, 200),
  )
  .openapi(patch, (c) =>
    c.json(write(c, c.req.valid('param').calendarId, c.req.valid('json') as Body, false) as never, 200),
  )
  .openapi(remove, (c) => {
    const { cal } = requireCalendar(c, c.req.valid('param').calendarId, 'owner')
    // The primary calendar cannot be deleted (calendars.clear empties it instead).
    if (cal.isPrimary) throw invalid('Cannot delete primary calendar.', 'cannotDeletePrimaryCalendar')
    c.var.world.tx((db) => {
      cancelAll(db, cal.id)
      db.delete(calendars).where(eq(calendars.id, cal.id)).run()
      db.update(aclRules)
        .set({ deleted: true, changeSeq: nextChange(db) })
        .where(eq(aclRules.calendarId, cal.id))
        .run()
      db.update(calendarList)
        .set({ deleted: true, changeSeq: nextChange(db) })
        .where(eq(calendarList.calendarId, cal.id))
        .run()
    })
    return c.body(null, 204)
  })
  .openapi(clear, (c) => {
    const { cal } = requireCalendar(c, c.req.valid('param').calendarId, 'owner')
    // Deviation (unverified): clear is documented for primary calendars; we clear any calendar the caller owns.
    c.var.world.tx((db) => cancelAll(db, cal.id))
    return c.body(null, 204)
  })
  .openapi(transfer, (c) => {
    const { cal } = requireCalendar(c, c.req.valid('param').calendarId, 'owner')
    const email = c.req.valid('query').newOwnerEmail
    if (!email) throw required('Required parameter: newOwnerEmail')
    if (cal.isPrimary) throw forbidden('The ownership of a primary calendar cannot be transferred.')
    // A user's Directory alias names the user.
    const to = findUserByAddress(c.var.world.db, email)
    // Deviation: ownership moves only to users of this world (the real API requires the same organisation).
    if (!to) throw invalid('Ownership can only be transferred to a user in the same organization.', 'invalid')
    const out = c.var.world.tx((db) => {
      const old = c.var.user
      db.update(calendars)
        .set({ ownerId: to.id, updatedMs: nowMs(db) })
        .where(eq(calendars.id, cal.id))
        .run()
      putRule(db, cal.id, 'user', to.email.toLowerCase(), 'owner')
      putRule(db, cal.id, 'user', old.email.toLowerCase(), 'writer')
      subscribe(db, to.id, cal.id)
      return toCalendar(db, db.select().from(calendars).where(eq(calendars.id, cal.id)).get()!)
    })
    return c.json(out as never, 200)
  })
