import { nowMs } from '../../core/clock.ts'
import { stmt, type Db } from '../../core/db.ts'

// Bytes the episode erased, kept for the oracle only (docs/decisions/0439, schema.ts `erased`). SQLite copies them:
// none pass through JavaScript. No route reads this table.

const COLS =
  'file_id, revision_id, user_id, modified_ms, erased_ms, name, description, properties, mime_type, parents, ' +
  'drive_id, created_ms, content, checksums'

/** The file's own bytes (a Doc's text where it has none) as of its head revision. */
const KEEP_HEAD =
  `/* keep erased head */ INSERT INTO drive_erased (${COLS}) SELECT f.id, f.head_revision_id, ` +
  'COALESCE(r.user_id, f.last_modifying_user_id), COALESCE(r.modified_ms, f.modified_ms), ?, f.name, f.description, ' +
  'f.properties, f.mime_type, ' +
  "f.parents, f.drive_id, f.created_ms, COALESCE(f.content, CAST(NULLIF(f.full_text, '') AS BLOB)), f.checksums " +
  'FROM drive_files f LEFT JOIN drive_revisions r ON r.file_id = f.id AND r.id = f.head_revision_id WHERE f.id = ?'

/** Revisions holding bytes of their own (every one but the head). */
const KEEP_REVISIONS =
  `/* keep erased revisions */ INSERT INTO drive_erased (${COLS}) SELECT r.file_id, r.id, r.user_id, ` +
  'r.modified_ms, ?, f.name, f.description, f.properties, f.mime_type, f.parents, f.drive_id, f.created_ms, ' +
  'r.content, NULL ' +
  'FROM drive_revisions r JOIN drive_files f ON f.id = r.file_id WHERE r.file_id = ? AND r.content IS NOT NULL ' +
  'AND (? IS NULL OR r.id = ?) ORDER BY r.modified_ms, r.id'

/** Before a file is deleted for good: its bytes and every earlier revision's. */
export function keepErasedFile(db: Db, fileId: string): void {
  const now = nowMs(db)
  stmt(db, KEEP_HEAD).run(now, fileId)
  stmt(db, KEEP_REVISIONS).run(now, fileId, null, null)
}

/** Before one revision (not the head: it holds its own bytes) is deleted. */
export function keepErasedRevision(db: Db, fileId: string, revisionId: string): void {
  stmt(db, KEEP_REVISIONS).run(nowMs(db), fileId, revisionId, revisionId)
}
