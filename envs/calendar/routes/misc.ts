import { createRoute, z } from '@hono/zod-openapi'
import { and, eq } from 'drizzle-orm'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { nowMs } from '../../core/clock.ts'
import { urlSafeId } from '../../core/ids.ts'
import { pageOf } from '../../core/paging.ts'
import { Channel, Colors, FreeBusyRequest, FreeBusyResponse, Setting } from '../api/schemas.gen.ts'
import { channels } from '../schema.ts'
import { COLORS } from '../colors.ts'
import { findCalendar } from '../store/access.ts'
import { freeBusyMaps } from '../store/freebusy.ts'
import { parseRfc3339, rfc3339Utc, isValidZone } from '../time/zoned.ts'
import {
  CalParams,
  pageSize,
  invalid,
  json,
  jsonBody,
  noContent,
  notFound,
  required,
  isObject,
  requireCalendar,
} from './common.ts'

const WEEK = 7 * 86_400_000
/**
 * The longest `freebusy.query` window. Google refuses longer ones with 400 `timeRangeTooLong` ("The requested time
 * range is too long."), a limit it does not document: clients report 90-day windows answered and three calendar
 * months (92 days) refused. Deviation (unverified): exactly 90 days here.
 */
export const FREEBUSY_MAX_RANGE_MS = 90 * 86_400_000
type ChannelBody = {
  id?: string
  type?: string
  address?: string
  token?: string
  expiration?: string
  params?: Record<string, string>
}

/**
 * Stores a push channel for a resource and answers it as the API does.
 * Deviation: channels are recorded state only; no notification is ever POSTed to `address` (worlds reach no network).
 */
