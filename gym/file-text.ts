import { stmt, type Db } from '../envs/core/db.ts'

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
  'SELECT r.content AS bytes FROM drive_revisions r JOIN drive_files f ON f.id = r.file_id ' +
  'WHERE r.file_id = ? AND r.user_id = ? AND r.modified_ms >= ? AND r.content IS NOT NULL ' +
  'AND r.id IS NOT f.head_revision_id ORDER BY r.modified_ms, r.id'

/**
 * The stored bytes, as UTF-8 text, of a Drive file's revisions other than its head that `userId` made at or after
 * `sinceMs`, oldest first (oracles/types.ts `revisionTexts`, docs/decisions/0420). The head revision's bytes are the
 * file's own (`drive_files.content`, in the dump and `fileText`), so only earlier revisions are read from their rows.
 */
export function revisionTexts(db: Db, fileId: string, userId: string, sinceMs: number): string[] {
  const rows = stmt(db, EARLIER).all(fileId, userId, sinceMs) as { bytes?: unknown }[]
  return rows.flatMap((r) => (Buffer.isBuffer(r.bytes) ? [r.bytes.toString('utf8')] : []))
}
