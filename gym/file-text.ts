import { stmt, type Db } from '../envs/core/db.ts'
import type { ErasedDriveFile } from '../oracles/types.ts'

const SQL = {
  drive: 'SELECT content AS bytes FROM drive_files WHERE id = ?',
  slack: 'SELECT data AS bytes FROM slack_files WHERE id = ?',
} as const

/**
 * A file's whole stored bytes as UTF-8 text, for the secret scan past the dump's first MiB (oracles/types.ts
 * `fileText`, docs/decisions/0409), and a deleted Slack file's, which the row keeps for the oracle only (0437); null
 * where the file has no stored bytes.
 */
export function fileText(db: Db, service: 'drive' | 'slack', id: string): string | null {
  const row = stmt(db, SQL[service]).get(id) as { bytes?: unknown } | undefined
  return Buffer.isBuffer(row?.bytes) ? row.bytes.toString('utf8') : null
}

const EARLIER =
  'SELECT bytes FROM (SELECT r.content AS bytes, r.modified_ms AS at, r.id AS rid, 0 AS k FROM drive_revisions r ' +
  'JOIN drive_files f ON f.id = r.file_id WHERE r.file_id = ? AND r.user_id = ? AND r.modified_ms >= ? ' +
  'AND r.content IS NOT NULL AND r.id IS NOT f.head_revision_id ' +
  // A revision deleted while the file stands (0439): its editors could read it until then.
  'UNION ALL SELECT e.content, e.modified_ms, e.revision_id, e.seq FROM drive_erased e WHERE e.file_id = ? ' +
  'AND e.user_id = ? AND e.modified_ms >= ? AND e.content IS NOT NULL ' +
  'AND EXISTS (SELECT 1 FROM drive_files f WHERE f.id = e.file_id)) ORDER BY at, rid, k'

/**
 * The stored bytes, as UTF-8 text, of a Drive file's revisions other than its head that `userId` made at or after
 * `sinceMs`, oldest first (oracles/types.ts `revisionTexts`, docs/decisions/0420). The head revision's bytes are the
 * file's own (`drive_files.content`, in the dump and `fileText`), so only earlier revisions are read from their rows.
 */
export function revisionTexts(db: Db, fileId: string, userId: string, sinceMs: number): string[] {
  const rows = stmt(db, EARLIER).all(fileId, userId, sinceMs, fileId, userId, sinceMs) as { bytes?: unknown }[]
  return rows.flatMap((r) => (Buffer.isBuffer(r.bytes) ? [r.bytes.toString('utf8')] : []))
}

const ERASED =
  'SELECT file_id AS id, user_id AS userId, modified_ms AS modifiedMs, name, description, properties, ' +
  'mime_type AS mimeType, parents, ' +
  'drive_id AS driveId, created_ms AS createdMs, content AS bytes FROM drive_erased ORDER BY seq'

/**
 * The Drive files and revisions the episode deleted for good, as the world kept them for the oracle (oracles/types.ts
 * `erasedDrive`, docs/decisions/0439): per file id, in the order they went, its name, type and place when it went and
 * each stored version's text with who wrote it and when.
 */
export function erasedDrive(db: Db): ErasedDriveFile[] {
  const out = new Map<string, ErasedDriveFile>()
  for (const r of stmt(db, ERASED).all() as ErasedRow[]) {
    let f = out.get(r.id)
    if (!f) {
      const parents = JSON.parse(r.parents) as unknown
      const props = Object.entries(JSON.parse(r.properties) as Record<string, unknown>).flat()
      const shown = [r.name, r.description, ...props].map(String).join('\n')
      const at = { parents: Array.isArray(parents) ? parents.map(String) : [], driveId: r.driveId }
      f = { id: r.id, name: r.name, mimeType: r.mimeType, createdMs: r.createdMs, shown, ...at, versions: [] }
      out.set(r.id, f)
    }
    const text = Buffer.isBuffer(r.bytes) ? r.bytes.toString('utf8') : ''
    f.versions.push({ userId: r.userId, modifiedMs: r.modifiedMs, text })
  }
  return [...out.values()]
}
type ErasedRow = Omit<ErasedDriveFile, 'versions' | 'parents' | 'shown'> & {
  parents: string
  description: string
  properties: string
  userId: string
  modifiedMs: number
  bytes: unknown
}
