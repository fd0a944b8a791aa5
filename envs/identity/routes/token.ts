import { createHash, timingSafeEqual } from 'node:crypto'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { nowMs } from '../../core/clock.ts'
import { findUserById } from '../../core/users.ts'
import { findToken } from '../../core/tokens.ts'
import {
  checkCredential,
  clientSecret,
  findAccess,
  findClient,
  findCode,
  findGrant,
  findRefresh,
  issueAccessToken,
  issueRefreshToken,
  markCodeUsed,
  revokeClientTokens,
  revokeGrant,
  touchGrant,
  type ClientRow,
} from '../store/oauth.ts'
import { googleUserId } from '../ids.ts'
import { idToken } from '../oidc.ts'
import { basicAuth, oauthError, oauthParams } from './params.ts'
import { JWT_BEARER, jwtBearer } from './jwt-bearer.ts'

const same = (a: string, b: string) => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** The client a token request authenticates as (body or HTTP Basic), or Google's `invalid_client`. */
function authenticate(c: WorldContext, p: Record<string, string>): ClientRow | Response {
  const basic = basicAuth(c)
  const id = basic?.id ?? p.client_id
  const secret = basic?.secret ?? p.client_secret
  const client = findClient(c.var.world.db, id)
  if (!client) return oauthError(c, 401, 'invalid_client', 'The OAuth client was not found.')
  if (!secret || !same(secret, clientSecret(c.var.keys, client.clientId))) {
    return oauthError(c, 401, 'invalid_client', 'Unauthorized')
  }
  return client
}

function pkceOk(challenge: string, method: string | null, verifier: string): boolean {
  const computed = method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier
  return same(computed, challenge)
}

async function exchangeCode(c: WorldContext, client: ClientRow, p: Record<string, string>) {
  const db = c.var.world.db
  if (!p.code) return oauthError(c, 400, 'invalid_request', 'Missing required parameter: code')
  const id = checkCredential(c.var.keys, 'code', p.code)
  const row = id ? findCode(db, id) : undefined
  if (!row) return oauthError(c, 400, 'invalid_grant', 'Malformed auth code.')
  if (row.used && row.clientId === client.clientId) {
    // A second exchange means the code leaked (RFC 6749 §4.1.2, §10.5: the server SHOULD revoke what the first one
    // issued). Deviation: tokens are not recorded per code, so every token the app holds for the user dies (the
    // user's consent stays); Google does not document how far its revocation reaches.
    c.var.world.tx((tx) => revokeClientTokens(tx, row.userId, row.clientId))
    return oauthError(c, 400, 'invalid_grant', 'Bad Request')
  }
  if (
    row.used ||
    row.expiresMs < nowMs(db) ||
    row.clientId !== client.clientId ||
    !findGrant(db, row.userId, row.clientId)
  ) {
    return oauthError(c, 400, 'invalid_grant', 'Bad Request')
  }
  if (p.redirect_uri !== row.redirectUri) return oauthError(c, 400, 'redirect_uri_mismatch', 'Bad Request')
  if (row.codeChallenge) {
    if (!p.code_verifier) return oauthError(c, 400, 'invalid_grant', 'Missing code verifier.')
    if (!pkceOk(row.codeChallenge, row.challengeMethod, p.code_verifier)) {
      return oauthError(c, 400, 'invalid_grant', 'Invalid code verifier.')
    }
  }
  const scopes = row.scopes.split(' ')
  const issued = c.var.world.tx((tx) => {
    markCodeUsed(tx, row.id)
    touchGrant(tx, row.userId, row.clientId)
    const refresh = row.offline ? issueRefreshToken(tx, c.var.keys, row.userId, row.clientId, scopes) : undefined
    const refreshId = refresh ? checkCredential(c.var.keys, 'refresh', refresh)! : null
    return { ...issueAccessToken(tx, c.var.keys, row.userId, row.clientId, scopes, refreshId), refresh }
  })
  const body: Record<string, unknown> = {
    access_token: issued.token,
    expires_in: issued.expiresIn,
    ...(issued.refresh ? { refresh_token: issued.refresh } : {}),
    scope: scopes.join(' '),
    token_type: 'Bearer',
  }
  if (scopes.includes('openid')) body.id_token = await signedIdToken(c, row.userId, client.clientId, scopes, row.nonce)
  return c.json(body, 200)
}

async function signedIdToken(c: WorldContext, userId: string, aud: string, scopes: string[], nonce: string | null) {
  const db = c.var.world.db
  const user = findUserById(db, userId)!
  return idToken(c.var.keys, {
    sub: googleUserId(db, userId),
    aud,
    email: user.email,
    name: user.name,
    givenName: user.givenName,
    familyName: user.familyName,
    nonce,
    scopes,
    nowS: Math.floor(nowMs(db) / 1000),
    hd: user.email.split('@')[1],
  })
}

