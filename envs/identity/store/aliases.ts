import { createHash } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { stmt, type Db } from '../../core/db.ts'
import { nextCounter } from '../../core/ids.ts'
import { findAlias, worldAliases, type AliasRow } from '../../core/aliases.ts'
import { findGroupByEmail } from '../../core/groups.ts'
import { findUserByEmail } from '../../core/users.ts'

/** Whether an address is already a user's, a group's or an alias (letter case ignored). */
export function addressTaken(db: Db, address: string): boolean {
  return !!(findUserByEmail(db, address) || findGroupByEmail(db, address) || findAlias(db, address))
}

export function insertAlias(db: Db, kind: AliasRow['kind'], targetId: string, alias: string): void {
  db.insert(worldAliases)
    .values({ alias: alias.toLowerCase(), kind, targetId, addedSeq: nextCounter(db, 'identity.alias') })
    .run()
}

export function deleteAlias(db: Db, alias: string): void {
  db.delete(worldAliases).where(eq(worldAliases.alias, alias.toLowerCase())).run()
}

/**
 * Frees a deleted user's aliases and keeps them aside for `users.undelete` (Google's Admin help lists an email alias
 * given to someone else meanwhile among the reasons a user cannot be restored, so they belong to the restore).
 */
export function parkUserAliases(db: Db, userId: string): void {
  stmt(
    db,
    `INSERT OR REPLACE INTO identity_deleted_aliases (user_id, alias, added_seq)
    SELECT target_id, alias, added_seq FROM world_aliases WHERE kind = 'user' AND target_id = ?`,
  ).run(userId)
  deleteAliasesOf(db, 'user', userId)
}

/** A deleted user's kept aliases that another user, group or alias holds by now. */
export function takenParkedAliases(db: Db, userId: string): string[] {
  return parkedAliases(db, userId)
    .map((r) => r.alias)
    .filter((a) => addressTaken(db, a))
}

/** Gives an undeleted user their kept aliases back (all of them must be free: takenParkedAliases). */
export function restoreParkedAliases(db: Db, userId: string): void {
  for (const r of parkedAliases(db, userId)) {
    db.insert(worldAliases).values({ alias: r.alias, kind: 'user', targetId: userId, addedSeq: r.addedSeq }).run()
  }
  stmt(db, 'DELETE FROM identity_deleted_aliases WHERE user_id = ?').run(userId)
}

const parkedAliases = (db: Db, userId: string) =>
  stmt(
    db,
    'SELECT alias, added_seq AS addedSeq FROM identity_deleted_aliases WHERE user_id = ? ORDER BY added_seq',
  ).all(userId) as { alias: string; addedSeq: number }[]

/** Frees a user's or group's aliases (when it is deleted). */
export function deleteAliasesOf(db: Db, kind: AliasRow['kind'], targetId: string): void {
  db.delete(worldAliases)
    .where(and(eq(worldAliases.kind, kind), eq(worldAliases.targetId, targetId)))
    .run()
}

/** The Directory's Alias resource: `id` and `primaryEmail` are its user's or group's. */
export function aliasResource(id: string, primaryEmail: string, alias: string) {
  const body = { kind: 'admin#directory#alias', id, primaryEmail, alias }
  return { ...body, etag: `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"` }
}

/** The dump's `aliases`: each alias and its owner (a user's id, a group's address), by alias. */
export function aliasEntities(db: Db) {
  const rows = stmt(
    db,
    `SELECT a.alias, a.kind, coalesce(g.email, a.target_id) AS owner FROM world_aliases a
    LEFT JOIN world_groups g ON a.kind = 'group' AND g.id = a.target_id ORDER BY a.alias`,
  ).all() as { alias: string; kind: AliasRow['kind']; owner: string }[]
  return Object.fromEntries(rows.map((r) => [r.alias, r]))
}
