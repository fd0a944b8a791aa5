import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { nowMs } from '../../core/clock.ts'
import { accountFor } from '../iam-access.ts'
import { signBytes, signJwt } from '../sa-keys.ts'
import { systemKeyOf, type ServiceAccountRow } from '../store/service-accounts.ts'
import { parseJsonWithin } from '../../core/json-width.ts'
import { json, Any, Body } from './openapi-shapes.ts'

const Account = z.object({ project: z.string(), account: z.string() })
const base = '/v1/projects/{project}/serviceAccounts/{account}'
/** signJwt refuses an `exp` more than 12 hours ahead and adds one an hour ahead when the payload has none. */
const MAX_EXP_S = 12 * 3600

const signJwtRoute = createRoute({
  operationId: 'iamcredentials.projects.serviceAccounts.signJwt',
  method: 'post',
  path: `${base}/~signJwt`,
  request: { params: Account, body: Body },
  responses: { 200: Any },
})
const signBlobRoute = createRoute({
  operationId: 'iamcredentials.projects.serviceAccounts.signBlob',
  method: 'post',
  path: `${base}/~signBlob`,
  request: { params: Account, body: Body },
  responses: { 200: Any },
})

const invalid = (message: string) => new GoogleApiError('INVALID_ARGUMENT', 'badRequest', message)

/** The account to sign as, after the Token Creator check; `delegates` chains are not supported. */
type Params = { project: string; account: string }
function signer(c: WorldContext, { project, account }: Params, permission: string, body: Record<string, unknown>) {
  if (project !== '-') throw invalid('The project ID must be a hyphen (-).')
  const sa = accountFor(c, project, account, permission)
  if (Array.isArray(body.delegates) && body.delegates.length > 0) {
    // Deviation: delegation chains (`delegates`) are refused rather than checked link by link.
    throw invalid('Delegation chains are not supported.')
  }
  if (sa.disabled) throw new GoogleApiError('FAILED_PRECONDITION', 'failedPrecondition', 'Service account is disabled.')
  return sa
}

function systemKey(c: WorldContext, sa: ServiceAccountRow): string {
  const k = systemKeyOf(c.var.world.db, sa.email, nowMs(c.var.world.db))
  if (!k) throw new GoogleApiError('FAILED_PRECONDITION', 'failedPrecondition', 'Precondition check failed.')
  return k.keyId
}

/** The claims to sign: a JSON object whose `exp` (added when absent) is at most 12 hours ahead of the world clock. */
function jwtPayload(c: WorldContext, raw: unknown): string {
  if (typeof raw !== 'string' || raw === '') throw invalid('Invalid payload: the payload must be a JSON object.')
  let claims: unknown
  try {
    claims = parseJsonWithin(raw)
  } catch {
    throw invalid('Invalid payload: the payload must be a JSON object.')
  }
  if (!claims || typeof claims !== 'object' || Array.isArray(claims)) {
    throw invalid('Invalid payload: the payload must be a JSON object.')
  }
  const nowS = Math.floor(nowMs(c.var.world.db) / 1000)
  const exp = (claims as Record<string, unknown>).exp
  if (exp === undefined) return JSON.stringify({ ...claims, exp: nowS + 3600 })
  if (typeof exp !== 'number' || exp < nowS || exp > nowS + MAX_EXP_S) {
    throw invalid('Invalid payload: the exp claim must be a timestamp not in the past and no more than 12 hours ahead.')
  }
  return raw
}

/** IAM Credentials: sign a JWT or bytes with a service account's Google-managed key (needs Token Creator). */
export const iamCredentialsRouter = createGoogleRouter()
  .openapi(signJwtRoute, async (c) => {
    const body = c.req.valid('json') as Record<string, unknown>
    const sa = signer(c, c.req.valid('param'), 'iam.serviceAccounts.signJwt', body)
    const keyId = systemKey(c, sa)
    const payload = jwtPayload(c, body.payload)
    return c.json({ keyId, signedJwt: await signJwt(c.var.keys, keyId, payload) }, 200)
  })
  .openapi(signBlobRoute, async (c) => {
    const body = c.req.valid('json') as Record<string, unknown>
    const sa = signer(c, c.req.valid('param'), 'iam.serviceAccounts.signBlob', body)
    const payload = body.payload
    if (typeof payload !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(payload)) {
      throw invalid("Invalid value at 'payload' (TYPE_BYTES), Base64 decoding failed.")
    }
    const keyId = systemKey(c, sa)
    return c.json({ keyId, signedBlob: await signBytes(c.var.keys, keyId, Buffer.from(payload, 'base64')) }, 200)
  })
