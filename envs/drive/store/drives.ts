import { eq } from 'drizzle-orm'
import { groupsContaining } from '../../core/groups.ts'
import { selectRows, stmt, type Db } from '../../core/db.ts'
import { urlSafeId } from '../../core/ids.ts'
import { nowMs } from '../../core/clock.ts'
import { findUserById } from '../../core/users.ts'
import { files, sharedDrives, type FileRow, type SharedDriveRow } from '../schema.ts'
import type { Role } from './files.ts'

/** A shared drive id: `0A`, 9 URL-safe characters and `Uk9PVA`, shaped like Drive's 19-character drive ids. */
export function newSharedDriveId(db: Db): string {
  return `0A${urlSafeId(db, 'drive.sharedDrive', 9).replace(/[-_]/g, 'x')}Uk9PVA`
}

export function findSharedDrive(db: Db, id: string): SharedDriveRow | undefined {
  return selectRows(db, sharedDrives, { id })[0]
}

const RANK: Record<string, number> = { reader: 1, commenter: 2, writer: 3, fileOrganizer: 4, organizer: 5 }

/** A user's role as a member of a shared drive (user, group or domain membership), or 'none'. */
export function memberRole(db: Db, driveId: string, userId: string): Role | 'none' {
  const user = findUserById(db, userId)
  if (!user) return 'none'
  const email = user.email.toLowerCase()
  const domain = email.split('@')[1] ?? ''
  const t = nowMs(db)
  let memberOf: string[] | undefined
  const groups = () => (memberOf ??= groupsContaining(db, email))
  const rows = stmt(
    db,
    'SELECT type, role, email_address AS email, domain, expiration_ms AS exp FROM drive_permissions WHERE file_id = ?',
  ).all(driveId) as { type: string; role: Role; email: string | null; domain: string | null; exp: number | null }[]
  let best: Role | 'none' = 'none'
  for (const p of rows) {
    if (p.exp !== null && p.exp <= t) continue
    const applies =
      p.type === 'user'
        ? p.email?.toLowerCase() === email
        : p.type === 'group'
          ? p.email?.toLowerCase() === email || groups().includes(p.email?.toLowerCase() ?? '')
          : p.type === 'domain'
            ? p.domain?.toLowerCase() === domain
            : p.type === 'anyone'
    if (applies && (RANK[p.role] ?? 0) > (best === 'none' ? 0 : RANK[best]!)) best = p.role
  }
  return best
}

/** Shared drives the user is a member of, in creation order. */
export function drivesOf(db: Db, userId: string): SharedDriveRow[] {
  return db
    .select()
    .from(sharedDrives)
    .orderBy(sharedDrives.createdMs, sharedDrives.id)
    .all()
    .filter((d) => memberRole(db, d.id, userId) !== 'none')
}

/** The shared drive that holds an item placed under these parents (a drive id or a folder inside one), else null. */
export function driveOfParents(db: Db, parents: string[]): string | null {
  for (const p of parents) {
    if (findSharedDrive(db, p)) return p
    const row = stmt(db, 'SELECT drive_id FROM drive_files WHERE id = ?').pluck().get(p) as string | null | undefined
    if (row) return row
  }
  return null
}

/** Sets `driveId` on a file and everything below it (after a move into or out of a shared drive). */
export function setDriveOfTree(db: Db, root: { id: string }, drive: string | null): void {
  const all = db.select({ id: files.id, parents: files.parents }).from(files).all()
  const tree = new Set([root.id])
  let grew = true
  while (grew) {
    grew = false
    for (const f of all)
      if (!tree.has(f.id) && (JSON.parse(f.parents) as string[]).some((p) => tree.has(p))) {
        tree.add(f.id)
        grew = true
      }
  }
  for (const id of tree) db.update(files).set({ driveId: drive }).where(eq(files.id, id)).run()
}

/** Items (trashed or not) directly or indirectly in a shared drive. */
export function itemsOfDrive(db: Db, driveId: string): FileRow[] {
  return db.select().from(files).where(eq(files.driveId, driveId)).all()
}
