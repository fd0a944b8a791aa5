import { selectRows, stmt, type Db } from './db.ts'
import { worldUsers, type WorldUserRow } from './world-tables.ts'

/** All users of the world in seed order (insertion order, through rowid). */
export function listUsers(db: Db): WorldUserRow[] {
  return selectRows(db, worldUsers, {}, { orderBy: ['rowid'] })
}

export function findUserById(db: Db, id: string): WorldUserRow | undefined {
  const r = stmt(db, 'SELECT * FROM world_users WHERE id = ?').get(id) as Record<string, string | number> | undefined
  return r && userFromRow(r)
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
