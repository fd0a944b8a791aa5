import type { Context } from 'hono'
import { findToken, parseToken } from '../../envs/core/tokens.ts'
import { findUserById } from '../../envs/core/users.ts'
import { invalidCredentials, missingCredentials } from '../../envs/core/errors/google.ts'
import { SlackApiError } from '../../envs/core/errors/slack.ts'
import type { WorldEntry, WorldManager } from '../worlds.ts'
import type { Principal } from '../../envs/core/http.ts'
import { requestHeader } from './node-body.ts'

export type Resolved = { entry: WorldEntry; principal: Principal }

/** The bearer token of a Google request: Authorization header, or `access_token` / `oauth_token` query. */
export function googleToken(c: Context): string | undefined {
  const header = requestHeader(c, 'authorization')
  const m = header ? /^Bearer\s+(\S+)$/i.exec(header.trim()) : null
  if (m) return m[1]
  return c.req.query('access_token') ?? c.req.query('oauth_token') ?? undefined
}

/** The token of a Slack request: Authorization header first, then the `token` argument. */
export function slackToken(c: Context, args: Record<string, unknown>): string | undefined {
  const header = requestHeader(c, 'authorization')
  const m = header ? /^Bearer\s+(\S+)$/i.exec(header.trim()) : null
  if (m) return m[1]
  return typeof args.token === 'string' && args.token !== '' ? args.token : undefined
}

/**
 * The world and principal of a token. The world id in the token only picks the world; the token must carry
 * that world's mac for its key, so swapping the id, computing a key from the seed or keeping a token past a
 * key rotation (finished episodes) all fail.
 */
export function resolveToken(worlds: WorldManager, token: string): Resolved | undefined {
  const parsed = parseToken(token)
  if (!parsed) return undefined
  const entry = worlds.find(parsed.worldId)
  const checked = entry?.keys.check(token)
  if (!entry || !checked) return undefined
  const row = findToken(entry.world.db, checked.key)
  if (!row || row.revoked || row.kind !== checked.kind) return undefined
  return { entry, principal: {
    userId: row.userId, tokenKind: row.kind, scopes: row.scopes ? row.scopes.split(',') : [], tokenKey: row.key,
  } }
}

/** Google identity: 401 in Google's envelope when the token is missing, unknown or not a Google token. */
export function resolveGoogle(worlds: WorldManager, c: Context): Resolved {
  const token = googleToken(c)
  if (!token) throw missingCredentials()
  const found = resolveToken(worlds, token)
  if (!found || found.principal.tokenKind !== 'google') throw invalidCredentials()
  return found
}

/** Slack identity: `not_authed` without a token, `invalid_auth` for an unknown or revoked one. */
export function resolveSlack(worlds: WorldManager, c: Context, args: Record<string, unknown>): Resolved {
  const token = slackToken(c, args)
  if (!token) throw new SlackApiError('not_authed')
  const found = resolveToken(worlds, token)
  if (!found || found.principal.tokenKind === 'google') throw new SlackApiError('invalid_auth')
  return found
}

export function userOf(found: Resolved) {
  const user = findUserById(found.entry.world.db, found.principal.userId)
  return user
}
