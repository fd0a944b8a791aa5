import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { selectRows } from '../../core/db.ts'
import { decodePageToken, encodePageToken, pageOf } from '../../core/paging.ts'
import { Events } from '../api/schemas.gen.ts'
import { calendarList, type CalendarRow, type EventRow } from '../schema.ts'
import { listRenderer, etagOf, showsDetails } from '../map.ts'
import { currentChange, type Role } from '../store/access.ts'
import {
  changedSince,
  dataOf,
  exceptionsOf,
  findEvent,
  instanceRow,
  occurrences,
  seriesTimes,
} from '../store/events.ts'
import { seriesEvents, singleEvents, singleEventsPage, type Window } from '../store/window.ts'
import { parseRfc3339, rfc3339Utc } from '../time/zoned.ts'
import { bool, CalParams, int, pageSize, invalid, json, notFound, requireCalendar, viewOf } from './common.ts'
import { decodeSync, encodeSync } from './sync.ts'

const base = '/calendar/v3/calendars/{calendarId}/events'
export const ListQuery = z.object({
  alwaysIncludeEmail: bool(),
  eventTypes: z.string().optional(),
  iCalUID: z.string().optional(),
  maxAttendees: int(1),
  maxResults: pageSize(2500),
  orderBy: z.enum(['startTime', 'updated']).optional(),
  pageToken: z.string().optional(),
  privateExtendedProperty: z.string().optional(),
  q: z.string().optional(),
  sharedExtendedProperty: z.string().optional(),
  showDeleted: bool(),
  showHiddenInvitations: bool(),
  singleEvents: bool(),
  syncToken: z.string().optional(),
  timeMax: z.string().optional(),
  timeMin: z.string().optional(),
  timeZone: z.string().optional(),
  updatedMin: z.string().optional(),
})
export const InstancesQuery = z.object({
  alwaysIncludeEmail: bool(),
  maxAttendees: int(1),
  maxResults: pageSize(2500),
  originalStart: z.string().optional(),
  pageToken: z.string().optional(),
  showDeleted: bool(),
  timeMax: z.string().optional(),
  timeMin: z.string().optional(),
  timeZone: z.string().optional(),
})
// Deviation: maxAttendees, alwaysIncludeEmail, eventTypes and showHiddenInvitations are accepted and ignored.
const list = createRoute({
  operationId: 'calendar.events.list',
  method: 'get',
  path: base,
  request: { params: CalParams, query: ListQuery },
  responses: { 200: json(Events) },
})
const instances = createRoute({
  operationId: 'calendar.events.instances',
  method: 'get',
  path: `${base}/{eventId}/instances`,
  request: { params: CalParams.extend({ eventId: z.string() }), query: InstancesQuery },
  responses: { 200: json(Events) },
})

function pageOffset(token: string | undefined): number {
  const o = Number(decodePageToken<{ o: number }>(token)?.o ?? 0)
  if (!Number.isInteger(o) || o < 0) throw invalid('Invalid page token.')
  return o
}

function time(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined
  const ms = parseRfc3339(v)
  if (ms === undefined) throw invalid(`Bad Request`, 'badRequest')
  void name
  return ms
}

/** `key=value` filters on extended properties; every one must match. */
function propertyFilter(c: WorldContext, name: string, kind: 'private' | 'shared') {
  const wanted = (c.req.queries(name) ?? []).map((p) => {
    const at = p.indexOf('=')
    if (at <= 0) throw invalid(`Invalid ${name} value.`)
    return [p.slice(0, at), p.slice(at + 1)] as const
  })
  return (r: EventRow) => {
    if (!wanted.length) return true
    const props = (dataOf(r).extendedProperties as Record<string, Record<string, string>> | undefined)?.[kind] ?? {}
    return wanted.every(([k, v]) => props[k] === v)
  }
}

function textFilter(q: string | undefined) {
  const terms = (q ?? '').toLowerCase().split(/\s+/).filter(Boolean)
  return (r: EventRow) => {
    if (!terms.length) return true
    const d = dataOf(r)
    const hay = [
      d.summary,
      d.description,
      d.location,
      r.organizerEmail,
      r.organizerName,
      ...(d.attendees ?? []).flatMap((a) => [a.email, a.displayName]),
    ]
      .filter((x) => typeof x === 'string')
      .join('\n')
      .toLowerCase()
    return terms.every((t) => hay.includes(t))
  }
}

