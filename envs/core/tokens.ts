import { createHash } from 'node:crypto'
import { stmt, type Db } from './db.ts'
import { getMeta } from './clock.ts'
import { worldTokens } from './world-tables.ts'
import type { Principal } from './http.ts'

// Tokens carry the world id so one process can serve many worlds:
//   Google  ya29.<worldId>.<key>      Slack user  xoxp-<worldId>-<key>      Slack bot  xoxb-<worldId>-<key>
// The key part is stored in the world (world_tokens), so a restored or forked world keeps its keys.

export type TokenKind = Principal['tokenKind']

const PREFIX: Record<TokenKind, (world: string, key: string) => string> = {
  google: (w, k) => `ya29.${w}.${k}`,
  slack_user: (w, k) => `xoxp-${w}-${k}`,
  slack_bot: (w, k) => `xoxb-${w}-${k}`,
}

/** Scopes a seeded Slack user token holds unless the seed says otherwise. */
export const DEFAULT_SLACK_USER_SCOPES = [
  'channels:read', 'channels:write', 'channels:history', 'groups:read', 'groups:write', 'groups:history',
  'im:read', 'im:write', 'im:history', 'mpim:read', 'mpim:write', 'mpim:history', 'chat:write', 'users:read',
  'users:read.email', 'users:write', 'users.profile:read', 'users.profile:write', 'reactions:read', 'reactions:write',
  'pins:read', 'pins:write', 'bookmarks:read', 'bookmarks:write', 'stars:read', 'stars:write', 'reminders:read',
  'reminders:write', 'dnd:read', 'dnd:write', 'usergroups:read', 'usergroups:write', 'files:read', 'files:write',
  'search:read', 'team:read', 'emoji:read', 'identify',
] as const

/** Derives and stores a token key for a principal; the same seed gives the same key. */
export function issueTokenKey(db: Db, userId: string, kind: TokenKind, scopes: readonly string[]): string {
  const salt = getMeta(db, 'id_salt') ?? ''
  const key = createHash('sha256').update(`${salt}\u0000token\u0000${kind}\u0000${userId}`).digest('hex').slice(0, 24)
  db.insert(worldTokens).values({ key, userId, kind, scopes: scopes.join(',') }).onConflictDoNothing().run()
  return key
}

export function formatToken(worldId: string, kind: TokenKind, key: string): string {
  return PREFIX[kind](worldId, key)
}

/** Splits a presented token into (kind, world id, key); undefined when it is not one of ours. */
export function parseToken(token: string): { kind: TokenKind; worldId: string; key: string } | undefined {
  let m = /^ya29\.([a-z0-9_]+)\.([0-9a-f]+)$/.exec(token)
  if (m) return { kind: 'google', worldId: m[1]!, key: m[2]! }
  m = /^xox([pb])-([a-z0-9_]+)-([0-9a-f]+)$/.exec(token)
  if (m) return { kind: m[1] === 'p' ? 'slack_user' : 'slack_bot', worldId: m[2]!, key: m[3]! }
  return undefined
}

export function findToken(db: Db, key: string): typeof worldTokens.$inferSelect | undefined {
  const row = stmt(db, 'SELECT key, user_id, kind, scopes, revoked FROM world_tokens WHERE key = ?').get(key) as
    | { key: string; user_id: string; kind: TokenKind; scopes: string; revoked: number }
    | undefined
  return row && { key: row.key, userId: row.user_id, kind: row.kind, scopes: row.scopes, revoked: row.revoked === 1 }
}

/** All tokens of the world, for the control plane (`GET /worlds/:id`). */
export function listTokens(db: Db) {
  return db.select().from(worldTokens).all()
}
