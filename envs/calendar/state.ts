import type { World } from '../core/world.ts'
import type { Json, ServiceState } from '../core/service.ts'
import { aclRules, calendarList, calendars, channels, type EventRow } from './schema.ts'
import { dataOf, EVENT_COLUMNS, EVENT_KEYS, eventRowOf, recurrenceOf, timeOf, type StoredTime } from './store/events.ts'
import { selectRows, stmt } from '../core/db.ts'
import { entityMemo } from '../core/dump-memo.ts'
import { rfc3339InZone } from './time/zoned.ts'

const time = (t: StoredTime): Json => (t.allDay ? { date: t.date ?? null, timeZone: t.timeZone } : { dateTime: rfc3339InZone(t.ms, t.timeZone), timeZone: t.timeZone })

/**
 * Calendar's view for oracles (version 1); documented in COVERAGE.md.
 * - calendars: `<calendarId>` → { id, owner (email), summary, description, timeZone, primary }
 * - acl: `<calendarId>/<ruleId>` → { calendarId, id, scope: {type, value}, role } (live rules only)
 * - calendarList: `<userEmail>/<calendarId>` → { user, calendarId, colorId, hidden, selected, summaryOverride } (live entries only)
 * - events: `<calendarId>/<eventId>` → { calendarId, id, summary, description, location, status, start, end, attendees: [{email,
 *   responseStatus, optional, resource (rooms only)}], recurrence, recurringEventId, originalStartTime, organizer,
 *   creator, iCalUID, sequence, transparency,
 *   visibility, colorId, meetLink, updated } — one entry per calendar the event is on (attendees' copies included)
 * - channels: `<channelId>/<resourceId>` → { id, resourceId, resourceUri, user, address, expiration }
 */
export function dumpCalendar(world: World): ServiceState {
  const db = world.db
  const users = stmt(db, 'SELECT id, email FROM world_users').all() as { id: string; email: string }[]
  const emails = new Map(users.map((u) => [u.id, u.email]))
  const out: Record<string, Record<string, Record<string, Json>>> = { calendars: {}, acl: {}, calendarList: {}, events: {}, channels: {} }
  for (const c of selectRows(db, calendars, {}, { orderBy: ['id'] })) {
    out.calendars![c.id] = { id: c.id, owner: emails.get(c.ownerId) ?? c.ownerId, summary: c.summary, description: c.description, timeZone: c.timeZone, primary: c.isPrimary }
  }
  for (const r of selectRows(db, aclRules, {}, { orderBy: ['calendarId', 'id'] })) {
    if (!r.deleted) out.acl![`${r.calendarId}/${r.id}`] = { calendarId: r.calendarId, id: r.id, scope: { type: r.scopeType, value: r.scopeValue }, role: r.role }
  }
  for (const e of selectRows(db, calendarList, {}, { orderBy: ['userId', 'calendarId'] })) {
    const user = emails.get(e.userId) ?? e.userId
    if (!e.deleted) out.calendarList![`${user}/${e.calendarId}`] = { user, calendarId: e.calendarId, colorId: e.colorId, hidden: e.hidden, selected: e.selected, summaryOverride: e.summaryOverride }
  }
  // An event's entity is a function of its row alone: the same object while the row is (envs/core/dump-memo.ts).
  const memo = entityMemo(db, 'calendar.events')
  const CALENDAR_ID = EVENT_KEYS.indexOf('calendarId')
  const ID = EVENT_KEYS.indexOf('id')
  // Rows as arrays in column order (what Object.values of the keyed row gave): keyed only when an entity is built.
  for (const values of stmt(db, `SELECT ${EVENT_COLUMNS} FROM calendar_events ORDER BY calendar_id, id`).raw().all() as unknown[][]) {
    const key = `${values[CALENDAR_ID]}/${values[ID]}`
    out.events![key] = memo.entity(key, values, () => eventEntity(eventRowOf(values))) as Record<string, Json>
  }
  for (const ch of selectRows(db, channels, {}, { orderBy: ['id'] })) {
    out.channels![`${ch.id}/${ch.resourceId}`] = { id: ch.id, resourceId: ch.resourceId, resourceUri: ch.resourceUri, user: emails.get(ch.userId) ?? ch.userId, address: ch.address, expiration: new Date(ch.expirationMs).toISOString() }
  }
  return { version: 1, entities: out as Record<string, Record<string, Json>> }
}

function eventEntity(r: EventRow): Record<string, Json> {
  const d = dataOf(r)
  const meet = (d.conferenceData as { entryPoints?: { uri?: string }[] } | undefined)?.entryPoints?.[0]?.uri ?? null
  return {
    calendarId: r.calendarId, id: r.id, summary: (d.summary as string | undefined) ?? null, description: (d.description as string | undefined) ?? null, location: (d.location as string | undefined) ?? null,
    status: r.status, start: time(timeOf(r.start)), end: time(timeOf(r.end)),
    attendees: (d.attendees ?? []).map((a) => ({
      email: a.email, responseStatus: a.responseStatus ?? 'needsAction', optional: a.optional ?? false,
      ...(a.comment ? { comment: a.comment } : {}), ...(a.resource ? { resource: true } : {}),
    })),
    recurrence: (recurrenceOf(r) ?? null) as Json, recurringEventId: r.recurringEventId, originalStartTime: r.originalStart ? time(timeOf(r.originalStart)) : null,
    organizer: r.organizerEmail, creator: r.creatorEmail, iCalUID: r.iCalUID, sequence: r.sequence, transparency: (d.transparency as string | undefined) ?? 'opaque',
    visibility: (d.visibility as string | undefined) ?? 'default', colorId: (d.colorId as string | undefined) ?? null, meetLink: meet, updated: new Date(r.updatedMs).toISOString(),
  }
}
