import { stmt, type Db } from '../../core/db.ts'
import { getTableColumns } from 'drizzle-orm'
import { nowMs } from '../../core/clock.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { files, type FileRow, type PermissionRow } from '../schema.ts'

const LIST_SQL = `SELECT ${Object.entries(getTableColumns(files)).filter(([key]) => key !== 'content').map(([key, col]) => `"${col.name}" AS "${key}"`).join(', ')} FROM drive_files`
import { rootIdOf } from '../map.ts'
import type { FileView } from '../query/evaluate.ts'
import type { Cond } from '../query/parse.ts'
import { prefilter } from '../query/prefilter.ts'

const FOLDER = 'application/vnd.google-apps.folder'

// Statements here set raw/pluck modes on the shared statement cache, so their SQL text is their own.
// Permission emails are stored lower-cased (seed and permissions.create), so the email index applies.
/** Files (and shared drives, by membership) the user reaches directly: owned, or through an unexpired user/group permission or a discoverable
 * domain/anyone permission. */
const DIRECT_SQL = `/* listable direct */ SELECT id FROM drive_files WHERE owner_id = @owner AND drive_id IS NULL
  UNION SELECT file_id FROM drive_permissions WHERE (expiration_ms IS NULL OR expiration_ms > @now) AND (
    (type IN ('user', 'group') AND email_address = @email)
    OR (type = 'domain' AND allow_file_discovery = 1 AND lower(domain) = @domain)
    OR (type = 'anyone' AND allow_file_discovery = 1))`
const PERMS_OF_SQL = `SELECT file_id AS fileId, id, type, role, email_address AS emailAddress, domain,
  allow_file_discovery AS allowFileDiscovery, expiration_ms AS expirationMs
  FROM drive_permissions WHERE file_id IN (SELECT value FROM json_each(?))`

/**
 * Every file a user may find through files.list, as FileViews. A file is listed when the user owns it or
 * holds a user/group permission on it or an ancestor, or a domain/anyone permission that allows discovery;
 * link-only sharing opens a file by id but does not put it in searches (as in Drive).
 * Only candidate rows are loaded: the query's SQL prefilter narrows them, direct grants come from SQL, and
 * inherited access walks the folder tree (folders are few next to files).
 */
export function listableFiles(db: Db, user: WorldUserRow, cond?: Cond): FileView[] {
  const me = user.email.toLowerCase()
  const direct = new Set(stmt(db, DIRECT_SQL).pluck().all({ owner: user.id, now: nowMs(db), email: me, domain: me.split('@')[1] ?? '' }) as string[])
  const folderParents = new Map((stmt(db, '/* listable folders */ SELECT id, parents FROM drive_files WHERE mime_type = ?').raw().all(FOLDER) as [string, string][]))
  const memo = new Map<string, boolean>()
  const grants = (id: string, parents: string, depth: number): boolean => {
    if (direct.has(id)) return true
    const hit = memo.get(id)
    if (hit !== undefined) return hit
    memo.set(id, false)
    const ok = depth < 50 && (JSON.parse(parents) as string[]).some((pid) => direct.has(pid) || (folderParents.has(pid) && grants(pid, folderParents.get(pid)!, depth + 1)))
    memo.set(id, ok)
    return ok
  }
  const pf = prefilter(cond)
  const rows = (stmt(db, pf.where === '1' ? LIST_SQL : `${LIST_SQL} WHERE ${pf.where}`).all(...pf.params) as Record<string, unknown>[])
    .filter((r) => grants(r.id as string, r.parents as string, 0))
    .map((r) => ({ ...r, content: null, starred: r.starred === 1, trashed: r.trashed === 1, explicitlyTrashed: r.explicitlyTrashed === 1 }) as FileRow)
  const byFile = new Map<string, PermissionRow[]>()
  const perms = stmt(db, PERMS_OF_SQL).all(JSON.stringify(rows.map((r) => r.id))) as Record<string, unknown>[]
  for (const p of perms) {
    const row = { ...p, allowFileDiscovery: p.allowFileDiscovery === 1 } as PermissionRow
    ;(byFile.get(row.fileId) ?? byFile.set(row.fileId, []).get(row.fileId)!).push(row)
  }
  const emails = new Map((stmt(db, '/* listable owners */ SELECT id, email FROM world_users').raw().all() as [string, string][]))
  const root = rootIdOf(user.id)
  return rows.map((row) => {
    const parents = JSON.parse(row.parents) as string[]
    return { row, perms: byFile.get(row.id) ?? [], ownerEmail: emails.get(row.ownerId) ?? '', viewerId: user.id, viewerEmail: user.email, viewerRoot: root, parents: parents.length ? parents : row.ownerId === user.id ? [root] : [] }
  })
}
