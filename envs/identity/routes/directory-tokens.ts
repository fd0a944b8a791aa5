import { createHash } from 'node:crypto'
import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { findClient, findGrant, grantsOf, revokeGrant, type GrantRow } from '../store/oauth.ts'
import { googleUserId } from '../ids.ts'
import { findUserByKey, inDomain } from '../store/users.ts'
import { delegatedMayCall } from './delegated-admin.ts'
import { json } from './openapi-shapes.ts'

const forbidden = () =>
  new GoogleApiError('PERMISSION_DENIED', 'forbidden', 'Not Authorized to access this resource/api')

/**
 * Directory methods are for administrators: a super admin, or a delegated admin whose roles hold the privilege the
 * method needs (delegated-admin.ts); anyone else gets Google's 403.
 */
export function requireAdmin(c: WorldContext) {
  if (!c.var.user.isAdmin && !delegatedMayCall(c)) throw forbidden()
}

/** A user by primary e-mail address, alias or numeric id, or Directory's 404. */
export function userByKey(c: WorldContext, key: string): WorldUserRow {
  const db = c.var.world.db
  const user = findUserByKey(db, key)
  if (!user || !inDomain(db, user)) throw new GoogleApiError('NOT_FOUND', 'notFound', 'Resource Not Found: userKey')
  return user
}

export const etag = (value: unknown) =>
  `"${createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 27)}"`

function tokenOf(c: WorldContext, user: WorldUserRow, g: GrantRow) {
  const client = findClient(c.var.world.db, g.clientId)
  const body = {
    kind: 'admin#directory#token',
    clientId: g.clientId,
    displayText: client?.name ?? g.clientId,
    anonymous: false,
    nativeApp: false,
    userKey: googleUserId(c.var.world.db, user.id),
    scopes: g.scopes.split(' '),
  }
  return { ...body, etag: etag(body) }
}

const UserParam = z.object({ userKey: z.string() })
const TokenParam = z.object({ userKey: z.string(), clientId: z.string() })

const list = createRoute({
  operationId: 'directory.tokens.list',
  method: 'get',
  path: '/admin/directory/v1/users/{userKey}/tokens',
  request: { params: UserParam },
  responses: { 200: json(z.record(z.string(), z.unknown())) },
})
const get = createRoute({
  operationId: 'directory.tokens.get',
  method: 'get',
  path: '/admin/directory/v1/users/{userKey}/tokens/{clientId}',
  request: { params: TokenParam },
  responses: { 200: json(z.record(z.string(), z.unknown())) },
})
const del = createRoute({
  operationId: 'directory.tokens.delete',
  method: 'delete',
  path: '/admin/directory/v1/users/{userKey}/tokens/{clientId}',
  request: { params: TokenParam },
  responses: { 204: { description: 'Deleted' } },
})

const noToken = () => new GoogleApiError('NOT_FOUND', 'notFound', 'Resource Not Found: clientId')

/** Directory `tokens`: the apps a user connected (list, get) and revoking one (delete kills its tokens at once). */
export const directoryTokensRouter = createGoogleRouter()
  .openapi(list, (c) => {
    requireAdmin(c)
    const user = userByKey(c, c.req.valid('param').userKey)
    const items = grantsOf(c.var.world.db, user.id).map((g) => tokenOf(c, user, g))
    const body = { kind: 'admin#directory#tokenList', items }
    return c.json({ ...body, etag: etag(body) }, 200)
  })
  .openapi(get, (c) => {
    requireAdmin(c)
    const { userKey, clientId } = c.req.valid('param')
    const user = userByKey(c, userKey)
    const grant = findGrant(c.var.world.db, user.id, clientId)
    if (!grant) throw noToken()
    return c.json(tokenOf(c, user, grant), 200)
  })
  .openapi(del, (c) => {
    requireAdmin(c)
    const { userKey, clientId } = c.req.valid('param')
    const user = userByKey(c, userKey)
    const removed = c.var.world.tx((db) => revokeGrant(db, user.id, clientId))
    if (!removed) throw noToken()
    return c.body(null, 204)
  })
