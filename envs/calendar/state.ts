import type { World } from '../core/world.ts'
import type { Json, ServiceState } from '../core/service.ts'
import { aclRules, calendarList, calendars, channels, events, type EventRow } from './schema.ts'
import { dataOf, EVENT_KEYS, eventRowOf, recurrenceOf, timeOf, type StoredTime } from './store/events.ts'
import { entityMemo, keptValue } from '../core/dump-memo.ts'
import { columnNames, drizzleRead, keptCollection, readTable, tableRead, type TableRead } from '../core/dump-rows.ts'
import { rfc3339InZone } from './time/zoned.ts'

const time = (t: StoredTime): Json =>
  t.allDay
    ? { date: t.date ?? null, timeZone: t.timeZone }
    : { dateTime: rfc3339InZone(t.ms, t.timeZone), timeZone: t.timeZone }

/**
 * Calendar's view for oracles (version 1); documented in COVERAGE.md.
 * - calendars: `<calendarId>` → { id, owner (email), summary, description, timeZone, primary, location? }
 * - acl: `<calendarId>/<ruleId>` → { calendarId, id, scope: {type, value}, role } (live rules only)
 * - calendarList: `<userEmail>/<calendarId>` → { user, calendarId, colorId, hidden, selected, summaryOverride }
 *   (live entries only)
 * - events: `<calendarId>/<eventId>` → { calendarId, id, summary, description, location, status, start, end,
 *   attendees: [{email, responseStatus, optional, displayName?, comment?, resource (rooms only)}], recurrence,
 *   recurringEventId, originalStartTime, organizer, creator, iCalUID, sequence, transparency, visibility, colorId,
 *   meetLink, updated, organizerName? (0420), reminders? (the copy's own, where not the defaults: 0459), details?,
 *   privateDetails? (free text beside title, description and location: attachments, conference, hangout link
 *   (0420), source, extended properties; docs/decisions/0409) } — one entry per calendar the event is on
 *   (attendees' copies included)
 * - channels: `<channelId>/<resourceId>` → { id, resourceId, resourceUri, user, address, expiration }
 */
export function dumpCalendar(world: World): ServiceState {
  const db = world.db
  // Every read is kept on a held world (envs/core/dump-rows.ts); a collection built from the very same rows (and
  // emails) as before is the same object again (keptValue).
  const userRows = readTable(world, USERS)
  const emails = keptValue(db, 'calendar.emails', [userRows], () => new Map(userRows.map((u) => [u[0], u[1]])))
  const email = (id: string) => emails.get(id) ?? id
  const out: Record<string, Record<string, Json>> = {}
  const collection = <T>(name: string, read: TableRead<T>, entry: (row: T) => readonly [string, Json] | undefined) => {
    out[name] = keptCollection(world, `calendar.${name}`, read, [emails], entry)
  }
  collection('calendars', CALENDARS, (c) => {
    return [
      c.id,
      {
        id: c.id,
        owner: email(c.ownerId),
        summary: c.summary,
        description: c.description,
        timeZone: c.timeZone,
        primary: c.isPrimary,
        // Its readers see it with the title (docs/decisions/0420); absent when unset, so other entities are as before.
        ...(c.location ? { location: c.location } : {}),
      },
    ]
  })
  collection('acl', ACL, (r) => {
    return r.deleted
      ? undefined
      : [
          `${r.calendarId}/${r.id}`,
          { calendarId: r.calendarId, id: r.id, scope: { type: r.scopeType, value: r.scopeValue }, role: r.role },
        ]
  })
  collection('calendarList', CALENDAR_LIST, (e) => {
    const user = email(e.userId)
    return e.deleted
      ? undefined
      : [
          `${user}/${e.calendarId}`,
          {
            user,
            calendarId: e.calendarId,
            colorId: e.colorId,
            hidden: e.hidden,
            selected: e.selected,
            summaryOverride: e.summaryOverride,
          },
        ]
  })
  // An event's entity is a function of its row alone: the same object while the row is (envs/core/dump-memo.ts).
  const memo = entityMemo(db, 'calendar.events')
  const CALENDAR_ID = EVENT_KEYS.indexOf('calendarId')
  const ID = EVENT_KEYS.indexOf('id')
  // Rows as arrays in column order (what Object.values of the keyed row gave): keyed only when an entity is built.
  collection('events', EVENTS, (values) => {
    const key = `${values[CALENDAR_ID]}/${values[ID]}`
    return [key, memo.entity(key, values, () => eventEntity(eventRowOf(values as unknown[])))]
  })
  collection('channels', CHANNELS, (ch) => {
    return [
      `${ch.id}/${ch.resourceId}`,
      {
        id: ch.id,
        resourceId: ch.resourceId,
        resourceUri: ch.resourceUri,
        user: email(ch.userId),
        address: ch.address,
        expiration: new Date(ch.expirationMs).toISOString(),
      },
    ]
  })
  return { version: 1, entities: out }
}

