import type { Context } from 'hono'
import { parseToken, type TokenKind } from '../../envs/core/tokens.ts'
import { CLOCK_KEY_COLUMNS, clockKeysAt, type ClockKeys } from '../../envs/core/clock.ts'
import { stmt } from '../../envs/core/db.ts'
import { keptWhileAllUnwritten } from '../../envs/core/write-epoch.ts'
import type { WorldUserRow } from '../../envs/core/world-tables.ts'
import { invalidCredentials, missingCredentials } from '../../envs/core/errors/google.ts'
import { SlackApiError } from '../../envs/core/errors/slack.ts'
import type { WorldEntry, WorldManager } from '../worlds.ts'
import type { Principal } from '../../envs/core/http.ts'
import { requestHeader } from './node-body.ts'

/**
 * `user`: the token's world user as the token was resolved (undefined when that user no longer exists).
 * `clock`: the world's clock keys, read with the token (the request's tick uses them). `access`: for a Google
 * token, its OAuth access-token row and its user's directory facts (the access check uses them).
 */
export type Resolved = {
  entry: WorldEntry
  principal: Principal
  user?: WorldUserRow
  clock: ClockKeys
  access?: AccessAndFacts
}

/** A Google token's OAuth access-token row (all null when not OAuth-issued) and its user's directory facts. */
export type AccessAndFacts = {
  a_user: string | null
  a_client: string | null
  a_expires: number | null
  suspended: number | null
  deleted_ms: number | null
}

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
  const google = checked.kind === 'google'
  const db = entry.world.db
  const kept = keptWhileAllUnwritten(
    db.$client,
    google ? GOOGLE_TABLES : TABLES,
    checked.key,
    () =>
      (stmt(db, google ? GOOGLE_TOKEN_AND_USER : TOKEN_AND_USER)
        .raw(true)
        .get(checked.key) as Row) ?? null,
    Object.freeze,
  )
  // Nothing kept on this connection (a held or file-backed world): the row and the clock keys in one statement.
  const row: Row | null =
    kept !== undefined
      ? kept
      : ((stmt(db, google ? GOOGLE_WITH_CLOCK : WITH_CLOCK)
          .raw(true)
          .get(checked.key) as Row) ?? null)
  if (!row || row[4] === 1 || row[2] !== checked.kind) return undefined
  const scopes = row[3] as string
  const principal: Principal = {
    userId: row[1] as string,
    tokenKind: row[2] as TokenKind,
    scopes: scopes ? scopes.split(',') : [],
    tokenKey: row[0] as string,
  }
  // An OAuth-issued token (its access row names a client): a service account's unique id there means delegation.
  if (google && row[15] !== null) {
    const sa = stmt(db, SERVICE_ACCOUNT_OF_CLIENT).pluck().get(row[15]) as string | undefined
    if (sa !== undefined) principal.serviceAccount = sa
  }
  const user = row[5] === null ? undefined : userAt(row, 5)
  const width = google ? GOOGLE_WIDTH : WIDTH
  const clock =
    kept !== undefined ? clockKeysAt(stmt(db, CLOCK_KEYS).raw(true).get() as Row, 0) : clockKeysAt(row, width)
  const resolved: Resolved = { entry, user, principal, clock }
  if (google) {
    resolved.access = {
      a_user: row[14] as string | null,
      a_client: row[15] as string | null,
      a_expires: row[16] as number | null,
      suspended: row[17] as number | null,
      deleted_ms: row[18] as number | null,
    }
  }
  return resolved
}

type Row = readonly unknown[]

/** `userFromRow` (envs/core/users.ts) of the nine `USER_COLUMNS` of a raw row, starting at `at`. */
function userAt(r: readonly unknown[], at: number): WorldUserRow {
  return {
    id: String(r[at]),
    email: String(r[at + 1]),
    name: String(r[at + 2]),
    givenName: String(r[at + 3]),
    familyName: String(r[at + 4]),
    timeZone: String(r[at + 5]),
    title: String(r[at + 6]),
    isAdmin: r[at + 7] === 1,
    tokenKey: String(r[at + 8]),
  }
}

/**
 * The token's row and its user's (NULL when the user is gone) in one statement; a Google token's also carries what
 * the access check reads (scopes.ts `ACCESS_AND_FACTS`): its OAuth access-token row and its user's identity_users
 * facts. Columns: 0–4 token, 5–13 user, 14–18 access and facts. It reads only `TABLES` (`GOOGLE_TABLES`), so its
 * row is kept per token key while they are unwritten (write-epoch.ts, docs/decisions/0356); the clock keys, which
 * every request writes, are read on each request (`CLOCK_KEYS`), or in the same statement where nothing is kept
 * (`WITH_CLOCK`, `GOOGLE_WITH_CLOCK`: the clock keys follow the row's columns).
 */
const USER_COLUMNS = 'u.id, u.email, u.name, u.given_name, u.family_name, u.time_zone, u.title, u.is_admin, u.token_key'
const TOKEN_COLUMNS = `t.key, t.user_id, t.kind, t.scopes, t.revoked, ${USER_COLUMNS}`
const ACCESS_COLUMNS = 'a.user_id, a.client_id, a.expires_ms, f.suspended, f.deleted_ms'
const FROM = 'FROM world_tokens t LEFT JOIN world_users u ON u.id = t.user_id'
const GOOGLE_FROM =
  `${FROM} LEFT JOIN identity_access_tokens a ON a.key = t.key ` + 'LEFT JOIN identity_users f ON f.user_id = t.user_id'
const TOKEN_AND_USER = `SELECT ${TOKEN_COLUMNS} ${FROM} WHERE t.key = ?`
const GOOGLE_TOKEN_AND_USER = `SELECT ${TOKEN_COLUMNS}, ${ACCESS_COLUMNS} ${GOOGLE_FROM} WHERE t.key = ?`
const WITH_CLOCK = `SELECT ${TOKEN_COLUMNS}, ${CLOCK_KEY_COLUMNS} ${FROM} WHERE t.key = ?`
const GOOGLE_WITH_CLOCK = `SELECT ${TOKEN_COLUMNS}, ${ACCESS_COLUMNS}, ${CLOCK_KEY_COLUMNS} ${GOOGLE_FROM} WHERE t.key = ?`
const SERVICE_ACCOUNT_OF_CLIENT = 'SELECT email FROM identity_service_accounts WHERE unique_id = ?'
const CLOCK_KEYS = `SELECT ${CLOCK_KEY_COLUMNS}`
const WIDTH = 14
const GOOGLE_WIDTH = 19
/** The tables each statement reads: a write to any of them makes the kept row be read again. */
const TABLES = ['world_tokens', 'world_users']
const GOOGLE_TABLES = [...TABLES, 'identity_access_tokens', 'identity_users']

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
