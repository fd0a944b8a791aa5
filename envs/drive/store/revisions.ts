import { stmt, type Db } from '../../core/db.ts'
import type { revisions } from '../schema.ts'

// A file's revisions (docs/decisions/0421). The head revision of a file with content keeps no bytes of its own:
// its row's `content` is NULL and its bytes are the file's `content`, so an upload is stored once. When another
// revision becomes head, the old head's bytes are copied into its row first: every other revision holds its own.
// A revision of a Google Doc has neither content nor size; a revision with bytes always has its size.

/** A revision row without its bytes: what every answer but `alt=media` renders. */
export type RevisionMeta = Omit<typeof revisions.$inferSelect, 'content'>

const META =
  'file_id AS fileId, id, modified_ms AS modifiedMs, user_id AS userId, mime_type AS mimeType, size, ' +
  'keep_forever AS keepForever FROM drive_revisions'
const withFlag = (r: Record<string, unknown>) => ({ ...r, keepForever: r.keepForever === 1 }) as RevisionMeta

/** A file's revisions, oldest first. */
export function revisionsOf(db: Db, fileId: string): RevisionMeta[] {
  const rows = stmt(db, `SELECT ${META} WHERE file_id = ? ORDER BY modified_ms`).all(fileId)
  return (rows as Record<string, unknown>[]).map(withFlag)
}

/** One revision of a file, or undefined. */
export function findRevision(db: Db, fileId: string, id: string): RevisionMeta | undefined {
  const r = stmt(db, `SELECT ${META} WHERE file_id = ? AND id = ?`).get(fileId, id) as
    Record<string, unknown> | undefined
  return r && withFlag(r)
}

/** Whether a revision has bytes (a revision of a file with content; a Google Doc's have none). */
export const hasBytes = (r: RevisionMeta) => r.size !== null

const BYTES_SQL =
  '/* revision bytes */ SELECT CASE WHEN r.content IS NOT NULL THEN r.content ' +
  'WHEN f.head_revision_id = r.id THEN f.content END FROM drive_revisions r JOIN drive_files f ON f.id = r.file_id ' +
  'WHERE r.file_id = ? AND r.id = ?'

/** A revision's bytes: its own, or the file's for the head revision; null for a revision without bytes. */
export function revisionBytes(db: Db, fileId: string, id: string): Buffer | null {
  return (stmt(db, BYTES_SQL).pluck().get(fileId, id) as Buffer | null | undefined) ?? null
}

const KEEP_HEAD_BYTES =
  '/* old head keeps its bytes */ UPDATE drive_revisions SET content = ' +
  '(SELECT content FROM drive_files WHERE id = ?) WHERE file_id = ? AND id = ? AND content IS NULL AND size IS NOT NULL'

/**
 * Before a file's head revision `headId` stops being its head (a new revision, in the same transaction): its bytes,
 * until now the file's content, are copied into its own row. SQLite copies them; none pass through JavaScript.
 */
export function keepHeadBytes(db: Db, fileId: string, headId: string): void {
  stmt(db, KEEP_HEAD_BYTES).run(fileId, fileId, headId)
}
