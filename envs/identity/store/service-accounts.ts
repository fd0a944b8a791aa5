import { and, eq, isNull } from 'drizzle-orm'
import { selectRows, type Db } from '../../core/db.ts'
import { hexId } from '../../core/ids.ts'
import {
  identityDelegations,
  identityIamBindings,
  identityServiceAccountKeys,
  identityServiceAccounts,
} from '../schema.ts'

export type ServiceAccountRow = typeof identityServiceAccounts.$inferSelect
export type KeyRow = typeof identityServiceAccountKeys.$inferSelect

/** Google's "never expires" for user-managed keys: 9999-12-31T23:59:59Z. */
export const NEVER_MS = Date.UTC(9999, 11, 31, 23, 59, 59)

export const SA_EMAIL = /^([a-z][a-z0-9-]{4,28}[a-z0-9])@([a-z][a-z0-9-]{4,28}[a-z0-9])\.iam\.gserviceaccount\.com$/

/** A service account by email or unique id (the two ways IAM paths name one). */
export function findServiceAccount(db: Db, key: string): ServiceAccountRow | undefined {
  const col = key.includes('@') ? identityServiceAccounts.email : identityServiceAccounts.uniqueId
  return db.select().from(identityServiceAccounts).where(eq(col, key.toLowerCase())).get()
}

export const serviceAccountsOf = (db: Db, projectId: string) =>
  db
    .select()
    .from(identityServiceAccounts)
    .where(eq(identityServiceAccounts.projectId, projectId))
    .all()
    .sort((a, b) => a.email.localeCompare(b.email))

export const listServiceAccounts = (db: Db) =>
  selectRows(db, identityServiceAccounts, {}).sort((a, b) => a.email.localeCompare(b.email))

/** A new key id: 40 hex characters, as Google's are. */
export function insertKey(
  db: Db,
  email: string,
  keyType: 'USER_MANAGED' | 'SYSTEM_MANAGED',
  fromMs: number,
  toMs: number,
): KeyRow {
  const keyId = hexId(db, 'identity.sa-key', 40)
  const row: KeyRow = { keyId, email, keyType, validAfterMs: fromMs, validBeforeMs: toMs, deletedMs: null }
  db.insert(identityServiceAccountKeys).values(row).run()
  return row
}

export const findKey = (db: Db, keyId: string): KeyRow | undefined =>
  db.select().from(identityServiceAccountKeys).where(eq(identityServiceAccountKeys.keyId, keyId)).get()

/** Live (not deleted) keys of an account, oldest first. */
export const keysOf = (db: Db, email: string): KeyRow[] =>
  db
    .select()
    .from(identityServiceAccountKeys)
    .where(and(eq(identityServiceAccountKeys.email, email), isNull(identityServiceAccountKeys.deletedMs)))
    .all()
    .sort((a, b) => a.validAfterMs - b.validAfterMs || a.keyId.localeCompare(b.keyId))

export const deleteKey = (db: Db, keyId: string, atMs: number) =>
  db
    .update(identityServiceAccountKeys)
    .set({ deletedMs: atMs })
    .where(eq(identityServiceAccountKeys.keyId, keyId))
    .run()

/** The Google-held key an account signs with in signJwt/signBlob (the newest live one valid now). */
export function systemKeyOf(db: Db, email: string, atMs: number): KeyRow | undefined {
  return keysOf(db, email)
    .filter((k) => k.keyType === 'SYSTEM_MANAGED' && k.validAfterMs <= atMs && atMs < k.validBeforeMs)
    .at(-1)
}

export const addBinding = (db: Db, resource: string, role: string, userId: string) =>
  db.insert(identityIamBindings).values({ resource, role, userId }).onConflictDoNothing().run()

/** Roles a user holds on a resource (`projects/<id>` or a service account's email). */
export const rolesOn = (db: Db, resource: string, userId: string): string[] =>
  db
    .select()
    .from(identityIamBindings)
    .where(and(eq(identityIamBindings.resource, resource), eq(identityIamBindings.userId, userId)))
    .all()
    .map((b) => b.role)
    .sort()

export const bindingsOn = (db: Db, resource: string) =>
  db
    .select()
    .from(identityIamBindings)
    .where(eq(identityIamBindings.resource, resource))
    .all()
    .sort((a, b) => a.role.localeCompare(b.role) || a.userId.localeCompare(b.userId))

/** The scopes domain-wide delegation grants a client id (empty: none). */
export function delegatedScopes(db: Db, clientId: string): string[] {
  const row = db.select().from(identityDelegations).where(eq(identityDelegations.clientId, clientId)).get()
  return row ? row.scopes.split(' ').filter(Boolean) : []
}

export const listDelegations = (db: Db) =>
  selectRows(db, identityDelegations, {}).sort((a, b) => a.clientId.localeCompare(b.clientId))