async function refresh(c: WorldContext, client: ClientRow, p: Record<string, string>) {
  const db = c.var.world.db
  if (!p.refresh_token) return oauthError(c, 400, 'invalid_request', 'Missing required parameter: refresh_token')
  const id = checkCredential(c.var.keys, 'refresh', p.refresh_token)
  const row = id ? findRefresh(db, id) : undefined
  if (!row || row.revoked) return oauthError(c, 400, 'invalid_grant', 'Token has been expired or revoked.')
  if (row.clientId !== client.clientId) return oauthError(c, 400, 'unauthorized_client', 'Unauthorized')
  const scopes = row.scopes.split(' ')
  const issued = c.var.world.tx((tx) => {
    touchGrant(tx, row.userId, row.clientId)
    return issueAccessToken(tx, c.var.keys, row.userId, row.clientId, scopes, row.id)
  })
  const body: Record<string, unknown> = {
    access_token: issued.token,
    expires_in: issued.expiresIn,
    scope: scopes.join(' '),
    token_type: 'Bearer',
  }
  if (scopes.includes('openid')) body.id_token = await signedIdToken(c, row.userId, client.clientId, scopes, null)
  return c.json(body, 200)
}

async function token(c: WorldContext) {
  const p = await oauthParams(c)
  const grantType = p.grant_type
  if (!grantType) return oauthError(c, 400, 'unsupported_grant_type', 'Invalid grant_type: ')
  if (grantType === JWT_BEARER) return jwtBearer(c, p)
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
    return oauthError(c, 400, 'unsupported_grant_type', `Invalid grant_type: ${grantType}`)
  }
  const client = authenticate(c, p)
  if (client instanceof Response) return client
  return grantType === 'authorization_code' ? exchangeCode(c, client, p) : refresh(c, client, p)
}

/** The (user, client) behind an access or refresh token of this world; undefined for anything else. */
function grantOfToken(c: WorldContext, value: string): { userId: string; clientId: string; key?: string } | undefined {
  const db = c.var.world.db
  const refreshId = checkCredential(c.var.keys, 'refresh', value)
  if (refreshId) {
    const row = findRefresh(db, refreshId)
    return row && !row.revoked ? { userId: row.userId, clientId: row.clientId } : undefined
  }
  const checked = c.var.keys.check(value)
  if (!checked || checked.kind !== 'google') return undefined
  const access = findAccess(db, checked.key)
  const row = findToken(db, checked.key)
  if (!access || !row || row.revoked || access.expiresMs < nowMs(db)) return undefined
  return { userId: access.userId, clientId: access.clientId, key: checked.key }
}

async function revoke(c: WorldContext) {
  const p = await oauthParams(c)
  const found = p.token ? grantOfToken(c, p.token) : undefined
  if (!found) return oauthError(c, 400, 'invalid_token', 'Token expired or revoked')
  c.var.world.tx((db) => revokeGrant(db, found.userId, found.clientId))
  return c.json({}, 200)
}

async function tokeninfo(c: WorldContext) {
  const p = await oauthParams(c)
  const db = c.var.world.db
  const found = p.access_token ? grantOfToken(c, p.access_token) : undefined
  if (!found?.key) return oauthError(c, 400, 'invalid_token', 'Invalid Value')
  const access = findAccess(db, found.key)!
  const scopes = (findToken(db, found.key)?.scopes ?? '').split(',')
  const user = findUserById(db, found.userId)!
  const exp = Math.floor(access.expiresMs / 1000)
  const body: Record<string, unknown> = {
    azp: found.clientId,
    aud: found.clientId,
    sub: googleUserId(db, found.userId),
    scope: scopes.join(' '),
    exp: String(exp),
    expires_in: String(Math.max(0, exp - Math.floor(nowMs(db) / 1000))),
  }
  if (scopes.includes('https://www.googleapis.com/auth/userinfo.email')) {
    Object.assign(body, { email: user.email, email_verified: 'true' })
  }
  body.access_type = access.refreshId ? 'offline' : 'online'
  return c.json(body, 200)
}

/** Token, revocation and token-information endpoints (no bearer token: the credential in the body names the world). */
export const tokenRouter = createGoogleRouter()
for (const path of ['/token', '/o/oauth2/token', '/oauth2/v4/token']) tokenRouter.post(path, token)
for (const path of ['/revoke', '/o/oauth2/revoke']) {
  tokenRouter.post(path, revoke)
  tokenRouter.get(path, revoke)
}
for (const path of ['/tokeninfo', '/oauth2/v3/tokeninfo']) {
  tokenRouter.get(path, tokeninfo)
  tokenRouter.post(path, tokeninfo)
}
