import { createRoute, z } from '@hono/zod-openapi'
import { and, eq } from 'drizzle-orm'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { getMeta } from '../../core/clock.ts'
import { pageOf } from '../../core/paging.ts'
import { addressTaken, insertAlias } from '../store/aliases.ts'
import { followRename } from '../store/renames.ts'
import { findGroupByEmail, worldGroupMembers, worldGroups, type GroupRow } from '../../core/groups.ts'
import { findUserByAlias, findUserByEmail } from '../../core/users.ts'
import {
  addMember,
  deleteGroup,
  findMember,
  groupByKey,
  groupResource,
  hasMember,
  insertGroup,
  listGroups,
  memberResource,
  membersOf,
  type MemberRow,
} from '../store/groups.ts'
import { matches, parseQuery } from '../store/query.ts'
import { requireAdmin, userByKey } from './directory-tokens.ts'
import { checkCustomer } from './directory-users.ts'
import { json, Any, Body } from './openapi-shapes.ts'

const GroupParam = z.object({ groupKey: z.string() })
const MemberParam = z.object({ groupKey: z.string(), memberKey: z.string() })
const Paging = { maxResults: z.coerce.number().int().min(1).max(200).optional(), pageToken: z.string().optional() }
const ROLES = ['OWNER', 'MANAGER', 'MEMBER'] as const
const DELIVERY = ['ALL_MAIL', 'DAILY', 'DIGEST', 'DISABLED', 'NONE'] as const

const memberWhere = (groupId: string, email: string) =>
  and(eq(worldGroupMembers.groupId, groupId), eq(worldGroupMembers.email, email.toLowerCase()))
const str = (v: unknown) => (typeof v === 'string' ? v : undefined)
const groupNotFound = () => new GoogleApiError('NOT_FOUND', 'notFound', 'Resource Not Found: groupKey')
const memberNotFound = () => new GoogleApiError('NOT_FOUND', 'notFound', 'Resource Not Found: memberKey')

function group(c: WorldContext, key: string): GroupRow {
  const g = groupByKey(c.var.world.db, key)
  if (!g) throw groupNotFound()
  return g
}

const route = <P extends string, M extends 'get' | 'post' | 'put' | 'patch' | 'delete'>(
  operationId: string,
  method: M,
  path: P,
) => ({ operationId, method, path: `/admin/directory/v1/${path}` as const })

const groupsList = createRoute({
  ...route('directory.groups.list', 'get', 'groups'),
  request: {
    query: z.object({
      customer: z.string().optional(),
      domain: z.string().optional(),
      userKey: z.string().optional(),
      query: z.string().optional(),
      orderBy: z.enum(['email']).optional(),
      sortOrder: z.enum(['ASCENDING', 'DESCENDING']).optional(),
      ...Paging,
    }),
  },
  responses: { 200: Any },
})
const groupsGet = createRoute({
  ...route('directory.groups.get', 'get', 'groups/{groupKey}'),
  request: { params: GroupParam },
  responses: { 200: Any },
})
const groupsInsert = createRoute({
  ...route('directory.groups.insert', 'post', 'groups'),
  request: { body: Body },
  responses: { 200: Any },
})
const groupsUpdate = createRoute({
  ...route('directory.groups.update', 'put', 'groups/{groupKey}'),
  request: { params: GroupParam, body: Body },
  responses: { 200: Any },
})
const groupsPatch = createRoute({
  ...route('directory.groups.patch', 'patch', 'groups/{groupKey}'),
  request: { params: GroupParam, body: Body },
  responses: { 200: Any },
})
const groupsDelete = createRoute({
  ...route('directory.groups.delete', 'delete', 'groups/{groupKey}'),
  request: { params: GroupParam },
  responses: { 204: { description: 'Deleted' } },
})

const membersList = createRoute({
  ...route('directory.members.list', 'get', 'groups/{groupKey}/members'),
  request: {
    params: GroupParam,
    query: z.object({
      roles: z.string().optional(),
      includeDerivedMembership: z.enum(['true', 'false']).optional(),
      ...Paging,
    }),
  },
  responses: { 200: Any },
})
const membersGet = createRoute({
  ...route('directory.members.get', 'get', 'groups/{groupKey}/members/{memberKey}'),
  request: { params: MemberParam },
  responses: { 200: Any },
})
const membersInsert = createRoute({
  ...route('directory.members.insert', 'post', 'groups/{groupKey}/members'),
  request: { params: GroupParam, body: Body },
  responses: { 200: Any },
})
const membersUpdate = createRoute({
  ...route('directory.members.update', 'put', 'groups/{groupKey}/members/{memberKey}'),
  request: { params: MemberParam, body: Body },
  responses: { 200: Any },
})
const membersPatch = createRoute({
  ...route('directory.members.patch', 'patch', 'groups/{groupKey}/members/{memberKey}'),
  request: { params: MemberParam, body: Body },
  responses: { 200: Any },
})
const membersDelete = createRoute({
  ...route('directory.members.delete', 'delete', 'groups/{groupKey}/members/{memberKey}'),
  request: { params: MemberParam },
  responses: { 204: { description: 'Deleted' } },
})
const membersHas = createRoute({
  ...route('directory.members.hasMember', 'get', 'groups/{groupKey}/hasMember/{memberKey}'),
  request: { params: MemberParam },
  responses: { 200: Any },
})

