import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { nowMs } from '../../core/clock.ts'
import { accountFor, holds, IamDenied } from '../iam-access.ts'
import { keyFile } from '../sa-keys.ts'
import {
  NEVER_MS,
  deleteKey,
  findKey,
  insertKey,
  keysOf,
  serviceAccountsOf,
  type KeyRow,
  type ServiceAccountRow,
} from '../store/service-accounts.ts'
import { etag } from './directory-tokens.ts'
import { json, Any } from './openapi-shapes.ts'

const Body = { required: false, content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } }
const base = '/v1/projects/{project}/serviceAccounts'
const Account = z.object({ project: z.string(), account: z.string() })
const Key = Account.extend({ keyId: z.string() })
/** Google caps user-managed keys at ten per account. */
const MAX_USER_KEYS = 10

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z')
const accountName = (sa: ServiceAccountRow) => `projects/${sa.projectId}/serviceAccounts/${sa.email}`

export function accountResource(sa: ServiceAccountRow) {
  const body: Record<string, unknown> = {
    name: accountName(sa),
    projectId: sa.projectId,
    uniqueId: sa.uniqueId,
    email: sa.email,
    ...(sa.displayName ? { displayName: sa.displayName } : {}),
    ...(sa.description ? { description: sa.description } : {}),
    oauth2ClientId: sa.uniqueId,
    ...(sa.disabled ? { disabled: true } : {}),
  }
  return { ...body, etag: Buffer.from(etag(body)).toString('base64').slice(0, 12) }
}

const keyResource = (sa: ServiceAccountRow, k: KeyRow) => ({
  name: `${accountName(sa)}/keys/${k.keyId}`,
  validAfterTime: iso(k.validAfterMs),
  validBeforeTime: iso(k.validBeforeMs),
  keyAlgorithm: 'KEY_ALG_RSA_2048',
  keyOrigin: 'GOOGLE_PROVIDED',
  keyType: k.keyType,
})

const list = createRoute({
  operationId: 'iam.projects.serviceAccounts.list',
  method: 'get',
  path: '/v1/projects/{project}/serviceAccounts',
  request: { params: z.object({ project: z.string() }) },
  responses: { 200: Any },
})
const get = createRoute({
  operationId: 'iam.projects.serviceAccounts.get',
  method: 'get',
  path: `${base}/{account}`,
  request: { params: Account },
  responses: { 200: Any },
})
const keysCreate = createRoute({
  operationId: 'iam.projects.serviceAccounts.keys.create',
  method: 'post',
  path: `${base}/{account}/keys`,
  request: { params: Account, body: Body },
  responses: { 200: Any },
})
const keysList = createRoute({
  operationId: 'iam.projects.serviceAccounts.keys.list',
  method: 'get',
  path: `${base}/{account}/keys`,
  request: { params: Account, query: z.object({ keyTypes: z.union([z.string(), z.array(z.string())]).optional() }) },
  responses: { 200: Any },
})
const keysGet = createRoute({
  operationId: 'iam.projects.serviceAccounts.keys.get',
  method: 'get',
  path: `${base}/{account}/keys/{keyId}`,
  request: { params: Key },
  responses: { 200: Any },
})
const keysDelete = createRoute({
  operationId: 'iam.projects.serviceAccounts.keys.delete',
  method: 'delete',
  path: `${base}/{account}/keys/{keyId}`,
  request: { params: Key },
  responses: { 200: Any },
})

const KEY_TYPES = new Set(['USER_MANAGED', 'SYSTEM_MANAGED', 'KEY_TYPE_UNSPECIFIED'])

function keyOf(c: WorldContext, sa: ServiceAccountRow, keyId: string): KeyRow {
  const k = findKey(c.var.world.db, keyId)
  if (!k || k.email !== sa.email || k.deletedMs !== null) {
    throw new GoogleApiError('NOT_FOUND', 'notFound', `Service account key ${keyId} does not exist.`)
  }
  return k
}

