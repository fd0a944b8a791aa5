import { stmt, type Db } from '../core/db.ts'
import { findUserById } from '../core/users.ts'
import { rootIdOf } from './map.ts'
import { FOLDER, insertFile, permissionIdFor, recordChange } from './store/files.ts'

/** Bridge for a Directory rename (identity service): see ./store/rename.ts. */
export { renameDriveAddress } from './store/rename.ts'

/** The Data Transfer API's privacy levels for Drive: files shared with nobody, files shared with someone. */
export type PrivacyLevel = 'PRIVATE' | 'SHARED'

export type DriveTransferResult = { transferred: number; folderId: string | null }

/**
 * Bridge for the Admin SDK Data Transfer API (identity service): moves ownership of the My Drive files `fromId` owns
 * to `toId`, as an administrator's "Drive and Docs" transfer does. A file is SHARED when anyone but its owner holds
 * a permission on it, PRIVATE otherwise; only the levels asked for move. The moved files keep their folders, except
 * those at the top of the old owner's My Drive, which land in a new folder of the new owner's My Drive named after
 * the old owner's address. The old owner keeps edit access; the new owner's permission becomes `owner`.
 * Items of shared drives have no owner and are not touched.
 */
export function transferDriveFiles(
  db: Db,
  fromId: string,
  toId: string,
  levels: ReadonlySet<PrivacyLevel>,
): DriveTransferResult {
  const from = findUserById(db, fromId)
  const to = findUserById(db, toId)
  if (!from || !to || fromId === toId) return { transferred: 0, folderId: null }
  const owned = stmt(
    db,
    `/* transfer owned */ SELECT id, parents FROM drive_files
    WHERE owner_id = ? AND drive_id IS NULL ORDER BY rowid`,
  ).all(fromId) as { id: string; parents: string }[]
  const isShared = sharedness(db)
  const moving = owned.filter((f) => levels.has(isShared(f.id) ? 'SHARED' : 'PRIVATE'))
  if (moving.length === 0) return { transferred: 0, folderId: null }
  const oldRoot = rootIdOf(fromId)
  const folder = insertFile(db, { name: from.email, mimeType: FOLDER, ownerId: toId, parents: [] })
  const oldPerm = permissionIdFor(db, fromId)
  const newPerm = permissionIdFor(db, toId)
  const setOwner = stmt(db, 'UPDATE drive_files SET owner_id = ?, parents = ? WHERE id = ?')
  const demote = stmt(db, `UPDATE drive_permissions SET role = 'writer' WHERE file_id = ? AND id = ?`)
  const promote = stmt(
    db,
    `INSERT INTO drive_permissions (file_id, id, type, role, email_address, allow_file_discovery)
    VALUES (?, ?, 'user', 'owner', ?, 0) ON CONFLICT (file_id, id)
    DO UPDATE SET role = 'owner', expiration_ms = NULL, pending_owner = 0`,
  )
  for (const f of moving) {
    const parents = JSON.parse(f.parents) as string[]
    const top = parents.length === 0 || parents.includes(oldRoot)
    const next = top ? [...parents.filter((p) => p !== oldRoot), folder.id] : parents
    setOwner.run(toId, JSON.stringify(next), f.id)
    demote.run(f.id, oldPerm)
    promote.run(f.id, newPerm, to.email)
    recordChange(db, f.id)
  }
  return { transferred: moving.length, folderId: folder.id }
}

/**
 * Whether a file is shared: someone other than its owner holds a permission on it or on a folder above it (Drive
 * lists a folder's permissions as inherited on everything inside). Answers are memoised along the folder tree.
 */
function sharedness(db: Db): (fileId: string) => boolean {
  const memo = new Map<string, boolean>()
  const direct = stmt(db, `SELECT 1 FROM drive_permissions WHERE file_id = ? AND role <> 'owner' LIMIT 1`)
  const parentsOf = stmt(db, 'SELECT parents FROM drive_files WHERE id = ?')
  const walk = (id: string, depth: number): boolean => {
    const known = memo.get(id)
    if (known !== undefined) return known
    memo.set(id, false) // a cycle in parents cannot loop forever
    let shared = direct.get(id) !== undefined
    if (!shared && depth < 64) {
      const row = parentsOf.get(id) as { parents: string } | undefined
      shared = (row ? (JSON.parse(row.parents) as string[]) : []).some((p) => walk(p, depth + 1))
    }
    memo.set(id, shared)
    return shared
  }
  return (fileId) => walk(fileId, 0)
}
