import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { selectRows, stmt, upsertRow, type Db } from '../../core/db.ts'
import { getMeta, nowMs } from '../../core/clock.ts'
import { FULL_GOOGLE_SCOPES, issueTokenKey } from '../../core/tokens.ts'
import { findUserByAddress, findUserById, listUsers } from '../../core/users.ts'
import { worldTokens, worldUsers, type WorldUserRow } from '../../core/world-tables.ts'
import { photoOf } from './photos.ts'
import { identityGrants, identityRoles, identityUsers } from '../schema.ts'
import { customerId, googleUserId } from '../ids.ts'
import { revokeGrant } from './oauth.ts'
import { aliasesOf } from '../../core/aliases.ts'
import { parkUserAliases, restoreParkedAliases } from './aliases.ts'
import { withAliases } from './groups.ts'
import { holdsRole } from './roles.ts'

export type UserFacts = typeof identityUsers.$inferSelect

/** A user's Directory facts (a user seeded without any has the defaults, created with the world). */
export function factsOf(db: Db, userId: string): UserFacts {
  // Read on every Google request (isActive): without drizzle's per-call query building.
  const row = selectRows(db, identityUsers, { userId })[0]
  return (
    row ?? {
      userId,
      suspended: false,
      suspensionReason: null,
      orgUnitPath: '/',
      deletedMs: null,
      createdMs: Number(getMeta(db, 'world_created_ms') ?? 0),
      changePasswordAtNextLogin: false,
      passwordSetMs: null,
    }
  )
}

export function saveFacts(db: Db, facts: UserFacts): void {
  upsertRow(db, identityUsers, facts, ['userId'])
}

/** Whether a user may act at all: not suspended and not deleted. */
export function isActive(db: Db, userId: string): boolean {
  const f = factsOf(db, userId)
  return !f.suspended && f.deletedMs === null
}

/** Whether a world user is an account of the workspace's domain (Slack bots are world users too, but not accounts). */
export function inDomain(db: Db, user: WorldUserRow): boolean {
  return user.email.toLowerCase().endsWith(`@${(getMeta(db, 'domain') ?? '').toLowerCase()}`)
}

/** Users the directory shows (deleted ones only with `showDeleted`). */
export function directoryUsers(db: Db, deleted = false): { user: WorldUserRow; facts: UserFacts }[] {
  return listUsers(db)
    .filter((u) => inDomain(db, u))
    .map((user) => ({ user, facts: factsOf(db, user.id) }))
    .filter((u) => (u.facts.deletedMs !== null) === deleted)
}

const iso = (ms: number) => new Date(ms).toISOString()

/** A user by a Directory userKey: primary address, alias or numeric id (undefined when none matches). */
export function findUserByKey(db: Db, key: string): WorldUserRow | undefined {
  return key.includes('@') ? findUserByAddress(db, key) : listUsers(db).find((u) => googleUserId(db, u.id) === key)
}

/** Whether the user holds a delegated admin role: the Calendar resources role (0250) or an assigned role (0468). */
export const isDelegatedAdmin = (db: Db, userId: string) =>
  !!db.select().from(identityRoles).where(eq(identityRoles.userId, userId)).get() || holdsRole(db, userId)

/**
 * `thumbnailPhotoUrl` and `thumbnailPhotoEtag` when the user has a photo (users.photos). Deviation: the URL names
 * the photo but is not served (users.photos.get gives its bytes).
 */
function thumbnailOf(db: Db, userId: string) {
  const photo = photoOf(db, userId)
  if (!photo) return {}
  const digest = createHash('sha256').update(photo.data).digest('base64url')
  return {
    thumbnailPhotoUrl: `https://lh3.googleusercontent.com/a-/${digest.slice(0, 40)}=s96-c`,
    thumbnailPhotoEtag: `"${digest.slice(0, 27)}"`,
  }
}