/** The address a member key names: a primary address as it is, an alias's owner's, or a user's or group's id. */
function memberEmail(c: WorldContext, key: string): string {
  if (key.includes('@')) {
    const db = c.var.world.db
    const owner = findUserByEmail(db, key) ?? findUserByAlias(db, key) ?? findGroupByEmail(db, key)
    return (owner?.email ?? key).toLowerCase()
  }
  const g = groupByKey(c.var.world.db, key)
  if (g) return g.email
  try {
    return userByKey(c, key).email.toLowerCase()
  } catch {
    throw memberNotFound()
  }
}

function saveGroup(c: WorldContext, g: GroupRow, body: Record<string, unknown>) {
  return c.var.world.tx((db) => {
    const set: Partial<GroupRow> = {}
    if (body.name !== undefined) set.name = str(body.name) ?? g.name
    if (body.description !== undefined) set.description = str(body.description) ?? ''
    const email = str(body.email)
    if (email && email.toLowerCase() !== g.email) {
      checkNewAddress(c, email)
      db.update(worldGroupMembers).set({ email: email.toLowerCase() }).where(eq(worldGroupMembers.email, g.email)).run()
      set.email = email.toLowerCase()
      // The old address stays the group's, as an alias (Google's Admin help: "If you change a group's email address
      // in the Admin console, the previous address gets added as an email alias"; Deviation (unverified): the same
      // through the API).
      insertAlias(db, 'group', g.id, g.email)
      followRename(db, 'group', g.email, email)
    }
    if (Object.keys(set).length > 0) db.update(worldGroups).set(set).where(eq(worldGroups.id, g.id)).run()
    return groupResource(db, groupByKey(db, g.id)!)
  })
}

function checkNewAddress(c: WorldContext, email: string) {
  const db = c.var.world.db
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new GoogleApiError('INVALID_ARGUMENT', 'invalid', 'Invalid Input: email')
  if (email.split('@')[1]!.toLowerCase() !== (getMeta(db, 'domain') ?? '').toLowerCase()) {
    throw new GoogleApiError('INVALID_ARGUMENT', 'invalid', 'Domain not found.')
  }
  if (addressTaken(db, email)) throw new GoogleApiError('ALREADY_EXISTS', 'duplicate', 'Entity already exists.')
}

function memberChanges(body: Record<string, unknown>): Partial<Pick<MemberRow, 'role' | 'deliverySettings'>> {
  const out: Partial<Pick<MemberRow, 'role' | 'deliverySettings'>> = {}
  if (body.role !== undefined) {
    const role = str(body.role)?.toUpperCase()
    if (!ROLES.includes(role as never)) throw new GoogleApiError('INVALID_ARGUMENT', 'invalid', 'Invalid Input: role')
    out.role = role as MemberRow['role']
  }
  if (body.delivery_settings !== undefined) {
    const d = str(body.delivery_settings)
    if (!DELIVERY.includes(d as never))
      throw new GoogleApiError('INVALID_ARGUMENT', 'invalid', 'Invalid Input: delivery_settings')
    out.deliverySettings = d!
  }
  return out
}

function saveMember(c: WorldContext, groupKey: string, memberKey: string, body: Record<string, unknown>) {
  requireAdmin(c)
  const g = group(c, groupKey)
  const email = memberEmail(c, memberKey)
  if (!findMember(c.var.world.db, g.id, email)) throw memberNotFound()
  const set = memberChanges(body)
  return c.var.world.tx((db) => {
    if (Object.keys(set).length > 0) {
      db.update(worldGroupMembers).set(set).where(memberWhere(g.id, email)).run()
    }
    return memberResource(db, findMember(db, g.id, email)!)
  })
}

