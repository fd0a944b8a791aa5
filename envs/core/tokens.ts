import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { stmt, type Db } from './db.ts'
import { getMeta } from './clock.ts'
import { worldTokens } from './world-tables.ts'
import type { Principal } from './http.ts'

// Tokens carry the world id so one process can serve many worlds:
//   Google  ya29.<worldId>.<key><mac>   Slack user  xoxp-<worldId>-<key><mac>   Slack bot  xoxb-<worldId>-<key><mac>
// <key> (24 hex) names a row of world_tokens (principal, kind, scopes); it follows from the seed and is not secret.
// <mac> (32 hex = 128 bits) is an HMAC over world id, kind and key under the world's own secret, which the
// server keeps outside the world database (see WorldKeys and docs/decisions/0104-world-secrets.md).

export type TokenKind = Principal['tokenKind']

const PREFIX: Record<TokenKind, (world: string, key: string) => string> = {
  google: (w, k) => `ya29.${w}.${k}`,
  slack_user: (w, k) => `xoxp-${w}-${k}`,
  slack_bot: (w, k) => `xoxb-${w}-${k}`,
}

/** Scopes a seeded Slack user token holds unless the seed says otherwise. */
export const DEFAULT_SLACK_USER_SCOPES = [
  'channels:read',
  'channels:write',
  'channels:history',
  'groups:read',
  'groups:write',
  'groups:history',
  'im:read',
  'im:write',
  'im:history',
  'mpim:read',
  'mpim:write',
  'mpim:history',
  'chat:write',
  'users:read',
  'users:read.email',
  'users:write',
  'users.profile:read',
  'users.profile:write',
  'reactions:read',
  'reactions:write',
  'pins:read',
  'pins:write',
  'bookmarks:read',
  'bookmarks:write',
  'stars:read',
  'stars:write',
  'reminders:read',
  'reminders:write',
  'dnd:read',
  'dnd:write',
  'usergroups:read',
  'usergroups:write',
  'files:read',
  'files:write',
  'search:read',
  'team:read',
  'emoji:read',
  'identify',
] as const

/**
 * Scopes a seeded Google user token holds unless the seed narrows them: every scope the served methods need
 * (Gmail, Calendar, Drive, Docs, the Directory API's user/group/org unit/customer/domain/token/resource/user
 * schema scopes, Data Transfer, IAM) and sign-in.
 */
export const FULL_GOOGLE_SCOPES = [
  'https://mail.google.com/',
  'https://www.googleapis.com/auth/gmail.settings.basic',
  'https://www.googleapis.com/auth/gmail.settings.sharing',
  'https://www.googleapis.com/auth/calendar',
  'https://www.googleapis.com/auth/drive',
  'https://www.googleapis.com/auth/drive.apps.readonly',
  'https://www.googleapis.com/auth/documents',
  'https://www.googleapis.com/auth/admin.directory.user',
  'https://www.googleapis.com/auth/admin.directory.user.security',
  'https://www.googleapis.com/auth/admin.directory.group',
  'https://www.googleapis.com/auth/admin.directory.group.member',
  'https://www.googleapis.com/auth/admin.directory.orgunit',
  'https://www.googleapis.com/auth/admin.directory.customer',
  'https://www.googleapis.com/auth/admin.directory.domain',
  'https://www.googleapis.com/auth/admin.directory.rolemanagement',
  'https://www.googleapis.com/auth/admin.directory.userschema',
  'https://www.googleapis.com/auth/admin.datatransfer',
  'https://www.googleapis.com/auth/admin.directory.resource.calendar',
  'https://www.googleapis.com/auth/cloud-platform',
  'openid',
  'https://www.googleapis.com/auth/userinfo.email',
  'https://www.googleapis.com/auth/userinfo.profile',
] as const

/** Derives and stores a token key for a principal; the same seed gives the same key (the mac is the secret). */
export function issueTokenKey(db: Db, userId: string, kind: TokenKind, scopes: readonly string[]): string {
  const salt = getMeta(db, 'id_salt') ?? ''
  const key = createHash('sha256')
    .update(`${salt}\u0000token\u0000${kind}\u0000${userId}`)
    .digest('hex')
    .slice(0, KEY_CHARS)
  stmt(
    db,
    'INSERT INTO world_tokens (key, user_id, kind, scopes, revoked) VALUES (?, ?, ?, ?, 0) ' + 'ON CONFLICT DO NOTHING',
  ).run(key, userId, kind, scopes.join(','))
  return key
}

/** Length of the public key part of a token (hex characters). */
export const KEY_CHARS = 24
const MAC_CHARS = 32

const TOKEN_BODY = `([0-9a-f]{${KEY_CHARS}})([0-9a-f]{${MAC_CHARS}})`
const GOOGLE_TOKEN = new RegExp(`^ya29\\.([a-z0-9_]+)\\.${TOKEN_BODY}$`)
const SLACK_TOKEN = new RegExp(`^xox([pb])-([a-z0-9_]+)-${TOKEN_BODY}$`)