function watch(c: WorldContext, resourceUri: string) {
  const b = c.req.valid('json' as never) as ChannelBody
  if (!isObject(b) || !b.id) throw required('Missing channel id.')
  if (b.type !== 'web_hook' && b.type !== 'webhook') throw invalid(`Unknown channel type: ${b.type ?? ''}`, 'invalid')
  if (!b.address || !/^https:\/\//.test(b.address))
    throw invalid('WebHook callback must be HTTPS: ' + (b.address ?? ''), 'push.webhookUrlNotHttps')
  const db = c.var.world.db
  const requested = b.expiration !== undefined ? Number(b.expiration) : NaN
  const out = c.var.world.tx((tx) => {
    const expirationMs =
      Number.isFinite(requested) && requested > nowMs(tx) ? Math.min(requested, nowMs(tx) + 4 * WEEK) : nowMs(tx) + WEEK
    const row = {
      id: b.id!,
      resourceId: urlSafeId(tx, 'calendar.channel', 27),
      resourceUri,
      userId: c.var.user.id,
      type: 'web_hook',
      address: b.address!,
      token: b.token ?? null,
      expirationMs,
    }
    tx.insert(channels).values(row).run()
    return row
  })
  void db
  return {
    kind: 'api#channel',
    id: out.id,
    resourceId: out.resourceId,
    resourceUri: out.resourceUri,
    ...(out.token ? { token: out.token } : {}),
    expiration: String(out.expirationMs),
  }
}

const uri = (path: string) => `https://www.googleapis.com/calendar/v3${path}?alt=json`
const enc = (id: string) => encodeURIComponent(id).replace(/\./g, '%2E')

const eventsWatch = createRoute({
  operationId: 'calendar.events.watch',
  method: 'post',
  path: '/calendar/v3/calendars/{calendarId}/events/watch',
  request: { params: CalParams, body: jsonBody(Channel) },
  responses: { 200: json(Channel) },
})
const aclWatch = createRoute({
  operationId: 'calendar.acl.watch',
  method: 'post',
  path: '/calendar/v3/calendars/{calendarId}/acl/watch',
  request: { params: CalParams, body: jsonBody(Channel) },
  responses: { 200: json(Channel) },
})
const listWatch = createRoute({
  operationId: 'calendar.calendarList.watch',
  method: 'post',
  path: '/calendar/v3/users/me/calendarList/watch',
  request: { body: jsonBody(Channel) },
  responses: { 200: json(Channel) },
})
const settingsWatch = createRoute({
  operationId: 'calendar.settings.watch',
  method: 'post',
  path: '/calendar/v3/users/me/settings/watch',
  request: { body: jsonBody(Channel) },
  responses: { 200: json(Channel) },
})
const stop = createRoute({
  operationId: 'calendar.channels.stop',
  method: 'post',
  path: '/calendar/v3/channels/stop',
  request: { body: jsonBody(Channel) },
  responses: noContent,
})
const colors = createRoute({
  operationId: 'calendar.colors.get',
  method: 'get',
  path: '/calendar/v3/colors',
  responses: { 200: json(Colors) },
})
const settingsList = createRoute({
  operationId: 'calendar.settings.list',
  method: 'get',
  path: '/calendar/v3/users/me/settings',
  request: {
    query: z.object({ maxResults: pageSize(250), pageToken: z.string().optional(), syncToken: z.string().optional() }),
  },
  responses: { 200: json(z.object({ kind: z.string(), items: z.array(Setting) })) },
})
const settingsGet = createRoute({
  operationId: 'calendar.settings.get',
  method: 'get',
  path: '/calendar/v3/users/me/settings/{setting}',
  request: { params: z.object({ setting: z.string() }) },
  responses: { 200: json(Setting) },
})
const freebusy = createRoute({
  operationId: 'calendar.freebusy.query',
  method: 'post',
  path: '/calendar/v3/freeBusy',
  request: { body: jsonBody(FreeBusyRequest) },
  responses: { 200: json(FreeBusyResponse) },
})

/** The user's settings; `timezone` follows the world user's zone (the primary calendar's, once changed there). */
function settingsOf(c: WorldContext) {
  const primary = findCalendar(c.var.world.db, c.var.user.email)
  const values: [string, string][] = [
    ['autoAddHangouts', 'true'],
    ['dateFieldOrder', 'MDY'],
    ['defaultEventLength', '60'],
    ['format24HourTime', 'false'],
    ['hideInvitations', 'false'],
    ['hideWeekends', 'false'],
    ['locale', 'en'],
    ['remindOnRespondedEventsOnly', 'false'],
    ['showDeclinedEvents', 'true'],
    ['timezone', primary?.timeZone ?? c.var.user.timeZone],
    ['useKeyboardShortcuts', 'true'],
    ['weekStart', '0'],
  ]
  return values.map(([id, value]) => ({
    kind: 'calendar#setting',
    etag: `"${(primary?.updatedMs ?? 0) * 1000}"`,
    id,
    value,
  }))
}

export const miscRouter = createGoogleRouter()
  .openapi(eventsWatch, (c) => {
    const { cal } = requireCalendar(c, c.req.valid('param').calendarId, 'freeBusyReader')
    return c.json(watch(c, uri(`/calendars/${enc(cal.id)}/events`)) as never, 200)
  })
  .openapi(aclWatch, (c) => {
    const { cal } = requireCalendar(c, c.req.valid('param').calendarId, 'owner')
    return c.json(watch(c, uri(`/calendars/${enc(cal.id)}/acl`)) as never, 200)
  })
  .openapi(listWatch, (c) => c.json(watch(c, uri('/users/me/calendarList')) as never, 200))
  .openapi(settingsWatch, (c) => c.json(watch(c, uri('/users/me/settings')) as never, 200))
  .openapi(stop, (c) => {
    const b = c.req.valid('json') as ChannelBody & { resourceId?: string }
    if (!b.id || !b.resourceId) throw required('Missing channel id or resourceId.')
    const db = c.var.world.db
    const row = db
      .select()
      .from(channels)
      .where(and(eq(channels.id, b.id), eq(channels.resourceId, b.resourceId)))
      .get()
    if (!row || row.userId !== c.var.user.id)
      throw notFound(`Channel '${b.id}' not found for project '${b.resourceId}'`)
    c.var.world.tx((tx) =>
      tx
        .delete(channels)
        .where(and(eq(channels.id, b.id!), eq(channels.resourceId, b.resourceId!)))
        .run(),
    )
    return c.body(null, 204)
  })
  .openapi(colors, (c) => c.json(COLORS as never, 200))
  .openapi(settingsList, (c) => {
    const q = c.req.valid('query')
    const { page, nextPageToken } = pageOf(settingsOf(c), q.maxResults ?? 100, q.pageToken)
    // Deviation: settings are read-only defaults (only `timezone` varies); list sync tokens are not incremental.
    return c.json(
      {
        kind: 'calendar#settings',
        etag: '"p33npf17ron0960o"',
        ...(nextPageToken ? { nextPageToken } : { nextSyncToken: '00001' }),
        items: page,
      } as never,
      200,
    )
  })
  .openapi(settingsGet, (c) => {
    const s = settingsOf(c).find((x) => x.id === c.req.valid('param').setting)
    if (!s) throw notFound()
    return c.json(s as never, 200)
  })
  .openapi(freebusy, (c) => {
    const b = c.req.valid('json') as {
      timeMin?: string
      timeMax?: string
      timeZone?: string
      items?: { id?: string }[]
      calendarExpansionMax?: number
      groupExpansionMax?: number
    }
    if (!b.timeMin) throw required('Missing timeMin parameter.')
    if (!b.timeMax) throw required('Missing timeMax parameter.')
    const min = parseRfc3339(b.timeMin)
    const max = parseRfc3339(b.timeMax)
    if (min === undefined || max === undefined) throw invalid('Bad Request', 'badRequest')
    if (max < min) throw invalid('The specified time range is empty.', 'timeRangeEmpty')
    // Also what bounds the work: a 130-year window expanded every series of 50 calendars (decision 0392).
    if (max - min > FREEBUSY_MAX_RANGE_MS) throw invalid('The requested time range is too long.', 'timeRangeTooLong')
    if (b.timeZone !== undefined && !isValidZone(b.timeZone)) throw invalid('Invalid time zone definition.', 'invalid')
    const items = Array.isArray(b.items) ? b.items : []
    const ids = items.map((item) => String(item?.id ?? ''))
    const { calendars, groups } = freeBusyMaps(c.var.world.db, c.var.user, ids, min, max, b)
    const head = { kind: 'calendar#freeBusy', timeMin: rfc3339Utc(min), timeMax: rfc3339Utc(max) }
    return c.json({ ...head, ...(groups ? { groups } : {}), calendars } as never, 200)
  })
