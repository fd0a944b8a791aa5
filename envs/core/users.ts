import { eq, sql } from 'drizzle-orm'
import type { Db } from './db.ts'
import { worldUsers, type WorldUserRow } from './world-tables.ts'

/** All users of the world in seed order (insertion order, through rowid). */
export function listUsers(db: Db): WorldUserRow[] {
  return db.select().from(worldUsers).orderBy(sql`rowid`).all()
}

export function findUserById(db: Db, id: string): WorldUserRow | undefined {
  return db.select().from(worldUsers).where(eq(worldUsers.id, id)).get()
}

/** Case-insensitive lookup by e-mail address (Google treats addresses case-insensitively). */
export function findUserByEmail(db: Db, email: string): WorldUserRow | undefined {
  const lower = email.trim().toLowerCase()
  return listUsers(db).find((u) => u.email.toLowerCase() === lower)
}