/**
 * Splits a presented token into (kind, world id, key, mac); undefined when it is not shaped like one of ours.
 * Parsing proves nothing: `WorldKeys.check` verifies the mac.
 */
export function parseToken(token: string): { kind: TokenKind; worldId: string; key: string; mac: string } | undefined {
  let m = GOOGLE_TOKEN.exec(token)
  if (m) return { kind: 'google', worldId: m[1]!, key: m[2]!, mac: m[3]! }
  m = SLACK_TOKEN.exec(token)
  if (m) return { kind: m[1] === 'p' ? 'slack_user' : 'slack_bot', worldId: m[2]!, key: m[3]!, mac: m[4]! }
  return undefined
}

/**
 * The world id a token names, for routing only (a front process picking a worker): no length or mac checks, since
 * the worker that holds the world verifies the token. Undefined when it is not shaped like one of ours.
 */
export function worldIdOfToken(token: string): string | undefined {
  return /^ya29\.([a-z0-9_]+)\.[0-9a-f]+$/.exec(token)?.[1] ?? /^xox[pb]-([a-z0-9_]+)-[0-9a-f]+$/.exec(token)?.[1]
}

/** The published secret of the `demo` world that `wsgym serve` starts, so the README's tokens work as written. */
/** Verified tokens a world's key set remembers (a world has a few dozen tokens; past this it starts over). */
const VERIFIED_CAP = 1024

export const DEMO_WORLD_SECRET = 'workspace-gym-demo-world-public-secret'

/**
 * The secrets of one world: a random 256-bit key held by the server (never in the world database, so
 * snapshots carry no secrets and equal seeds still give byte-identical worlds). Everything an agent must not
 * be able to compute (token macs, OAuth client secrets and codes, refresh tokens, upload ids) is an HMAC under
 * it. A fork or another episode gets a fresh key, so nothing issued for one world opens another.
 */
export class WorldKeys {
  readonly #secret: Buffer
  /**
   * Tokens this key set has already verified (an HMAC per request otherwise): a pure function of the secret and
   * the token, so it can only repeat a verdict; bounded, and gone with this object when the key rotates.
   */
  readonly #verified = new Map<string, { kind: TokenKind; key: string }>()

  constructor(
    readonly worldId: string,
    secret: Buffer | string,
  ) {
    this.#secret = typeof secret === 'string' ? Buffer.from(secret) : secret
  }

  /** A fresh key from the operating system's cryptographic generator. */
  static random(worldId: string): WorldKeys {
    return new WorldKeys(worldId, randomBytes(32))
  }

  /**
   * The key every process sharing `serverSecret` (`WSGYM_SECRET`) derives for a world id, so workers and hosts
   * behind one proxy mint and verify the same tokens: HMAC-SHA256 of the id under the server secret.
   */
  static shared(worldId: string, serverSecret: Buffer): WorldKeys {
    return new WorldKeys(
      worldId,
      createHmac('sha256', serverSecret).update(`wsgym world secret\u0000${worldId}`).digest(),
    )
  }

  /** The secret as hex, for the data directory's `<world>.key` file. */
  exportHex(): string {
    return this.#secret.toString('hex')
  }

  /** Hex HMAC-SHA256 of `label` under this world's secret (at most 64 characters). */
  derive(label: string, chars = 32): string {
    return createHmac('sha256', this.#secret).update(`${this.worldId}\u0000${label}`).digest('hex').slice(0, chars)
  }

  #mac(kind: TokenKind, key: string): string {
    return this.derive(`token\u0000${kind}\u0000${key}`, MAC_CHARS)
  }

  /** The bearer token of a world_tokens row. */
  token(kind: TokenKind, key: string): string {
    return PREFIX[kind](this.worldId, key + this.#mac(kind, key))
  }

  /** (kind, key) of a token issued by this world's keys; undefined for anything else. */
  check(token: string): { kind: TokenKind; key: string } | undefined {
    const known = this.#verified.get(token)
    if (known) return { kind: known.kind, key: known.key }
    const parsed = parseToken(token)
    if (!parsed || parsed.worldId !== this.worldId) return undefined
    const want = Buffer.from(this.#mac(parsed.kind, parsed.key))
    const given = Buffer.from(parsed.mac)
    if (want.length !== given.length || !timingSafeEqual(want, given)) return undefined
    if (this.#verified.size >= VERIFIED_CAP) this.#verified.clear()
    this.#verified.set(token, { kind: parsed.kind, key: parsed.key })
    return { kind: parsed.kind, key: parsed.key }
  }
}

export function findToken(db: Db, key: string): typeof worldTokens.$inferSelect | undefined {
  const row = stmt(db, 'SELECT key, user_id, kind, scopes, revoked FROM world_tokens WHERE key = ?').get(key) as
    { key: string; user_id: string; kind: TokenKind; scopes: string; revoked: number } | undefined
  return row && { key: row.key, userId: row.user_id, kind: row.kind, scopes: row.scopes, revoked: row.revoked === 1 }
}

/** All tokens of the world, for the control plane (`GET /worlds/:id`). */
export function listTokens(db: Db) {
  return db.select().from(worldTokens).all()
}