/** IAM v1: service accounts (list, get) and their keys (create, list, get, delete). */
export const iamRouter = createGoogleRouter()
  .openapi(list, (c) => {
    const { project } = c.req.valid('param')
    const permission = 'iam.serviceAccounts.list'
    if (project === '-' || !holds(c, permission, project)) throw new IamDenied(permission)
    const accounts = serviceAccountsOf(c.var.world.db, project).map(accountResource)
    return c.json(accounts.length ? { accounts } : {}, 200)
  })
  .openapi(get, (c) => {
    const { project, account } = c.req.valid('param')
    return c.json(accountResource(accountFor(c, project, account, 'iam.serviceAccounts.get')), 200)
  })
  .openapi(keysCreate, async (c) => {
    const { project, account } = c.req.valid('param')
    const sa = accountFor(c, project, account, 'iam.serviceAccountKeys.create')
    const body = (c.req.valid('json') ?? {}) as Record<string, unknown>
    const type = body.privateKeyType ?? 'TYPE_GOOGLE_CREDENTIALS_FILE'
    if (type !== 'TYPE_GOOGLE_CREDENTIALS_FILE') {
      // Deviation: PKCS#12 key files are not issued; JSON key files are what client libraries read.
      throw new GoogleApiError('INVALID_ARGUMENT', 'badRequest', `Unsupported private key type: ${String(type)}.`)
    }
    const algorithm = body.keyAlgorithm ?? 'KEY_ALG_RSA_2048'
    if (algorithm !== 'KEY_ALG_RSA_2048' && algorithm !== 'KEY_ALG_UNSPECIFIED') {
      throw new GoogleApiError('INVALID_ARGUMENT', 'badRequest', `Unsupported key algorithm: ${String(algorithm)}.`)
    }
    const row = c.var.world.tx((db) => {
      if (keysOf(db, sa.email).filter((k) => k.keyType === 'USER_MANAGED').length >= MAX_USER_KEYS) return undefined
      return insertKey(db, sa.email, 'USER_MANAGED', nowMs(db), NEVER_MS)
    })
    if (!row) throw new GoogleApiError('FAILED_PRECONDITION', 'failedPrecondition', 'Precondition check failed.')
    const file = await keyFile(c.var.keys, sa, row.keyId)
    return c.json(
      {
        ...keyResource(sa, row),
        privateKeyType: 'TYPE_GOOGLE_CREDENTIALS_FILE',
        privateKeyData: Buffer.from(`${JSON.stringify(file, null, 2)}\n`).toString('base64'),
      },
      200,
    )
  })
  .openapi(keysList, (c) => {
    const { project, account } = c.req.valid('param')
    const sa = accountFor(c, project, account, 'iam.serviceAccountKeys.list')
    const raw = c.req.queries('keyTypes') ?? []
    const bad = raw.find((t) => !KEY_TYPES.has(t))
    if (bad) throw new GoogleApiError('INVALID_ARGUMENT', 'badRequest', `Invalid value at 'key_types' (${bad})`)
    const wanted = raw.filter((t) => t !== 'KEY_TYPE_UNSPECIFIED')
    const at = nowMs(c.var.world.db)
    const keys = keysOf(c.var.world.db, sa.email)
      .filter((k) => (wanted.length === 0 || wanted.includes(k.keyType)) && k.validBeforeMs > at)
      .map((k) => keyResource(sa, k))
    return c.json(keys.length ? { keys } : {}, 200)
  })
  .openapi(keysGet, (c) => {
    const { project, account, keyId } = c.req.valid('param')
    const sa = accountFor(c, project, account, 'iam.serviceAccountKeys.get')
    return c.json(keyResource(sa, keyOf(c, sa, keyId)), 200)
  })
  .openapi(keysDelete, (c) => {
    const { project, account, keyId } = c.req.valid('param')
    const sa = accountFor(c, project, account, 'iam.serviceAccountKeys.delete')
    const k = keyOf(c, sa, keyId)
    if (k.keyType === 'SYSTEM_MANAGED') {
      throw new GoogleApiError('INVALID_ARGUMENT', 'badRequest', 'System-managed keys cannot be deleted.')
    }
    c.var.world.tx((db) => deleteKey(db, k.keyId, nowMs(db)))
    return c.json({}, 200)
  })
