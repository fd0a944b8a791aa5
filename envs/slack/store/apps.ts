import { createHash, timingSafeEqual } from 'node:crypto'
import { stmt, type Db } from '../../core/db.ts'
import type { WorldKeys } from '../../core/tokens.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { parseJson, teamId, type UserRow } from './core.ts'
import { parseJsonWithin } from '../../core/json-width.ts'

export type AppRow = {
  id: string
  manifest: string
  creator: string
  bot_user: string | null
  created: number
  updated: number
}
export type Manifest = {
  display_information: { name: string; description?: string }
  features?: { bot_user?: { display_name: string; always_online?: boolean } }
  oauth_config?: { redirect_urls?: string[]; scopes?: { bot?: string[]; user?: string[] } }
  settings?: Record<string, unknown>
}

const secret = (keys: WorldKeys, kind: string, appId: string) => keys.derive(`slack-app\u0000${kind}\u0000${appId}`, 64)

/**
 * An app's credentials: client_id `<team id without T>.<app id without A>`, a 32-hex client_secret and
 * signing secret, HMACs under the world's secret (so no agent computes them from the seed).
 */
export function credentials(keys: WorldKeys, db: Db, appId: string) {
  return {
    client_id: `${teamId(db).slice(1)}.${appId.slice(1)}`,
    client_secret: secret(keys, 'client_secret', appId).slice(0, 32),
    verification_token: secret(keys, 'verification', appId).slice(0, 24),
    signing_secret: secret(keys, 'signing', appId).slice(0, 32),
  }
}

/**
 * The authorization code `user` gets for approving `app`: `<app id>-<user id>-<32 hex>` (reusable; see COVERAGE.md).
 */
export const authCode = (keys: WorldKeys, appId: string, userId: string) =>
  `${appId}-${userId}-${secret(keys, `code:${userId}`, appId).slice(0, 32)}`

/** An installable app: one created from a manifest, or a seeded bot's app (A + bot id). */
export type App = { id: string; manifest: Manifest | null; botUser: string | null; row?: AppRow }
export function appByClientId(db: Db, clientId: string | undefined): App | undefined {
  const m = /^([A-Z0-9]+)\.([A-Z0-9]+)$/.exec(clientId ?? '')
  if (!m || m[1] !== teamId(db).slice(1)) return undefined
  return appById(db, `A${m[2]}`)
}
export function appById(db: Db, id: string): App | undefined {
  const row = stmt(db, 'SELECT * FROM slack_apps WHERE id = ?').get(id) as AppRow | undefined
  if (row)
    return {
      id,
      manifest: parseJson<Manifest>(row.manifest, { display_information: { name: '' } }),
      botUser: row.bot_user,
      row,
    }
  const bot = stmt(db, "SELECT * FROM slack_users WHERE bot_id = ? AND is_bot = 1 AND id != 'USLACKBOT'").get(
    `B${id.slice(1)}`,
  ) as UserRow | undefined
  return bot ? { id, manifest: null, botUser: bot.id } : undefined
}

/** Checks client credentials, returning the app or Slack's error. */
export function checkClient(
  keys: WorldKeys,
  db: Db,
  clientId: string | undefined,
  clientSecret: string | undefined,
): App {
  const app = appByClientId(db, clientId)
  if (!app) throw new SlackApiError('invalid_client_id')
  if (!sameSecret(clientSecret, credentials(keys, db, app.id).client_secret))
    throw new SlackApiError('bad_client_secret')
  return app
}

/** Compares a presented secret with the real one in constant time (over equal-length digests of both). */
export function sameSecret(given: string | undefined, real: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v, 'utf8').digest()
  return given !== undefined && timingSafeEqual(digest(given), digest(real))
}

/**
 * Whether a `redirect_uri` is allowed by one of the app's Redirect URLs, as Slack's OAuth documentation words it:
 * "the redirect URL's host and port must exactly match the callback URL. The redirect URL's path must reference a
 * subdirectory of the callback URL" (scheme too; a path segment boundary, so `/oauth` does not allow `/oauthx`).
 */
export function redirectAllowed(uri: string, configured: string): boolean {
  let a: URL, b: URL
  try {
    a = new URL(uri)
    b = new URL(configured)
  } catch {
    return false
  }
  if (a.protocol !== b.protocol || a.host !== b.host || a.username || a.password) return false
  const base = b.pathname.endsWith('/') ? b.pathname : `${b.pathname}/`
  return a.pathname === b.pathname || a.pathname.startsWith(base)
}

const ALLOWED = [
  '_metadata',
  'display_information',
  'features',
  'oauth_config',
  'settings',
  'functions',
  'workflows',
  'outgoing_domains',
  'types',
]
/** Validates a manifest the way apps.manifest.validate reports it: a list of `{message, pointer}`. */
export function manifestErrors(raw: unknown): { manifest?: Manifest; errors: { message: string; pointer: string }[] } {
  let v = raw
  if (typeof v === 'string') {
    try {
      v = parseJsonWithin(v)
    } catch {
      return { errors: [{ message: 'Manifest is not valid JSON', pointer: '/' }] }
    }
  }
  const errors: { message: string; pointer: string }[] = []
  if (!v || typeof v !== 'object' || Array.isArray(v))
    return { errors: [{ message: 'Manifest must be an object', pointer: '/' }] }
  const m = v as Record<string, unknown>
  for (const k of Object.keys(m))
    if (!ALLOWED.includes(k)) errors.push({ message: 'Unknown property', pointer: `/${k}` })
  const info = m.display_information as { name?: unknown; description?: unknown } | undefined
  if (!info || typeof info.name !== 'string' || info.name.length < 1 || info.name.length > 35)
    errors.push({ message: 'Must be a string of 1 to 35 characters', pointer: '/display_information/name' })
  if (info && info.description !== undefined && (typeof info.description !== 'string' || info.description.length > 140))
    errors.push({ message: 'Must be at most 140 characters', pointer: '/display_information/description' })
  const bot = (m.features as { bot_user?: { display_name?: unknown } } | undefined)?.bot_user
  if (bot && (typeof bot.display_name !== 'string' || bot.display_name.length < 1 || bot.display_name.length > 80))
    errors.push({ message: 'Must be a string of 1 to 80 characters', pointer: '/features/bot_user/display_name' })
  const oauth = m.oauth_config as { scopes?: { bot?: unknown; user?: unknown }; redirect_urls?: unknown } | undefined
  for (const k of ['bot', 'user'] as const) {
    const s = oauth?.scopes?.[k]
    if (s !== undefined && !(Array.isArray(s) && s.every((x) => typeof x === 'string' && /^[a-z_.:-]+$/.test(x))))
      errors.push({ message: 'Must be an array of scope names', pointer: `/oauth_config/scopes/${k}` })
  }
  if (oauth?.scopes?.bot && (oauth.scopes.bot as unknown[]).length > 0 && !bot)
    errors.push({ message: 'Bot scopes require a bot user', pointer: '/features/bot_user' })
  const urls = oauth?.redirect_urls
  if (
    urls !== undefined &&
    !(Array.isArray(urls) && urls.every((u) => typeof u === 'string' && /^https?:\/\//.test(u)))
  )
    errors.push({ message: 'Must be an array of URLs', pointer: '/oauth_config/redirect_urls' })
  return errors.length ? { errors } : { manifest: m as Manifest, errors }
}
