import { createRoute, z } from '@hono/zod-openapi'
import { and, eq } from 'drizzle-orm'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { pageOf } from '../../core/paging.ts'
import { selectRows } from '../../core/db.ts'
import { CalendarListEntry } from '../api/schemas.gen.ts'
import { calendarList, type ListRow } from '../schema.ts'
import { toListEntry } from '../map.ts'
import { atLeast, currentChange, findCalendar, nextChange, roleOf, subscribe, type Role } from '../store/access.ts'
import { COLORS } from '../colors.ts'
import {
  bool,
  CalParams,
  pageSize,
  invalid,
  json,
  jsonBody,
  noContent,
  notFound,
  required,
  calendarIdOf,
} from './common.ts'
import { decodeSync, encodeSync } from './sync.ts'

type Body = {
  id?: string
  colorId?: string
  backgroundColor?: string
  foregroundColor?: string
  hidden?: boolean
  selected?: boolean
  summaryOverride?: string
  defaultReminders?: unknown[]
  notificationSettings?: { notifications?: unknown[] }
}
const base = '/calendar/v3/users/me/calendarList'
const ROLES = ['freeBusyReader', 'reader', 'writer', 'owner'] as const

const ListQuery = z.object({
  maxResults: pageSize(250),
  minAccessRole: z.enum(ROLES).optional(),
  pageToken: z.string().optional(),
  showDeleted: bool(),
  showHidden: bool(),
  syncToken: z.string().optional(),
})
const WriteQuery = z.object({ colorRgbFormat: bool() })
const list = createRoute({
  operationId: 'calendar.calendarList.list',
  method: 'get',
  path: base,
  request: { query: ListQuery },
  responses: { 200: json(z.object({ kind: z.string(), items: z.array(CalendarListEntry) })) },
})
const get = createRoute({
  operationId: 'calendar.calendarList.get',
  method: 'get',
  path: `${base}/{calendarId}`,
  request: { params: CalParams },
  responses: { 200: json(CalendarListEntry) },
})
const insert = createRoute({
  operationId: 'calendar.calendarList.insert',
  method: 'post',
  path: base,
  request: { query: WriteQuery, body: jsonBody(CalendarListEntry) },
  responses: { 200: json(CalendarListEntry) },
})
const update = createRoute({
  operationId: 'calendar.calendarList.update',
  method: 'put',
  path: `${base}/{calendarId}`,
  request: { params: CalParams, query: WriteQuery, body: jsonBody(CalendarListEntry) },
  responses: { 200: json(CalendarListEntry) },
})
const patch = createRoute({
  operationId: 'calendar.calendarList.patch',
  method: 'patch',
  path: `${base}/{calendarId}`,
  request: { params: CalParams, query: WriteQuery, body: jsonBody(CalendarListEntry) },
  responses: { 200: json(CalendarListEntry) },
})
const remove = createRoute({
  operationId: 'calendar.calendarList.delete',
  method: 'delete',
  path: `${base}/{calendarId}`,
  request: { params: CalParams },
  responses: noContent,
})

const entryOf = (c: WorldContext, calendarId: string) =>
  c.var.world.db
    .select()
    .from(calendarList)
    .where(and(eq(calendarList.userId, c.var.user.id), eq(calendarList.calendarId, calendarId)))
    .get()

function render(c: WorldContext, e: ListRow) {
  const db = c.var.world.db
  const cal = findCalendar(db, e.calendarId)
  if (!cal) return undefined
  const role = roleOf(db, cal, c.var.user)
  return role === 'none' ? undefined : toListEntry(db, cal, e, role)
}

function requireEntry(c: WorldContext, rawId: string) {
  const e = entryOf(c, calendarIdOf(c, rawId))
  const out = e && !e.deleted ? render(c, e) : undefined
  if (!e || !out) throw notFound()
  return e
}

/** Applies a body to an entry; `replace` resets what the body leaves out (update), else only given keys (patch). */
function apply(c: WorldContext, e: ListRow, b: Body, replace: boolean, rgb: boolean | undefined) {
  const set: Partial<ListRow> = {}
  if (b.colorId !== undefined) {
    const color = COLORS.calendar[b.colorId as keyof typeof COLORS.calendar]
    if (!color) throw invalid('Invalid color id.', 'invalid')
    Object.assign(set, { colorId: b.colorId, backgroundColor: color.background, foregroundColor: '#000000' })
  }
  if (b.backgroundColor !== undefined || b.foregroundColor !== undefined) {
    if (!rgb) throw invalid('The colorRgbFormat parameter must be true to set RGB colors.', 'invalid')
    const hex = /^#[0-9a-fA-F]{6}$/
    if ((b.backgroundColor && !hex.test(b.backgroundColor)) || (b.foregroundColor && !hex.test(b.foregroundColor)))
      throw invalid('Invalid color.', 'invalid')
    // Deviation: a custom RGB colour keeps the previous colorId (the real API picks the nearest palette id).
    if (b.backgroundColor) set.backgroundColor = b.backgroundColor.toLowerCase()
    if (b.foregroundColor) set.foregroundColor = b.foregroundColor.toLowerCase()
  }
  if (b.hidden !== undefined || replace) set.hidden = b.hidden ?? false
  if (b.selected !== undefined || replace) set.selected = b.selected ?? (set.hidden ? false : true)
  if (b.summaryOverride !== undefined || replace) set.summaryOverride = b.summaryOverride ?? null
  if (b.defaultReminders !== undefined || replace)
    set.defaultReminders = JSON.stringify(checkReminders(b.defaultReminders ?? []))
  if (b.notificationSettings !== undefined || replace)
    set.notifications = JSON.stringify(b.notificationSettings?.notifications ?? [])
  return c.var.world.tx((db) => {
    db.update(calendarList)
      .set({ ...set, changeSeq: nextChange(db) })
      .where(and(eq(calendarList.userId, e.userId), eq(calendarList.calendarId, e.calendarId)))
      .run()
    return render(c, entryOf(c, e.calendarId)!)
  })
}

