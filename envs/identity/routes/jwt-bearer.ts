import type { WorldContext } from '../../core/http.ts'
import { nowMs } from '../../core/clock.ts'
import { findUserByEmail } from '../../core/users.ts'
import { issueAccessToken, normalizeScopes } from '../store/oauth.ts'
import { inDomain, isActive } from '../store/users.ts'
import { delegatedScopes, findServiceAccount, findKey, keysOf, type KeyRow } from '../store/service-accounts.ts'
import { parseJwt, verifiedBy, type ParsedJwt } from '../sa-keys.ts'
import { oauthError } from './params.ts'

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer'

/** Audiences Google's token endpoint accepts in an assertion (the current one and its two older names). */
const AUDIENCES = new Set([
  'https://oauth2.googleapis.com/token',
  'https://www.googleapis.com/oauth2/v4/token',
  'https://accounts.google.com/o/oauth2/token',
])
/** An assertion may live at most an hour; Google allows a few minutes of clock skew. */
const MAX_LIFETIME_S = 3600
const SKEW_S = 300

export const BAD_SIGNATURE = 'Invalid JWT Signature.'
export const BAD_TIMEFRAME =
  'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable ' +
  'timeframe. Check your iat and exp values in the assertion and use a clock with skew to account for clock ' +
  'differences between systems.'
export const NOT_DELEGATED =
  'Client is unauthorized to retrieve access tokens using this method, or client not ' +
  'authorized for any of the scopes requested.'

/** Tries the key the header names, else every live key of the account that is valid now. */
async function signedByAccount(c: WorldContext, email: string, jwt: ParsedJwt, atMs: number): Promise<boolean> {
  const db = c.var.world.db
  const kid = typeof jwt.header.kid === 'string' ? jwt.header.kid : undefined
  const usable = (k: KeyRow | undefined) =>
    k !== undefined && k.email === email && k.deletedMs === null && k.validAfterMs <= atMs && atMs < k.validBeforeMs
  const candidates = kid ? [findKey(db, kid)].filter(usable) : keysOf(db, email).filter(usable)
  for (const k of candidates) if (await verifiedBy(c.var.keys, k!.keyId, jwt)) return true
  return false
}

/**
 * The assertion's `aud` without a `?world=<this world>` query. Deviation: a key file's `token_uri` names its world
 * so (keys.create writes it), and google-auth for Python signs `token_uri` as the audience; any other query, or
 * another world's name, stays and fails the audience check.
 */
function withoutWorld(aud: unknown, worldId: string): string {
  const text = String(aud)
  const at = text.indexOf('?')
  if (at < 0) return text
  const query = new URLSearchParams(text.slice(at + 1))
  return [...query.keys()].length === 1 && query.getAll('world').join() === worldId ? text.slice(0, at) : text
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

/**
 * The JWT-bearer grant (RFC 7523) as Google runs it for service accounts: the assertion is signed by one of the
 * account's keys, names Google's token endpoint as `aud`, lives at most an hour (world clock), and asks for `scope`.
 * With `sub`, the token acts as that user and needs domain-wide delegation of every scope asked for; without it, the
 * token is the service account's own.
 */
export async function jwtBearer(c: WorldContext, p: Record<string, string>) {
  const db = c.var.world.db
  if (!p.assertion) return oauthError(c, 400, 'invalid_request', 'Missing required parameter: assertion')
  const jwt = parseJwt(p.assertion)
  if (!jwt) return oauthError(c, 400, 'invalid_grant', BAD_SIGNATURE)
  const iss = typeof jwt.claims.iss === 'string' ? jwt.claims.iss : ''
  const sa = iss ? findServiceAccount(db, iss) : undefined
  const at = nowMs(db)
  // An unknown account answers as a bad signature does: the endpoint says nothing about which accounts exist.
  if (!sa || !(await signedByAccount(c, sa.email, jwt, at))) return oauthError(c, 400, 'invalid_grant', BAD_SIGNATURE)
  if (sa.disabled) return oauthError(c, 400, 'invalid_grant', 'Invalid grant: account not found')
  // Deviation: the token endpoint this server's discovery document advertises (its own origin) is accepted too.
  const own = `${new URL(c.req.url).origin}/token`
  const aud = withoutWorld(jwt.claims.aud, c.var.worldId)
  if (!AUDIENCES.has(aud) && aud !== own) {
    return oauthError(c, 400, 'invalid_grant', 'Invalid JWT: Failed audience check.')
  }
  const iat = num(jwt.claims.iat)
  const exp = num(jwt.claims.exp)
  const nowS = Math.floor(at / 1000)
  if (
    iat === undefined ||
    exp === undefined ||
    exp <= iat ||
    exp - iat > MAX_LIFETIME_S ||
    iat > nowS + SKEW_S ||
    exp < nowS - SKEW_S
  ) {
    return oauthError(c, 400, 'invalid_grant', BAD_TIMEFRAME)
  }
  const scopes = normalizeScopes(typeof jwt.claims.scope === 'string' ? jwt.claims.scope : '')
  if (scopes.length === 0) {
    return oauthError(c, 400, 'invalid_scope', 'Invalid OAuth scope or ID token audience provided.')
  }
  let userId = `serviceAccount:${sa.email}`
  if (jwt.claims.sub !== undefined && jwt.claims.sub !== sa.email) {
    const user = typeof jwt.claims.sub === 'string' ? findUserByEmail(db, jwt.claims.sub) : undefined
    if (!user || !inDomain(db, user) || !isActive(db, user.id)) {
      return oauthError(c, 400, 'invalid_grant', 'Invalid email or User ID')
    }
    const allowed = new Set(delegatedScopes(db, sa.uniqueId))
    if (!scopes.every((s) => allowed.has(s))) return oauthError(c, 401, 'unauthorized_client', NOT_DELEGATED)
    userId = user.id
  }
  const issued = c.var.world.tx((tx) => issueAccessToken(tx, c.var.keys, userId, sa.uniqueId, scopes, null))
  return c.json({ access_token: issued.token, expires_in: issued.expiresIn, token_type: 'Bearer' }, 200)
}
