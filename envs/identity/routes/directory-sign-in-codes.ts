import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { googleUserId } from '../ids.ts'
import {
  appPasswordsOf,
  backupCodesOf,
  deleteAppPassword,
  generateBackupCodes,
  invalidateBackupCodes,
  type AppPassword,
} from '../store/sign-in-codes.ts'
import { etag, requireAdmin } from './directory-tokens.ts'
import { liveUser } from './directory-users.ts'
import { json, Any } from './openapi-shapes.ts'

// Directory `asps` (list/get/delete) and `verificationCodes` (list/generate/invalidate): a user's app passwords
// and backup codes, which an administrator revokes when an account is compromised or its owner leaves.

const User = z.object({ userKey: z.string() })
// Discovery: codeId is an int32.
const Code = z.object({
  userKey: z.string(),
  codeId: z.coerce
    .number()
    .int()
    .min(-(2 ** 31))
    .max(2 ** 31 - 1),
})
const V1 = '/admin/directory/v1/users/{userKey}'

const route = <M extends 'get' | 'post' | 'delete', P extends string>(operationId: string, method: M, path: P) => ({
  operationId,
  method,
  path: `${V1}${path}` as const,
})

const aspsList = createRoute({
  ...route('directory.asps.list', 'get', '/asps'),
  request: { params: User },
  responses: { 200: Any },
})
const aspsGet = createRoute({
  ...route('directory.asps.get', 'get', '/asps/{codeId}'),
  request: { params: Code },
  responses: { 200: Any },
})
const aspsDelete = createRoute({
  ...route('directory.asps.delete', 'delete', '/asps/{codeId}'),
  request: { params: Code },
  responses: { 204: { description: 'Deleted' } },
})
const codesList = createRoute({
  ...route('directory.verificationCodes.list', 'get', '/verificationCodes'),
  request: { params: User },
  responses: { 200: Any },
})
const codesGenerate = createRoute({
  ...route('directory.verificationCodes.generate', 'post', '/verificationCodes/generate'),
  request: { params: User },
  responses: { 204: { description: 'Generated' } },
})
const codesInvalidate = createRoute({
  ...route('directory.verificationCodes.invalidate', 'post', '/verificationCodes/invalidate'),
  request: { params: User },
  responses: { 204: { description: 'Invalidated' } },
})

// Deviation (unverified): Google's wording for an unknown codeId is not recorded.
const noCode = () => new GoogleApiError('NOT_FOUND', 'notFound', 'Resource Not Found: codeId')

function aspResource(userGoogleId: string, a: AppPassword) {
  const body = {
    kind: 'admin#directory#asp',
    codeId: a.codeId,
    name: a.name,
    creationTime: String(a.createdMs),
    // Deviation (unverified): an app password never used answers lastTimeUsed "0".
    lastTimeUsed: String(a.lastUsedMs ?? 0),
    userKey: userGoogleId,
  }
  return { ...body, etag: etag(body) }
}

/** Directory `asps` and `verificationCodes`: administrators only. */
export const directorySignInCodesRouter = createGoogleRouter()
  .openapi(aspsList, (c) => {
    requireAdmin(c)
    const db = c.var.world.db
    const user = liveUser(c, c.req.valid('param').userKey)
    const items = appPasswordsOf(db, user.id).map((a) => aspResource(googleUserId(db, user.id), a))
    return c.json({ kind: 'admin#directory#aspList', etag: etag(items), items }, 200)
  })
  .openapi(aspsGet, (c) => {
    requireAdmin(c)
    const db = c.var.world.db
    const { userKey, codeId } = c.req.valid('param')
    const user = liveUser(c, userKey)
    const found = appPasswordsOf(db, user.id).find((a) => a.codeId === codeId)
    if (!found) throw noCode()
    return c.json(aspResource(googleUserId(db, user.id), found), 200)
  })
  .openapi(aspsDelete, (c) => {
    requireAdmin(c)
    const { userKey, codeId } = c.req.valid('param')
    const user = liveUser(c, userKey)
    c.var.world.tx((db) => {
      if (!appPasswordsOf(db, user.id).some((a) => a.codeId === codeId)) throw noCode()
      deleteAppPassword(db, user.id, codeId)
    })
    return c.body(null, 204)
  })
  .openapi(codesList, (c) => {
    requireAdmin(c)
    const db = c.var.world.db
    const user = liveUser(c, c.req.valid('param').userKey)
    const userId = googleUserId(db, user.id)
    const items = backupCodesOf(db, user.id).map((code) => {
      const body = { kind: 'admin#directory#verificationCode', userId, verificationCode: code }
      return { ...body, etag: etag(body) }
    })
    return c.json({ kind: 'admin#directory#verificationCodesList', etag: etag(items), items }, 200)
  })
  .openapi(codesGenerate, (c) => {
    requireAdmin(c)
    const user = liveUser(c, c.req.valid('param').userKey)
    c.var.world.tx((db) => generateBackupCodes(db, user.id))
    return c.body(null, 204)
  })
  .openapi(codesInvalidate, (c) => {
    requireAdmin(c)
    const user = liveUser(c, c.req.valid('param').userKey)
    c.var.world.tx((db) => invalidateBackupCodes(db, user.id))
    return c.body(null, 204)
  })