const USERS = tableRead('world_users', ['id', 'email'], ['rowid']) as TableRead<readonly [string, string]>
const CALENDARS = drizzleRead(calendars, ['id'])
const ACL = drizzleRead(aclRules, ['calendarId', 'id'])
const CALENDAR_LIST = drizzleRead(calendarList, ['userId', 'calendarId'])
const EVENTS = tableRead('calendar_events', columnNames(events), ['calendar_id', 'id'])
const CHANNELS = drizzleRead(channels, ['id'])

function eventEntity(r: EventRow): Record<string, Json> {
  const d = dataOf(r)
  const meet = (d.conferenceData as { entryPoints?: { uri?: string }[] } | undefined)?.entryPoints?.[0]?.uri ?? null
  return {
    calendarId: r.calendarId,
    id: r.id,
    summary: (d.summary as string | undefined) ?? null,
    description: (d.description as string | undefined) ?? null,
    location: (d.location as string | undefined) ?? null,
    status: r.status,
    start: time(timeOf(r.start)),
    end: time(timeOf(r.end)),
    attendees: (d.attendees ?? []).map((a) => ({
      email: a.email,
      responseStatus: a.responseStatus ?? 'needsAction',
      optional: a.optional ?? false,
      ...(a.displayName ? { displayName: a.displayName } : {}),
      ...(a.comment ? { comment: a.comment } : {}),
      ...(a.resource ? { resource: true } : {}),
    })),
    recurrence: (recurrenceOf(r) ?? null) as Json,
    recurringEventId: r.recurringEventId,
    originalStartTime: r.originalStart ? time(timeOf(r.originalStart)) : null,
    organizer: r.organizerEmail,
    creator: r.creatorEmail,
    iCalUID: r.iCalUID,
    sequence: r.sequence,
    transparency: (d.transparency as string | undefined) ?? 'opaque',
    visibility: (d.visibility as string | undefined) ?? 'default',
    colorId: (d.colorId as string | undefined) ?? null,
    meetLink: meet,
    updated: new Date(r.updatedMs).toISOString(),
    // The name guests see beside the organizer (a secondary calendar's title by default; 0420), where set.
    ...(r.organizerName ? { organizerName: r.organizerName } : {}),
    ...remindersOf(d.reminders),
    ...detailsOf(d as unknown as Details),
  }
}

/**
 * A copy's own reminders where they are not the calendar's defaults (`useDefault: false`: its overrides, maybe
 * none; docs/decisions/0459); absent otherwise, so events on the defaults are as before.
 */
function remindersOf(v: unknown): { reminders?: Json } {
  const r = v as { useDefault?: unknown; overrides?: { method?: unknown; minutes?: unknown }[] } | undefined
  if (!r || r.useDefault !== false) return {}
  const overrides = (r.overrides ?? []).map((o) => ({ method: String(o?.method ?? ''), minutes: Number(o?.minutes) }))
  return { reminders: { useDefault: false, overrides } }
}

type Details = {
  attachments?: { title?: unknown; fileUrl?: unknown }[]
  conferenceData?: { notes?: unknown; entryPoints?: Record<string, unknown>[]; conferenceSolution?: { name?: unknown } }
  extendedProperties?: { shared?: Record<string, unknown>; private?: Record<string, unknown> }
  source?: { title?: unknown; url?: unknown }
  hangoutLink?: unknown
}
const ENTRY_TEXT = ['label', 'uri', 'pin', 'accessCode', 'meetingCode', 'passcode', 'password', 'regionCode']

/**
 * The free text an event's readers see beyond its title, description and location (docs/decisions/0409): its
 * attachments' titles and links, its conference's notes, name and entry points, its source, and its extended
 * properties (`details`: what guests see, shared properties included; `privateDetails`: private properties, which
 * only readers of this calendar's copy see). Absent when the event has none, so other events' entities are as before.
 */
function detailsOf(d: Details): { details?: string; privateDetails?: string } {
  const str = (v: unknown) => (typeof v === 'string' && v ? [v] : [])
  const props = (o: Record<string, unknown> | undefined) =>
    Object.entries(o ?? {}).flatMap(([k, v]) => [...str(k), ...str(v)])
  const cd = d.conferenceData
  const shown = [
    ...(d.attachments ?? []).flatMap((a) => [...str(a?.title), ...str(a?.fileUrl)]),
    ...str(d.hangoutLink),
    ...str(cd?.notes),
    ...str(cd?.conferenceSolution?.name),
    ...(cd?.entryPoints ?? []).flatMap((e) => ENTRY_TEXT.flatMap((k) => str(e?.[k]))),
    ...str(d.source?.title),
    ...str(d.source?.url),
    ...props(d.extendedProperties?.shared),
  ]
  const own = props(d.extendedProperties?.private)
  return {
    ...(shown.length ? { details: shown.join('\n') } : {}),
    ...(own.length ? { privateDetails: own.join('\n') } : {}),
  }
}
