import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { getMeta } from '../../core/clock.ts'
import { aliasesOf, findAlias, type AliasRow } from '../../core/aliases.ts'
import { addressTaken, aliasResource, deleteAlias, insertAlias } from '../store/aliases.ts'
import { groupByKey } from '../store/groups.ts'
import { googleUserId } from '../ids.ts'
import { etag, requireAdmin } from './directory-tokens.ts'
import { liveUser } from './directory-users.ts'
import { json, Any, Body } from './openapi-shapes.ts'

const UserParam = z.object({ userKey: z.string() })
const GroupParam = z.object({ groupKey: z.string() })
const UserAlias = z.object({ userKey: z.string(), alias: z.string() })
const GroupAlias = z.object({ groupKey: z.string(), alias: z.string() })
const V1 = '/admin/directory/v1'

const route = <M extends 'get' | 'post' | 'delete', P extends string>(operationId: string, method: M, path: P) => ({
  operationId,
  method,
  path: `${V1}/${path}` as const,
})

const usersList = createRoute({
  ...route('directory.users.aliases.list', 'get', 'users/{userKey}/aliases'),
  request: { params: UserParam, query: z.object({ event: z.string().optional() }) },
  responses: { 200: Any },
})
const usersInsert = createRoute({
  ...route('directory.users.aliases.insert', 'post', 'users/{userKey}/aliases'),
  request: { params: UserParam, body: Body },
  responses: { 200: Any },
})
const usersDelete = createRoute({
  ...route('directory.users.aliases.delete', 'delete', 'users/{userKey}/aliases/{alias}'),
  request: { params: UserAlias },
  responses: { 204: { description: 'Deleted' } },
})
const groupsList = createRoute({
  ...route('directory.groups.aliases.list', 'get', 'groups/{groupKey}/aliases'),
  request: { params: GroupParam },
  responses: { 200: Any },
})
const groupsInsert = createRoute({
  ...route('directory.groups.aliases.insert', 'post', 'groups/{groupKey}/aliases'),
  request: { params: GroupParam, body: Body },
  responses: { 200: Any },
})
const groupsDelete = createRoute({
  ...route('directory.groups.aliases.delete', 'delete', 'groups/{groupKey}/aliases/{alias}'),
  request: { params: GroupAlias },
  responses: { 204: { description: 'Deleted' } },
})

/** The user's or group's id, primary address and alias kind, for an aliases route's key. */
type Owner = { kind: AliasRow['kind']; targetId: string; id: string; primaryEmail: string }

function userOwner(c: WorldContext, key: string): Owner {
  requireAdmin(c)
  const user = liveUser(c, key)
  return { kind: 'user', targetId: user.id, id: googleUserId(c.var.world.db, user.id), primaryEmail: user.email }
}

function groupOwner(c: WorldContext, key: string): Owner {
  requireAdmin(c)
  const g = groupByKey(c.var.world.db, key)
  if (!g) throw new GoogleApiError('NOT_FOUND', 'notFound', 'Resource Not Found: groupKey')
  return { kind: 'group', targetId: g.id, id: g.id, primaryEmail: g.email }
}

function listOf(c: WorldContext, o: Owner) {
  const aliases = aliasesOf(c.var.world.db, o.kind, o.targetId).map((a) => aliasResource(o.id, o.primaryEmail, a))
  return {
    kind: 'admin#directory#aliases',
    etag: etag(aliases),
    ...(aliases.length > 0 ? { aliases } : {}),
  }
}

/** Adds `body.alias`: an address of the workspace's domain that no user, group or alias holds yet. */
function add(c: WorldContext, o: Owner, body: Record<string, unknown>) {
  const alias = typeof body.alias === 'string' ? body.alias.trim() : ''
  if (!alias) throw new GoogleApiError('INVALID_ARGUMENT', 'required', 'Missing required field: alias')
  if (!/^[^\s@]+@[^\s@]+$/.test(alias)) throw new GoogleApiError('INVALID_ARGUMENT', 'invalid', 'Invalid Input: alias')
  const domain = (getMeta(c.var.world.db, 'domain') ?? '').toLowerCase()
  // Deviation (unverified): an alias outside the workspace's one domain answers as a primary address there does.
  if (alias.split('@')[1]!.toLowerCase() !== domain) {
    throw new GoogleApiError('INVALID_ARGUMENT', 'invalid', 'Domain not found.')
  }
  return c.var.world.tx((db) => {
    if (addressTaken(db, alias)) throw new GoogleApiError('ALREADY_EXISTS', 'duplicate', 'Entity already exists.')
    insertAlias(db, o.kind, o.targetId, alias)
    return aliasResource(o.id, o.primaryEmail, alias.toLowerCase())
  })
}

function remove(c: WorldContext, o: Owner, alias: string) {
  c.var.world.tx((db) => {
    const row = findAlias(db, alias)
    // Deviation (unverified): Google's wording for an address that is not this owner's alias is not recorded.
    if (!row || row.kind !== o.kind || row.targetId !== o.targetId) {
      throw new GoogleApiError('NOT_FOUND', 'notFound', 'Resource Not Found: alias')
    }
    deleteAlias(db, row.alias)
  })
}

/** Directory `users.aliases` and `groups.aliases`: list, insert, delete (not watch). */
export const directoryAliasesRouter = createGoogleRouter()
  .openapi(usersList, (c) => c.json(listOf(c, userOwner(c, c.req.valid('param').userKey)), 200))
  .openapi(usersInsert, (c) => c.json(add(c, userOwner(c, c.req.valid('param').userKey), c.req.valid('json')), 200))
  .openapi(usersDelete, (c) => {
    const { userKey, alias } = c.req.valid('param')
    remove(c, userOwner(c, userKey), alias)
    return c.body(null, 204)
  })
  .openapi(groupsList, (c) => c.json(listOf(c, groupOwner(c, c.req.valid('param').groupKey)), 200))
  .openapi(groupsInsert, (c) => c.json(add(c, groupOwner(c, c.req.valid('param').groupKey), c.req.valid('json')), 200))
  .openapi(groupsDelete, (c) => {
    const { groupKey, alias } = c.req.valid('param')
    remove(c, groupOwner(c, groupKey), alias)
    return c.body(null, 204)
  })
