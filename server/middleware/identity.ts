import type { Context } from 'hono'
import { parseToken, type TokenKind } from '../../envs/core/tokens.ts'
import { userFromRow } from '../../envs/core/users.ts'
import { stmt } from '../../envs/core/db.ts'
import type { WorldUserRow } from '../../envs/core/world-tables.ts'
import { invalidCredentials, missingCredentials } from '../../envs/core/errors/google.ts'
import { SlackApiError } from '../../envs/core/errors/slack.ts'
import type { WorldEntry, WorldManager } from '../worlds.ts'
import type { Principal } from '../../envs/core/http.ts'
import { requestHeader } from './node-body.ts'

/** `user`: the token's world user as the token was resolved (undefined when that user no longer exists). */
export type Resolved = { entry: WorldEntry; principal: Principal; user?: WorldUserRow }

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
  const row = stmt(entry.world.db, TOKEN_AND_USER).get(checked.key) as TokenAndUser | undefined
  if (!row || row.t_revoked === 1 || row.t_kind !== checked.kind) return undefined
  const user = row.id === null ? undefined : userFromRow(row)
  return { entry, user, principal: {
    userId: row.t_user, tokenKind: row.t_kind, scopes: row.t_scopes ? row.t_scopes.split(',') : [], tokenKey: row.t_key,
  } }
}

/**
 * The token's row and its user's, in one statement (findToken, then findUserById on every request before):
 * the user columns are NULL when the token's user is gone.
 */
const TOKEN_AND_USER = 'SELECT t.key AS t_key, t.user_id AS t_user, t.kind AS t_kind, t.scopes AS t_scopes, ' +
  't.revoked AS t_revoked, u.id, u.email, u.name, u.given_name, u.family_name, u.time_zone, u.title, u.is_admin, ' +
  'u.token_key FROM world_tokens t LEFT JOIN world_users u ON u.id = t.user_id WHERE t.key = ?'

type TokenAndUser = {
  t_key: string; t_user: string; t_kind: TokenKind; t_scopes: string; t_revoked: number
  id: string | null
} & Record<string, string | number | null>

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

export function userOf(found: Resolved): WorldUserRow | undefined {
  return found.user
}
