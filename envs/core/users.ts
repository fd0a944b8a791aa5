import { selectRows, stmt, type Db } from './db.ts'
import { worldUsers, type WorldUserRow } from './world-tables.ts'

/** All users of the world in seed order (insertion order, through rowid). */
export function listUsers(db: Db): WorldUserRow[] {
  return selectRows(db, worldUsers, {}, { orderBy: ['rowid'] })
}

export function findUserById(db: Db, id: string): WorldUserRow | undefined {
  if (id.startsWith(SERVICE_ACCOUNT)) return serviceAccountUser(db, id.slice(SERVICE_ACCOUNT.length))
  const r = stmt(db, 'SELECT * FROM world_users WHERE id = ?').get(id) as Record<string, string | number> | undefined
  return r && userFromRow(r)
}

/** The user id a service account's own token (the JWT-bearer grant without `sub`) acts as. */
const SERVICE_ACCOUNT = 'serviceAccount:'

/** Whether a caller is a service account acting with its own token (`serviceAccountUser`), not a world user. */
export const isServiceAccount = (user: Pick<WorldUserRow, 'id'>) => user.id.startsWith(SERVICE_ACCOUNT)

/**
 * A service account as the APIs that serve its own token (Drive) see a caller: id `serviceAccount:<email>`, its
 * email and display name (the email when it has none). It is no world user: the Directory, Gmail and the listings
 * of world users never show it. The accounts live in Identity's table, read here by name (the kernel imports no
 * service); undefined for an unknown or disabled account.
 */
export function serviceAccountUser(db: Db, email: string): WorldUserRow | undefined {
  const r = stmt(
    db,
    'SELECT email, display_name AS name FROM identity_service_accounts WHERE email = ? AND disabled = 0',
  ).get(email) as { email: string; name: string } | undefined
  return r && serviceAccountAsUser(r.email, r.name)
}

/** The caller a service account's own token acts as (`serviceAccountUser`), built from its email and display name. */
export function serviceAccountAsUser(email: string, displayName = ''): WorldUserRow {
  return {
    id: `${SERVICE_ACCOUNT}${email}`,
    email,
    name: displayName || email,
    givenName: '',
    familyName: '',
    timeZone: 'UTC',
    title: '',
    isAdmin: false,
    tokenKey: '',
  }
}

/** A `world_users` row as SQLite returns it (column names), in its typed shape. */
export function userFromRow(r: Record<string, string | number | null>): WorldUserRow {
  return {
    id: String(r.id),
    email: String(r.email),
    name: String(r.name),
    givenName: String(r.given_name),
    familyName: String(r.family_name),
    timeZone: String(r.time_zone),
    title: String(r.title),
    isAdmin: r.is_admin === 1,
    tokenKey: String(r.token_key),
  }
}

/** Case-insensitive lookup by e-mail address (Google treats addresses case-insensitively). */
export function findUserByEmail(db: Db, email: string): WorldUserRow | undefined {
  const lower = email.trim().toLowerCase()
  // The first user in seed order with that address; only the match is turned into a typed row.
  const rows = stmt(db, 'SELECT * FROM world_users ORDER BY rowid').all() as Record<string, string | number | null>[]
  const match = rows.find((r) => String(r.email).toLowerCase() === lower)
  return match && userFromRow(match)
}

/** The user an alias address belongs to (world_aliases, Directory aliases); not a primary address. */
export function findUserByAlias(db: Db, address: string): WorldUserRow | undefined {
  const r = stmt(
    db,
    `SELECT u.* FROM world_aliases a JOIN world_users u ON u.id = a.target_id WHERE a.alias = ? AND a.kind = 'user'`,
  ).get(address.trim().toLowerCase()) as Record<string, string | number | null> | undefined
  return r && userFromRow(r)
}

/** A user by primary address or, failing that, by alias (where an address names a mailbox: mail, shares, guests). */
export function findUserByAddress(db: Db, address: string): WorldUserRow | undefined {
  return findUserByEmail(db, address) ?? findUserByAlias(db, address)
}

/** The primary address (lower-case) of the user an alias names; any other address lower-cased as it is. */
export function primaryOfUserAlias(db: Db, address: string): string {
  const lower = address.trim().toLowerCase()
  return findUserByAlias(db, lower)?.email.toLowerCase() ?? lower
}
