import { and, eq } from 'drizzle-orm'
import { selectRows, stmt, type Db } from '../../core/db.ts'
import { opaqueId } from '../../core/ids.ts'
import { nowMs } from '../../core/clock.ts'
import type { WorldKeys } from '../../core/tokens.ts'
import { worldTokens } from '../../core/world-tables.ts'
import {
  identityAccessTokens,
  identityClients,
  identityCodes,
  identityGrants,
  identityRefreshTokens,
} from '../schema.ts'
import { ownEntry } from '../../core/own-key.ts'

const HEX = '0123456789abcdef'
/** Access tokens live an hour, codes ten minutes, as Google's do. */
export const ACCESS_TTL_S = 3599
export const CODE_TTL_MS = 600_000

/** Short scope names Google accepts in an authorization request. */
const SHORT: Record<string, string> = {
  email: 'https://www.googleapis.com/auth/userinfo.email',
  profile: 'https://www.googleapis.com/auth/userinfo.profile',
}

/** Splits a space-separated scope parameter into full scope names, sorted and without repeats. */
export function normalizeScopes(raw: string | readonly string[]): string[] {
  const list = typeof raw === 'string' ? raw.split(/[\s,]+/) : raw
  return [...new Set(list.filter(Boolean).map((s) => ownEntry(SHORT, s) ?? s))].sort()
}

export type ClientRow = typeof identityClients.$inferSelect
export type GrantRow = typeof identityGrants.$inferSelect

export function findClient(db: Db, clientId: string | undefined): ClientRow | undefined {
  if (!clientId) return undefined
  return db.select().from(identityClients).where(eq(identityClients.clientId, clientId)).get()
}
export const listClients = (db: Db) => selectRows(db, identityClients, {})
export const redirectUrisOf = (c: ClientRow): string[] => JSON.parse(c.redirectUris) as string[]
export const allowedScopesOf = (c: ClientRow): string[] => JSON.parse(c.allowedScopes) as string[]

/** A client's secret: an HMAC under the world's secret, so nothing in the seed or a snapshot reveals it. */
export const clientSecret = (keys: WorldKeys, clientId: string) =>
  `GOCSPX-${keys.derive(`oauth-client-secret\u0000${clientId}`, 28)}`

// Codes and refresh tokens carry their world (the token endpoint has no bearer token to route by) and a mac.
const CREDENTIAL = /^(4\/0|1\/\/0)\.([a-z0-9_]+)\.([0-9a-f]{24})([0-9a-f]{32})$/
const kindLabel = { code: '4/0', refresh: '1//0' } as const
type CredentialKind = keyof typeof kindLabel
const macOf = (keys: WorldKeys, kind: CredentialKind, id: string) => keys.derive(`oauth-${kind}\u0000${id}`, 32)
const credential = (keys: WorldKeys, kind: CredentialKind, id: string) =>
  `${kindLabel[kind]}.${keys.worldId}.${id}${macOf(keys, kind, id)}`

/** The world id an authorization code or refresh token names (routing only; `checkCredential` verifies it). */
export function worldOfCredential(value: string): string | undefined {
  return CREDENTIAL.exec(value)?.[2]
}

/** The row id behind a code or refresh token of this world, or undefined when it is not one of ours. */
export function checkCredential(keys: WorldKeys, kind: CredentialKind, value: string): string | undefined {
  const m = CREDENTIAL.exec(value)
  if (!m || m[1] !== kindLabel[kind] || m[2] !== keys.worldId) return undefined
  return macOf(keys, kind, m[3]!) === m[4] ? m[3] : undefined
}

export type CodeInput = {
  userId: string
  clientId: string
  redirectUri: string
  scopes: string[]
  offline: boolean
  codeChallenge?: string
  challengeMethod?: string
  nonce?: string
}

/** Records the user's consent (merging scopes with an earlier grant when asked) and mints a code. */
export function issueCode(db: Db, keys: WorldKeys, input: CodeInput): string {
  const id = opaqueId(db, 'identity.code', 24, HEX)
  db.insert(identityCodes)
    .values({
      id,
      userId: input.userId,
      clientId: input.clientId,
      redirectUri: input.redirectUri,
      scopes: input.scopes.join(' '),
      codeChallenge: input.codeChallenge ?? null,
      challengeMethod: input.challengeMethod ?? null,
      nonce: input.nonce ?? null,
      offline: input.offline,
      expiresMs: nowMs(db) + CODE_TTL_MS,
    })
    .run()
  return credential(keys, 'code', id)
}

