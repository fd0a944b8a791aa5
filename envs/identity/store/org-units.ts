import { createHash } from 'node:crypto'
import { selectRows, stmt, type Db } from '../../core/db.ts'
import { getMeta } from '../../core/clock.ts'
import { opaqueId } from '../../core/ids.ts'
import { identityOrgUnits } from '../schema.ts'

/** An organizational unit as stored; the root (`/`) is not a row. */
export type OrgUnitRow = typeof identityOrgUnits.$inferSelect

/** A unit as the Directory API speaks of it: stored, or the root. */
export type OrgUnit = OrgUnitRow & { root: boolean }

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'

/** The customer's part of every `orgUnitId` (`03` and six characters, stable per seed), as Google's ids share one. */
function idPrefix(db: Db): string {
  const salt = getMeta(db, 'id_salt') ?? ''
  const h = createHash('sha256').update(`${salt}\u0000org-unit-prefix`).digest()
  return `03${[...h.subarray(0, 6)].map((b) => ALPHABET[b % 36]).join('')}`
}

/** The root unit (`/`): every workspace has one; its id is stable per seed. */
export function rootUnit(db: Db): OrgUnit {
  const salt = getMeta(db, 'id_salt') ?? ''
  const h = createHash('sha256').update(`${salt}\u0000org-unit-root`).digest()
  const id = idPrefix(db) + [...h.subarray(0, 7)].map((b) => ALPHABET[b % 36]).join('')
  return { id, path: '/', description: '', blockInheritance: false, root: true }
}

/** Every unit below the root, by path (case-insensitive order). */
export function listUnits(db: Db): OrgUnit[] {
  return selectRows(db, identityOrgUnits, {})
    .map((u) => ({ ...u, root: false }))
    .sort((a, b) => a.path.toLowerCase().localeCompare(b.path.toLowerCase()) || a.path.localeCompare(b.path))
}

/** A unit by full path (`/`, `/Sales/EMEA`; letter case ignored, as Google matches unit paths). */
export function unitByPath(db: Db, path: string): OrgUnit | undefined {
  const wanted = normalPath(path)
  if (wanted === '/') return rootUnit(db)
  return listUnits(db).find((u) => u.path.toLowerCase() === wanted.toLowerCase())
}

/** A unit by `orgUnitId` (with or without its `id:` prefix). */
export function unitById(db: Db, id: string): OrgUnit | undefined {
  const bare = id.startsWith('id:') ? id.slice(3) : id
  const root = rootUnit(db)
  if (bare === root.id) return root
  const row = selectRows(db, identityOrgUnits, { id: bare })[0]
  return row && { ...row, root: false }
}

/** `/a//b/` → `/a/b`; a path without its leading slash gets one. */
export function normalPath(path: string): string {
  const parts = path.split('/').filter((p) => p !== '')
  return `/${parts.join('/')}`
}

export const parentPath = (path: string) => normalPath(path.slice(0, path.lastIndexOf('/')))
export const unitName = (unit: OrgUnit) => (unit.root ? '' : unit.path.slice(unit.path.lastIndexOf('/') + 1))

/** Adds a unit (its parent must exist); returns it. */
export function insertUnit(db: Db, path: string, description = '', blockInheritance = false): OrgUnit {
  const id = idPrefix(db) + opaqueId(db, 'identity.orgunit', 7, ALPHABET)
  const row = { id, path: normalPath(path), description, blockInheritance }
  db.insert(identityOrgUnits).values(row).run()
  return { ...row, root: false }
}

/** Makes the unit at `path` and any missing ancestor (seeding: users and units named by path). */
export function ensureUnitPath(db: Db, path: string): OrgUnit {
  const parts = normalPath(path).split('/').filter(Boolean)
  let unit = rootUnit(db)
  for (let i = 0; i < parts.length; i++) {
    const at = `/${parts.slice(0, i + 1).join('/')}`
    unit = unitByPath(db, at) ?? insertUnit(db, at)
  }
  return unit
}

/** Whether `path` is `under` or inside it (letter case ignored). */
export function within(path: string, under: string): boolean {
  const p = path.toLowerCase()
  const u = under.toLowerCase()
  return u === '/' || p === u || p.startsWith(`${u}/`)
}

/**
 * Gives a unit a new path (renamed, moved, or both): its whole subtree follows, and so do the users in any of those
 * units. Writes the unit's other fields too.
 */
export function saveUnit(db: Db, unit: OrgUnit, next: Omit<OrgUnitRow, 'id'>): void {
  const from = unit.path
  const to = normalPath(next.path)
  stmt(db, 'UPDATE identity_org_units SET path = ?, description = ?, block_inheritance = ? WHERE id = ?').run(
    to,
    next.description,
    next.blockInheritance ? 1 : 0,
    unit.id,
  )
  if (from === to) return
  const moved = (p: string) => to + p.slice(from.length)
  for (const u of listUnits(db)) {
    if (u.id !== unit.id && within(u.path, from)) {
      stmt(db, 'UPDATE identity_org_units SET path = ? WHERE id = ?').run(moved(u.path), u.id)
    }
  }
  const users = stmt(db, 'SELECT user_id AS userId, org_unit_path AS path FROM identity_users').all() as {
    userId: string
    path: string
  }[]
  for (const u of users) {
    if (within(u.path, from)) {
      stmt(db, 'UPDATE identity_users SET org_unit_path = ? WHERE user_id = ?').run(moved(u.path), u.userId)
    }
  }
}

export function deleteUnit(db: Db, unit: OrgUnit): void {
  stmt(db, 'DELETE FROM identity_org_units WHERE id = ?').run(unit.id)
}

/** Users of the directory (not deleted) whose unit is exactly this one. */
export function usersIn(db: Db, path: string): number {
  const sql = 'SELECT org_unit_path AS path FROM identity_users WHERE deleted_ms IS NULL'
  const rows = stmt(db, sql).all() as { path: string }[]
  return rows.filter((r) => r.path.toLowerCase() === path.toLowerCase()).length
}

/** The Directory API's OrgUnit resource. */
export function unitResource(db: Db, unit: OrgUnit) {
  const parent = unit.root ? undefined : unitByPath(db, parentPath(unit.path))
  const body: Record<string, unknown> = {
    kind: 'admin#directory#orgUnit',
    name: unitName(unit),
    ...(unit.description ? { description: unit.description } : {}),
    orgUnitPath: unit.path,
    orgUnitId: `id:${unit.id}`,
    ...(parent ? { parentOrgUnitPath: parent.path, parentOrgUnitId: `id:${parent.id}` } : {}),
    blockInheritance: unit.blockInheritance,
  }
  const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`
  return { ...body, etag }
}
