import { createRoute, z } from '@hono/zod-openapi'
import { and, eq } from 'drizzle-orm'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { pageOf } from '../../core/paging.ts'
import { selectRows, type Db } from '../../core/db.ts'
import { findUserByEmail, primaryOfUserAlias } from '../../core/users.ts'
import { findGroupByEmail } from '../../core/groups.ts'
import { AclRule } from '../api/schemas.gen.ts'
import { aclRules, type AclRow } from '../schema.ts'
import { toAclRule } from '../map.ts'
import { currentChange, nextChange, putRule, subscribe } from '../store/access.ts'
import { deliverInternalMail } from '../../gmail/deliver.ts'
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
  requireCalendar,
} from './common.ts'
import { decodeSync, encodeSync } from './sync.ts'

type Body = { role?: string; scope?: { type?: string; value?: string } }
const ROLES = ['none', 'freeBusyReader', 'reader', 'writer', 'owner']
const SCOPES = ['default', 'user', 'group', 'domain']
const base = '/calendar/v3/calendars/{calendarId}/acl'
const RuleParams = CalParams.extend({ ruleId: z.string() })

const list = createRoute({
  operationId: 'calendar.acl.list',
  method: 'get',
  path: base,
  request: {
    params: CalParams,
    query: z.object({
      maxResults: pageSize(250),
      pageToken: z.string().optional(),
      showDeleted: bool(),
      syncToken: z.string().optional(),
    }),
  },
  responses: { 200: json(z.object({ kind: z.string(), items: z.array(AclRule) })) },
})
const get = createRoute({
  operationId: 'calendar.acl.get',
  method: 'get',
  path: `${base}/{ruleId}`,
  request: { params: RuleParams },
  responses: { 200: json(AclRule) },
})
const insert = createRoute({
  operationId: 'calendar.acl.insert',
  method: 'post',
  path: base,
  request: { params: CalParams, query: z.object({ sendNotifications: bool() }), body: jsonBody(AclRule) },
  responses: { 200: json(AclRule) },
})
const update = createRoute({
  operationId: 'calendar.acl.update',
  method: 'put',
  path: `${base}/{ruleId}`,
  request: { params: RuleParams, query: z.object({ sendNotifications: bool() }), body: jsonBody(AclRule) },
  responses: { 200: json(AclRule) },
})
const patch = createRoute({
  operationId: 'calendar.acl.patch',
  method: 'patch',
  path: `${base}/{ruleId}`,
  request: { params: RuleParams, query: z.object({ sendNotifications: bool() }), body: jsonBody(AclRule) },
  responses: { 200: json(AclRule) },
})
const remove = createRoute({
  operationId: 'calendar.acl.delete',
  method: 'delete',
  path: `${base}/{ruleId}`,
  request: { params: RuleParams },
  responses: noContent,
})

const ruleOf = (c: WorldContext, calendarId: string, ruleId: string): AclRow | undefined =>
  c.var.world.db
    .select()
    .from(aclRules)
    .where(and(eq(aclRules.calendarId, calendarId), eq(aclRules.id, ruleId), eq(aclRules.deleted, false)))
    .get()

function checkRole(role: string | undefined): AclRow['role'] {
  if (!role) throw required('Missing role.')
  if (!ROLES.includes(role)) throw invalid(`Invalid role: ${role}`, 'invalid')
  return role as AclRow['role']
}

/**
 * A `user` or `group` scope given by a Directory alias names its user or group: the rule is stored under the primary
 * address (as Drive's grants are), so access, the calendar list entry and the rule's id follow the account.
 * Deviation (unverified): Calendar may keep the address as given.
 */
function accountAddress(db: Db, type: string, value: string | null): string | null {
  if (!value) return value
  if (type === 'user') return primaryOfUserAlias(db, value)
  if (type === 'group') return findGroupByEmail(db, value)?.email.toLowerCase() ?? value
  return value
}

/** Rules for world users put the calendar into their list and (with notifications) tell them by mail. */
function shareWith(c: WorldContext, calendarId: string, summary: string, r: AclRow, notify: boolean) {
  const db = c.var.world.db
  if (r.scopeType !== 'user' || !r.scopeValue || r.role === 'none') return
  const user = findUserByEmail(db, r.scopeValue)
  if (!user) return
  // Deviation (unverified): a shared calendar appears in a world user's list at once (the real product adds it when the
  // link in the mail is opened, or for the same domain automatically).
  subscribe(db, user.id, calendarId)
  if (notify) {
    deliverInternalMail(db, {
      from: { name: 'Google Calendar', email: 'calendar-notification@google.com' },
      to: [user.email],
      subject: `${c.var.user.name} has shared a calendar with you`,
      text: `${c.var.user.name} (${c.var.user.email}) has given you access to the calendar "${summary}" (${r.role}).\n\nhttps://calendar.google.com/calendar/r?cid=${encodeURIComponent(calendarId)}`,
      headers: { 'Reply-To': c.var.user.email },
    })
  }
}