/** The list envelope every events answer shares; `change`: the change feed's position, read once per answer. */
function envelope(
  c: WorldContext,
  cal: CalendarRow,
  role: Role,
  rows: EventRow[] | number,
  items: unknown[],
  extra: Record<string, unknown>,
  change: number,
) {
  const db = c.var.world.db
  const entry = selectRows(db, calendarList, { userId: c.var.user.id, calendarId: cal.id })[0]
  const updated =
    typeof rows === 'number'
      ? Math.max(rows, cal.updatedMs)
      : rows.reduce((m, r) => Math.max(m, r.updatedMs), cal.updatedMs)
  return {
    kind: 'calendar#events',
    etag: etagOf(updated, change),
    summary: entry?.summaryOverride ?? cal.summary,
    description: cal.description ?? '',
    updated: rfc3339Utc(updated),
    timeZone: cal.timeZone,
    accessRole: role,
    defaultReminders: entry && !entry.deleted ? JSON.parse(entry.defaultReminders) : [],
    ...extra,
    items,
  }
}

export const eventsListRouter = createGoogleRouter()
  .openapi(list, async (c) => {
    const q = c.req.valid('query')
    const { cal, role } = requireCalendar(c, c.req.valid('param').calendarId, 'freeBusyReader')
    const view = viewOf(c, cal, role, q.timeZone)
    const db = c.var.world.db
    const feed = `events:${cal.id}`
    let rows: EventRow[]
    // A sync's page tokens carry its sync token, so a client that sends only the (opaque) pageToken of a later page
    // goes on with that sync instead of getting a full listing's page at that offset (and a token past its changes).
    const carried = decodePageToken<{ s?: unknown }>(q.pageToken)?.s
    const syncToken = q.syncToken ?? (typeof carried === 'string' ? carried : undefined)
    if (syncToken !== undefined) {
      const banned = (
        [
          'iCalUID',
          'orderBy',
          'privateExtendedProperty',
          'q',
          'sharedExtendedProperty',
          'timeMin',
          'timeMax',
          'updatedMin',
        ] as const
      ).find((k) => q[k] !== undefined)
      if (banned) throw invalid(`Sync token cannot be used with ${banned}.`, 'invalid')
      // Deviation: with a sync token, series come back as series even when singleEvents=true.
      rows = changedSince(db, cal.id, decodeSync(syncToken, feed, currentChange(db)))
    } else {
      const w: Window = { min: time(q.timeMin, 'timeMin'), max: time(q.timeMax, 'timeMax') }
      if (w.min !== undefined && w.max !== undefined && w.max <= w.min)
        throw invalid('The specified time range is empty.', 'timeRangeEmpty')
      if (q.orderBy === 'startTime' && !q.singleEvents)
        throw invalid('The requested ordering is not available for the particular query.', 'badRequest')
      const updatedMin = time(q.updatedMin, 'updatedMin')
      const showDeleted = !!q.showDeleted || updatedMin !== undefined
      const priv = propertyFilter(c, 'privateExtendedProperty', 'private')
      const shared = propertyFilter(c, 'sharedExtendedProperty', 'shared')
      const text = textFilter(q.q)
      // Text and property filters match only what the caller reads: an event shown as a busy block matches none.
      const filtered =
        q.q !== undefined ||
        !!c.req.queries('privateExtendedProperty')?.length ||
        !!c.req.queries('sharedExtendedProperty')?.length
      const keep = (r: EventRow) =>
        (q.iCalUID === undefined || r.iCalUID === q.iCalUID) &&
        (updatedMin === undefined || r.updatedMs >= updatedMin) &&
        priv(r) &&
        shared(r) &&
        text(r) &&
        (!filtered || showsDetails(view, r, dataOf(r)))
      if (q.singleEvents && q.orderBy !== 'updated') {
        // Start-time order: page through a lazy merge of the series instead of expanding them all.
        const size = q.maxResults ?? 250
        const offset = pageOffset(q.pageToken)
        const { page, more, updatedMs, seriesOf } = await singleEventsPage(
          db,
          cal.id,
          w,
          showDeleted,
          keep,
          offset,
          size,
        )
        const change = currentChange(db)
        const extra = more
          ? { nextPageToken: encodePageToken({ o: offset + size }) }
          : { nextSyncToken: encodeSync(feed, change) }
        // Items render (or are copied from kept texts) when the answer is serialised.
        const render = listRenderer(db, view)
        const items = page.map((r) => render(r, seriesOf.get(r)))
        return c.json(envelope(c, cal, role, updatedMs, items, extra, change) as never, 200)
      }
      rows = (
        q.singleEvents ? singleEvents(db, cal.id, w, showDeleted) : seriesEvents(db, cal.id, w, showDeleted)
      ).filter(keep)
      // Deviation: without orderBy the order is by start time, then id (the real order is unspecified).
      if (q.orderBy === 'updated') rows.sort((a, b) => a.updatedMs - b.updatedMs || (a.id < b.id ? -1 : 1))
    }
    const { page, nextPageToken: next } = pageOf(rows, q.maxResults ?? 250, q.pageToken)
    const nextPageToken =
      next && syncToken !== undefined ? encodePageToken({ ...decodePageToken(next), s: syncToken }) : next
    const change = currentChange(db)
    const extra = nextPageToken ? { nextPageToken } : { nextSyncToken: encodeSync(feed, change) }
    const render = listRenderer(db, view)
    return c.json(
      envelope(
        c,
        cal,
        role,
        rows,
        page.map((r) => render(r)),
        extra,
        change,
      ) as never,
      200,
    )
  })
  .openapi(instances, async (c) => {
    const q = c.req.valid('query')
    const { calendarId, eventId } = c.req.valid('param')
    const { cal, role } = requireCalendar(c, calendarId, 'freeBusyReader')
    const view = viewOf(c, cal, role, q.timeZone)
    const db = c.var.world.db
    const master = findEvent(db, cal.id, eventId)
    if (!master || (master.status === 'cancelled' && !q.showDeleted)) throw notFound()
    const w: Window = { min: time(q.timeMin, 'timeMin'), max: time(q.timeMax, 'timeMax') }
    let rows: EventRow[]
    // Virtual instances: rendered as copies of the series' first one (map.ts instanceRenderer), as listings do.
    const virtual = new Set<EventRow>()
    if (!master.recurrence) rows = [master]
    else {
      const stored = new Map(exceptionsOf(db, cal.id, master.id).map((r) => [r.id, r]))
      const times = seriesTimes(master)
      rows = occurrences(master, w.min, w.max).map((o) => {
        const inst = instanceRow(master, o, times)
        const found = stored.get(inst.id)
        if (found) return found
        virtual.add(inst)
        return inst
      })
      // Exceptions moved into the window from elsewhere are instances too.
      const ids = new Set(rows.map((r) => r.id))
      for (const ex of stored.values()) {
        if (!ids.has(ex.id) && (w.max === undefined || ex.startMs < w.max) && (w.min === undefined || ex.endMs > w.min))
          rows.push(ex)
      }
      rows = rows
        .filter((r) => r.status !== 'cancelled' || q.showDeleted)
        .sort((a, b) => a.startMs - b.startMs || (a.id < b.id ? -1 : 1))
    }
    if (q.originalStart !== undefined) {
      const at = parseRfc3339(q.originalStart)
      if (at === undefined) throw invalid('Bad Request', 'badRequest')
      rows = rows.filter((r) => r.originalStart && JSON.parse(r.originalStart).ms === at)
    }
    const { page, nextPageToken } = pageOf(rows, q.maxResults ?? 250, q.pageToken)
    const render = listRenderer(db, view)
    // A cancelled instance (of a cancelled series, with showDeleted) renders as cancelled, never as a copy.
    const items = page.map((r) => render(r, virtual.has(r) && r.status !== 'cancelled' ? master : undefined))
    const change = currentChange(db)
    return c.json(
      envelope(
        c,
        cal,
        role,
        rows,
        items,
        nextPageToken ? { nextPageToken } : { nextSyncToken: encodeSync(`events:${cal.id}`, change) },
        change,
      ) as never,
      200,
    )
  })
