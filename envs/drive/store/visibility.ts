import { stmt, type Db } from '../../core/db.ts'
import { getTableColumns } from 'drizzle-orm'
import { nowMs } from '../../core/clock.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { files, type FileRow, type PermissionRow } from '../schema.ts'

const LIST_SQL = `SELECT ${Object.entries(getTableColumns(files)).filter(([key]) => key !== 'content').map(([key, col]) => `"${col.name}" AS "${key}"`).join(', ')} FROM drive_files`
import { rootIdOf } from '../map.ts'
import type { FileView } from '../query/evaluate.ts'

/**
 * Every file a user may find through files.list, as FileViews. A file is listed when the user owns it or
 * holds a user/group permission on it or an ancestor, or a domain/anyone permission that allows discovery;
 * link-only sharing opens a file by id but does not put it in searches (as in Drive).
 */
export function listableFiles(db: Db, user: WorldUserRow): FileView[] {
  // Everything but the content bytes: listing never needs them, and loading them dominated list latency.
  const all = (stmt(db, LIST_SQL).all() as Record<string, unknown>[]).map((r) => ({ ...r, content: null, starred: r.starred === 1, trashed: r.trashed === 1, explicitlyTrashed: r.explicitlyTrashed === 1 }) as FileRow)
  const perms = (stmt(db, 'SELECT file_id AS fileId, id, type, role, email_address AS emailAddress, domain, allow_file_discovery AS allowFileDiscovery, expiration_ms AS expirationMs FROM drive_permissions').all() as Record<string, unknown>[]).map((p) => ({ ...p, allowFileDiscovery: p.allowFileDiscovery === 1 }) as PermissionRow)
  const byFile = new Map<string, PermissionRow[]>()
  for (const p of perms) (byFile.get(p.fileId) ?? byFile.set(p.fileId, []).get(p.fileId)!).push(p)
  const byId = new Map(all.map((f) => [f.id, f]))
  const emails = new Map((db.$client.prepare('SELECT id, email FROM world_users').all() as { id: string; email: string }[]).map((u) => [u.id, u.email]))
  const me = user.email.toLowerCase()
  const domain = me.split('@')[1]
  const t = nowMs(db)
  const memo = new Map<string, boolean>()
  const grants = (f: FileRow, depth: number): boolean => {
    const hit = memo.get(f.id)
    if (hit !== undefined) return hit
    let ok = f.ownerId === user.id
    if (!ok) {
      ok = (byFile.get(f.id) ?? []).some((p) => {
        if (p.expirationMs !== null && p.expirationMs <= t) return false
        if (p.type === 'user' || p.type === 'group') return (p.emailAddress ?? '').toLowerCase() === me
        if (p.type === 'domain') return p.allowFileDiscovery && (p.domain ?? '').toLowerCase() === domain
        return p.allowFileDiscovery
      })
    }
    if (!ok && depth < 50) ok = (JSON.parse(f.parents) as string[]).some((pid) => { const parent = byId.get(pid); return parent ? grants(parent, depth + 1) : false })
    memo.set(f.id, ok)
    return ok
  }
  const root = rootIdOf(user.id)
  return all
    .filter((f) => grants(f, 0))
    .map((row) => {
      const parents = JSON.parse(row.parents) as string[]
      return { row, perms: byFile.get(row.id) ?? [], ownerEmail: emails.get(row.ownerId) ?? '', viewerId: user.id, viewerEmail: user.email, viewerRoot: root, parents: parents.length ? parents : row.ownerId === user.id ? [root] : [] }
    })
}