function writeRule(
  c: WorldContext,
  rawCalendarId: string,
  ruleId: string,
  b: Body,
  replace: boolean,
  notify: boolean | undefined,
) {
  const { cal } = requireCalendar(c, rawCalendarId, 'owner')
  const rule = ruleOf(c, cal.id, ruleId)
  if (!rule) throw notFound()
  if (b.scope && b.scope.type !== undefined && b.scope.type !== rule.scopeType)
    throw invalid('Cannot change the scope of a rule.', 'invalid')
  const role = replace || b.role !== undefined ? checkRole(b.role) : rule.role
  if (rule.role === 'owner' && rule.scopeValue === findUserOwnerEmail(c, cal.ownerId) && role !== 'owner')
    throw invalid('Cannot change the role of the calendar owner.', 'cannotChangeOwnAcl')
  const out = c.var.world.tx((db) => {
    const row = putRule(db, cal.id, rule.scopeType, rule.scopeValue, role)
    shareWith(c, cal.id, cal.summary, row, notify ?? false)
    return row
  })
  return toAclRule(out)
}

const findUserOwnerEmail = (c: WorldContext, ownerId: string) =>
  c.var.world.db.$client.prepare('SELECT lower(email) AS e FROM world_users WHERE id = ?').pluck().get(ownerId) as
    string | undefined

export const aclRouter = createGoogleRouter()
  .openapi(list, (c) => {
    const { cal } = requireCalendar(c, c.req.valid('param').calendarId, 'owner')
    const q = c.req.valid('query')
    const db = c.var.world.db
    const since = q.syncToken ? decodeSync(q.syncToken, `acl:${cal.id}`, currentChange(db)) : undefined
    const rows = selectRows(db, aclRules, { calendarId: cal.id }, { orderBy: ['changeSeq'] })
    const items = rows
      .filter((r) => (since === undefined ? !r.deleted || q.showDeleted : r.changeSeq > since))
      .map((r) => (r.deleted ? { ...toAclRule(r), role: 'none' } : toAclRule(r)))
    const { page, nextPageToken } = pageOf(items, q.maxResults ?? 100, q.pageToken)
    const change = currentChange(db)
    return c.json(
      {
        kind: 'calendar#acl',
        etag: `"p${change}"`,
        ...(nextPageToken ? { nextPageToken } : { nextSyncToken: encodeSync(`acl:${cal.id}`, change) }),
        items: page,
      } as never,
      200,
    )
  })
  .openapi(get, (c) => {
    const { calendarId, ruleId } = c.req.valid('param')
    const { cal } = requireCalendar(c, calendarId, 'owner')
    const rule = ruleOf(c, cal.id, ruleId)
    if (!rule) throw notFound()
    return c.json(toAclRule(rule) as never, 200)
  })
  .openapi(insert, (c) => {
    const { cal } = requireCalendar(c, c.req.valid('param').calendarId, 'owner')
    const b = c.req.valid('json') as Body
    const role = checkRole(b.role)
    const type = b.scope?.type
    if (!type) throw required('Missing scope type.')
    if (!SCOPES.includes(type)) throw invalid(`Invalid scope type: ${type}`, 'invalid')
    const value = type === 'default' ? null : b.scope?.value?.toLowerCase()
    if (type !== 'default' && !value) throw required('Missing scope value.')
    if ((type === 'user' || type === 'group') && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value!))
      throw invalid('Invalid scope value.', 'invalid')
    if (type === 'domain' && !/^[a-z0-9.-]+\.[a-z]{2,}$/.test(value!)) throw invalid('Invalid scope value.', 'invalid')
    if (type === 'default' && (role === 'writer' || role === 'owner'))
      throw invalid('Cannot grant write access to the public.', 'invalid')
    const q = c.req.valid('query')
    const row = c.var.world.tx((db) => {
      const r = putRule(db, cal.id, type as AclRow['scopeType'], accountAddress(db, type, value ?? null), role)
      shareWith(c, cal.id, cal.summary, r, q.sendNotifications ?? true)
      return r
    })
    return c.json(toAclRule(row) as never, 200)
  })
  .openapi(update, (c) =>
    c.json(
      writeRule(
        c,
        c.req.valid('param').calendarId,
        c.req.valid('param').ruleId,
        c.req.valid('json') as Body,
        true,
        c.req.valid('query').sendNotifications,
      ) as never,
      200,
    ),
  )
  .openapi(patch, (c) =>
    c.json(
      writeRule(
        c,
        c.req.valid('param').calendarId,
        c.req.valid('param').ruleId,
        c.req.valid('json') as Body,
        false,
        c.req.valid('query').sendNotifications,
      ) as never,
      200,
    ),
  )
  .openapi(remove, (c) => {
    const { calendarId, ruleId } = c.req.valid('param')
    const { cal } = requireCalendar(c, calendarId, 'owner')
    const rule = ruleOf(c, cal.id, ruleId)
    if (!rule) throw notFound()
    if (rule.role === 'owner' && rule.scopeValue === findUserOwnerEmail(c, cal.ownerId))
      throw invalid('Cannot remove the owner of the calendar.', 'cannotChangeOwnAcl')
    c.var.world.tx((db) =>
      db
        .update(aclRules)
        .set({ deleted: true, changeSeq: nextChange(db) })
        .where(and(eq(aclRules.calendarId, cal.id), eq(aclRules.id, ruleId)))
        .run(),
    )
    return c.body(null, 204)
  })
