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