export function checkReminders(list: unknown[]): unknown[] {
  for (const r of list as { method?: string; minutes?: number }[]) {
    if (!r || !['email', 'popup'].includes(r.method ?? '')) throw invalid('Invalid reminder method.', 'invalid')
    if (typeof r.minutes !== 'number' || r.minutes < 0 || r.minutes > 40320)
      throw invalid('Invalid reminder minutes.', 'invalid')
  }
  return list
}

export const calendarListRouter = createGoogleRouter()
  .openapi(list, (c) => {
    const q = c.req.valid('query')
    const db = c.var.world.db
    if (q.syncToken && q.minAccessRole) throw invalid('Sync token cannot be used with minAccessRole.', 'invalid')
    const since = q.syncToken ? decodeSync(q.syncToken, `list:${c.var.user.id}`, currentChange(db)) : undefined
    const rows = selectRows(db, calendarList, { userId: c.var.user.id }, { orderBy: ['changeSeq'] })
    const items = rows
      .filter((e) => (since === undefined ? true : e.changeSeq > since))
      .flatMap((e): unknown[] => {
        const out = render(c, e)
        const gone = e.deleted || !out
        if (gone)
          return since !== undefined || q.showDeleted
            ? [{ kind: 'calendar#calendarListEntry', id: e.calendarId, deleted: true }]
            : []
        if (e.hidden && !q.showHidden && since === undefined) return []
        if (q.minAccessRole && !atLeast(out.accessRole as Role, q.minAccessRole)) return []
        return [out]
      })
    const { page, nextPageToken } = pageOf(items, q.maxResults ?? 100, q.pageToken)
    const change = currentChange(db)
    return c.json(
      {
        kind: 'calendar#calendarList',
        etag: `"p${change}"`,
        ...(nextPageToken ? { nextPageToken } : { nextSyncToken: encodeSync(`list:${c.var.user.id}`, change) }),
        items: page,
      } as never,
      200,
    )
  })
  .openapi(get, (c) => c.json(render(c, requireEntry(c, c.req.valid('param').calendarId)) as never, 200))
  .openapi(insert, (c) => {
    const b = c.req.valid('json') as Body
    if (!b.id || typeof b.id !== 'string') throw required('Missing calendar id.')
    const db = c.var.world.db
    const id = calendarIdOf(c, b.id)
    const cal = findCalendar(db, id)
    if (!cal || roleOf(db, cal, c.var.user) === 'none') throw notFound()
    const rgb = c.req.valid('query').colorRgbFormat
    c.var.world.tx((tx) => subscribe(tx, c.var.user.id, id))
    return c.json(apply(c, entryOf(c, id)!, b, false, rgb) as never, 200)
  })
  .openapi(update, (c) =>
    c.json(
      apply(
        c,
        requireEntry(c, c.req.valid('param').calendarId),
        c.req.valid('json') as Body,
        true,
        c.req.valid('query').colorRgbFormat,
      ) as never,
      200,
    ),
  )
  .openapi(patch, (c) =>
    c.json(
      apply(
        c,
        requireEntry(c, c.req.valid('param').calendarId),
        c.req.valid('json') as Body,
        false,
        c.req.valid('query').colorRgbFormat,
      ) as never,
      200,
    ),
  )
  .openapi(remove, (c) => {
    const e = requireEntry(c, c.req.valid('param').calendarId)
    const cal = findCalendar(c.var.world.db, e.calendarId)
    if (cal?.isPrimary && cal.ownerId === c.var.user.id)
      throw new GoogleApiError(
        'INVALID_ARGUMENT',
        'cannotRemovePrimaryCalendar',
        'Cannot remove primary calendar from the calendar list.',
      )
    c.var.world.tx((db) =>
      db
        .update(calendarList)
        .set({ deleted: true, changeSeq: nextChange(db) })
        .where(and(eq(calendarList.userId, e.userId), eq(calendarList.calendarId, e.calendarId)))
        .run(),
    )
    return c.body(null, 204)
  })