/** The Directory API's User resource for a world user; `customSchemas` when given and not empty (the projection). */
export function userResource(db: Db, user: WorldUserRow, facts: UserFacts, customSchemas?: Record<string, unknown>) {
  const aliases = aliasesOf(db, 'user', user.id)
  const body: Record<string, unknown> = {
    kind: 'admin#directory#user',
    id: googleUserId(db, user.id),
    primaryEmail: user.email,
    name: { givenName: user.givenName, familyName: user.familyName, fullName: user.name },
    isAdmin: user.isAdmin,
    isDelegatedAdmin: isDelegatedAdmin(db, user.id),
    lastLoginTime: '1970-01-01T00:00:00.000Z',
    creationTime: iso(facts.createdMs),
    agreedToTerms: true,
    suspended: facts.suspended,
    ...(facts.suspended && facts.suspensionReason ? { suspensionReason: facts.suspensionReason } : {}),
    archived: false,
    changePasswordAtNextLogin: facts.changePasswordAtNextLogin,
    ipWhitelisted: false,
    emails: [{ address: user.email, primary: true }, ...aliases.map((address) => ({ address }))],
    ...withAliases(aliases),
    ...(user.title ? { organizations: [{ title: user.title, primary: true, customType: '', description: '' }] } : {}),
    customerId: customerId(db),
    orgUnitPath: facts.orgUnitPath,
    isMailboxSetup: true,
    isEnrolledIn2Sv: false,
    isEnforcedIn2Sv: false,
    includeInGlobalAddressList: true,
    ...thumbnailOf(db, user.id),
    ...(facts.deletedMs !== null ? { deletionTime: iso(facts.deletedMs) } : {}),
    ...(customSchemas && Object.keys(customSchemas).length > 0 ? { customSchemas } : {}),
  }
  const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`
  return { ...body, etag }
}

/** A free world user id for a new address: its local part, made unique. */
export function freeUserId(db: Db, email: string): string {
  const base =
    email
      .split('@')[0]!
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '-')
      .replace(/^[^a-z0-9]+/, '') || 'user'
  let id = base
  for (let n = 2; findUserById(db, id); n++) id = `${base}-${n}`
  return id
}

export type NewUser = { email: string; givenName: string; familyName: string; title: string; facts: Partial<UserFacts> }

/** Adds a user to the world: a world_users row, a Google token with every scope, and Directory facts. */
export function insertUser(db: Db, input: NewUser): WorldUserRow {
  const id = freeUserId(db, input.email)
  const name = `${input.givenName} ${input.familyName}`.trim()
  const zone = listUsers(db)[0]?.timeZone ?? 'UTC'
  db.insert(worldUsers)
    .values({
      id,
      email: input.email,
      name,
      givenName: input.givenName,
      familyName: input.familyName,
      timeZone: zone,
      title: input.title,
      isAdmin: false,
      tokenKey: '',
    })
    .run()
  issueTokenKey(db, id, 'google', FULL_GOOGLE_SCOPES)
  saveFacts(db, { ...factsOf(db, id), createdMs: nowMs(db), ...input.facts, userId: id })
  return findUserById(db, id)!
}

/** Deletes a user from the directory: their tokens and connected apps die; their data stays for other owners. */
export function deleteUser(db: Db, userId: string): void {
  saveFacts(db, { ...factsOf(db, userId), deletedMs: nowMs(db) })
  // Deviation (unverified): the aliases are freed at once (kept aside for undelete).
  parkUserAliases(db, userId)
  db.update(worldTokens).set({ revoked: true }).where(eq(worldTokens.userId, userId)).run()
  for (const g of db.select().from(identityGrants).where(eq(identityGrants.userId, userId)).all()) {
    revokeGrant(db, userId, g.clientId)
  }
}

/** Brings a deleted user back: in the directory again, with their own Google token working (apps stay revoked). */
export function undeleteUser(db: Db, userId: string, orgUnitPath: string | undefined): void {
  saveFacts(db, { ...factsOf(db, userId), deletedMs: null, ...(orgUnitPath ? { orgUnitPath } : {}) })
  restoreParkedAliases(db, userId)
  stmt(
    db,
    `UPDATE world_tokens SET revoked = 0 WHERE user_id = ? AND kind = 'google'
    AND key NOT IN (SELECT key FROM identity_access_tokens)`,
  ).run(userId)
}

/** Updates the user fields world_users holds. */
export function updateUserRow(
  db: Db,
  userId: string,
  set: Partial<Pick<WorldUserRow, 'email' | 'name' | 'givenName' | 'familyName' | 'title' | 'isAdmin'>>,
) {
  if (Object.keys(set).length > 0) db.update(worldUsers).set(set).where(eq(worldUsers.id, userId)).run()
}