export const findCode = (db: Db, id: string) => db.select().from(identityCodes).where(eq(identityCodes.id, id)).get()
export const markCodeUsed = (db: Db, id: string) =>
  db.update(identityCodes).set({ used: true }).where(eq(identityCodes.id, id)).run()

export function findGrant(db: Db, userId: string, clientId: string): GrantRow | undefined {
  return db
    .select()
    .from(identityGrants)
    .where(and(eq(identityGrants.userId, userId), eq(identityGrants.clientId, clientId)))
    .get()
}
export const grantsOf = (db: Db, userId: string) =>
  db
    .select()
    .from(identityGrants)
    .where(eq(identityGrants.userId, userId))
    .all()
    .sort((a, b) => a.clientId.localeCompare(b.clientId))

/** Stores the scopes a user granted a client (the union with what was granted before). */
export function upsertGrant(db: Db, userId: string, clientId: string, scopes: readonly string[]): GrantRow {
  const at = nowMs(db)
  const old = findGrant(db, userId, clientId)
  const merged = normalizeScopes([...(old ? old.scopes.split(' ') : []), ...scopes])
  if (old) {
    db.update(identityGrants)
      .set({ scopes: merged.join(' '), lastUsedMs: at })
      .where(and(eq(identityGrants.userId, userId), eq(identityGrants.clientId, clientId)))
      .run()
  } else {
    db.insert(identityGrants)
      .values({ userId, clientId, scopes: merged.join(' '), createdMs: at, lastUsedMs: at })
      .run()
  }
  return findGrant(db, userId, clientId)!
}

export const touchGrant = (db: Db, userId: string, clientId: string) =>
  db
    .update(identityGrants)
    .set({ lastUsedMs: nowMs(db) })
    .where(and(eq(identityGrants.userId, userId), eq(identityGrants.clientId, clientId)))
    .run()

export function issueRefreshToken(db: Db, keys: WorldKeys, userId: string, clientId: string, scopes: string[]): string {
  const id = opaqueId(db, 'identity.refresh', 24, HEX)
  db.insert(identityRefreshTokens)
    .values({ id, userId, clientId, scopes: scopes.join(' ') })
    .run()
  return credential(keys, 'refresh', id)
}
export const findRefresh = (db: Db, id: string) =>
  db.select().from(identityRefreshTokens).where(eq(identityRefreshTokens.id, id)).get()

/** Mints an access token: a `world_tokens` row the identity middleware accepts, tied to the client and expiry. */
export function issueAccessToken(
  db: Db,
  keys: WorldKeys,
  userId: string,
  clientId: string,
  scopes: string[],
  refreshId: string | null,
): { token: string; expiresIn: number } {
  const key = opaqueId(db, 'identity.access', 24, HEX)
  db.insert(worldTokens)
    .values({ key, userId, kind: 'google', scopes: scopes.join(',') })
    .run()
  db.insert(identityAccessTokens)
    .values({ key, userId, clientId, refreshId, expiresMs: nowMs(db) + ACCESS_TTL_S * 1000 })
    .run()
  return { token: keys.token('google', key), expiresIn: ACCESS_TTL_S }
}

// Read on every Google request (server/middleware/scopes.ts): without drizzle's per-call query building.
export const findAccess = (db: Db, key: string) => selectRows(db, identityAccessTokens, { key })[0]

/** Revokes one access token (not its grant). */
export function revokeAccessKey(db: Db, key: string): void {
  db.update(worldTokens).set({ revoked: true }).where(eq(worldTokens.key, key)).run()
}

/**
 * Removes a connected app: the grant goes, and every access and refresh token the client holds for the user dies
 * at once (what Directory's tokens.delete and a user's /revoke of any of its tokens do).
 */
export function revokeGrant(db: Db, userId: string, clientId: string): boolean {
  const had = findGrant(db, userId, clientId) !== undefined
  db.delete(identityGrants)
    .where(and(eq(identityGrants.userId, userId), eq(identityGrants.clientId, clientId)))
    .run()
  revokeClientTokens(db, userId, clientId)
  return had
}

/** Every access and refresh token the client holds for the user dies; the user's consent (the grant) stays. */
export function revokeClientTokens(db: Db, userId: string, clientId: string): void {
  db.update(identityRefreshTokens)
    .set({ revoked: true })
    .where(and(eq(identityRefreshTokens.userId, userId), eq(identityRefreshTokens.clientId, clientId)))
    .run()
  stmt(
    db,
    `UPDATE world_tokens SET revoked = 1 WHERE key IN
    (SELECT key FROM identity_access_tokens WHERE user_id = ? AND client_id = ?)`,
  ).run(userId, clientId)
}