/** Directory `groups` and `members`, including `hasMember` through nested groups. */
export const directoryGroupsRouter = createGoogleRouter()
  .openapi(groupsList, (c) => {
    const q = c.req.valid('query')
    const db = c.var.world.db
    let groups = listGroups(db)
    if (q.userKey) {
      const user = userByKey(c, q.userKey)
      if (user.id !== c.var.user.id) requireAdmin(c)
      groups = groups.filter((g) => findMember(db, g.id, user.email))
    } else {
      requireAdmin(c)
      checkCustomer(c, q)
    }
    const clauses = parseQuery(q.query, ['email', 'name', 'memberKey'])
    const record = (g: GroupRow) => ({
      email: [g.email],
      name: [g.name],
      memberKey: membersOf(db, g.id).map((m) => m.email),
    })
    groups = groups.filter((g) => matches(record(g), clauses, ['email', 'name']))
    if (q.sortOrder === 'DESCENDING') groups.reverse()
    const { page, nextPageToken } = pageOf(groups, q.maxResults ?? 200, q.pageToken)
    const items = page.map((g) => groupResource(db, g))
    return c.json(
      {
        kind: 'admin#directory#groups',
        etag: '"groups"',
        ...(items.length > 0 ? { groups: items } : {}),
        ...(nextPageToken ? { nextPageToken } : {}),
      },
      200,
    )
  })
  .openapi(groupsGet, (c) => {
    requireAdmin(c)
    return c.json(groupResource(c.var.world.db, group(c, c.req.valid('param').groupKey)), 200)
  })
  .openapi(groupsInsert, (c) => {
    requireAdmin(c)
    const body = c.req.valid('json')
    const email = str(body.email)
    if (!email) throw new GoogleApiError('INVALID_ARGUMENT', 'required', 'Missing required field: email')
    checkNewAddress(c, email)
    const g = c.var.world.tx((db) =>
      groupResource(
        db,
        insertGroup(db, {
          email,
          name: str(body.name) ?? email.split('@')[0]!,
          description: str(body.description) ?? '',
        }),
      ),
    )
    return c.json(g, 200)
  })
  .openapi(groupsUpdate, (c) => {
    requireAdmin(c)
    return c.json(saveGroup(c, group(c, c.req.valid('param').groupKey), c.req.valid('json')), 200)
  })
  .openapi(groupsPatch, (c) => {
    requireAdmin(c)
    return c.json(saveGroup(c, group(c, c.req.valid('param').groupKey), c.req.valid('json')), 200)
  })
  .openapi(groupsDelete, (c) => {
    requireAdmin(c)
    const g = group(c, c.req.valid('param').groupKey)
    c.var.world.tx((db) => deleteGroup(db, g))
    return c.body(null, 204)
  })
  .openapi(membersList, (c) => {
    requireAdmin(c)
    const db = c.var.world.db
    const q = c.req.valid('query')
    const g = group(c, c.req.valid('param').groupKey)
    const roles = q.roles ? q.roles.split(',').map((r) => r.trim().toUpperCase()) : undefined
    const members = membersOf(db, g.id).filter((m) => !roles || roles.includes(m.role))
    const { page, nextPageToken } = pageOf(members, q.maxResults ?? 200, q.pageToken)
    const items = page.map((m) => memberResource(db, m))
    return c.json(
      {
        kind: 'admin#directory#members',
        etag: '"members"',
        ...(items.length > 0 ? { members: items } : {}),
        ...(nextPageToken ? { nextPageToken } : {}),
      },
      200,
    )
  })
  .openapi(membersGet, (c) => {
    requireAdmin(c)
    const { groupKey, memberKey } = c.req.valid('param')
    const g = group(c, groupKey)
    const m = findMember(c.var.world.db, g.id, memberEmail(c, memberKey))
    if (!m) throw memberNotFound()
    return c.json(memberResource(c.var.world.db, m), 200)
  })
  .openapi(membersInsert, (c) => {
    requireAdmin(c)
    const g = group(c, c.req.valid('param').groupKey)
    const body = c.req.valid('json')
    const given = str(body.email) ?? str(body.id)
    const email = given ? memberEmail(c, given) : undefined
    if (!email) throw new GoogleApiError('INVALID_ARGUMENT', 'required', 'Missing required field: memberKey')
    if (email.toLowerCase() === g.email)
      throw new GoogleApiError('INVALID_ARGUMENT', 'invalid', 'Invalid Input: memberKey')
    if (findMember(c.var.world.db, g.id, email))
      throw new GoogleApiError('ALREADY_EXISTS', 'duplicate', 'Member already exists.')
    const set = memberChanges(body)
    const m = c.var.world.tx((db) =>
      memberResource(db, addMember(db, g.id, email, set.role ?? 'MEMBER', set.deliverySettings)),
    )
    return c.json(m, 200)
  })
  .openapi(membersUpdate, (c) => {
    const { groupKey, memberKey } = c.req.valid('param')
    return c.json(saveMember(c, groupKey, memberKey, c.req.valid('json')), 200)
  })
  .openapi(membersPatch, (c) => {
    const { groupKey, memberKey } = c.req.valid('param')
    return c.json(saveMember(c, groupKey, memberKey, c.req.valid('json')), 200)
  })
  .openapi(membersDelete, (c) => {
    requireAdmin(c)
    const { groupKey, memberKey } = c.req.valid('param')
    const g = group(c, groupKey)
    const email = memberEmail(c, memberKey)
    if (!findMember(c.var.world.db, g.id, email)) throw memberNotFound()
    c.var.world.tx((db) => {
      db.delete(worldGroupMembers).where(memberWhere(g.id, email)).run()
    })
    return c.body(null, 204)
  })
  .openapi(membersHas, (c) => {
    requireAdmin(c)
    const { groupKey, memberKey } = c.req.valid('param')
    const g = group(c, groupKey)
    const email = memberEmail(c, memberKey)
    return c.json({ isMember: hasMember(c.var.world.db, g.id, email) }, 200)
  })
