import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { stmt, type Db } from './db.ts'

// Directory aliases are more addresses of a user or a group: mail to one reaches its owner, and the Directory takes
// one wherever it takes a primary address. They live in the kernel beside world_users and world_groups because Gmail
// and the group expansion read them.

/** Alias addresses (`alias` lower-case, unique across the workspace) of a user (`targetId` its world id) or a group. */
export const worldAliases = sqliteTable(
  'world_aliases',
  {
    alias: text('alias').primaryKey(),
    kind: text('kind', { enum: ['user', 'group'] }).notNull(),
    targetId: text('target_id').notNull(),
    addedSeq: integer('added_seq').notNull(),
  },
  (t) => [index('world_aliases_by_target').on(t.kind, t.targetId)],
)

export type AliasRow = typeof worldAliases.$inferSelect

/** The alias row for an address (letter case ignored), if it is one. */
export function findAlias(db: Db, address: string): AliasRow | undefined {
  const r = stmt(db, 'SELECT alias, kind, target_id, added_seq FROM world_aliases WHERE alias = ?').get(
    address.trim().toLowerCase(),
  ) as { alias: string; kind: 'user' | 'group'; target_id: string; added_seq: number } | undefined
  return r && { alias: r.alias, kind: r.kind, targetId: r.target_id, addedSeq: r.added_seq }
}

/** A user's or group's aliases, in the order they were added. */
export function aliasesOf(db: Db, kind: AliasRow['kind'], targetId: string): string[] {
  const rows = stmt(db, 'SELECT alias FROM world_aliases WHERE kind = ? AND target_id = ? ORDER BY added_seq').all(
    kind,
    targetId,
  ) as { alias: string }[]
  return rows.map((r) => r.alias)
}

/** Every user alias and its user's primary address (both lower-case): one read per delivery that needs it. */
export function userAliasAddresses(db: Db): Map<string, string> {
  const rows = stmt(
    db,
    `SELECT a.alias, lower(u.email) AS email FROM world_aliases a JOIN world_users u ON u.id = a.target_id
    WHERE a.kind = 'user'`,
  ).all() as { alias: string; email: string }[]
  return new Map(rows.map((r) => [r.alias, r.email]))
}
