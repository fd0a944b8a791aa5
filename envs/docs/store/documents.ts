import { createHash } from 'node:crypto'
import { stmt, type Db } from '../../core/db.ts'
import { newDocument } from '../model/new.ts'
import type { DocModel } from '../model/types.ts'

/** A stored document: the model, its revision number (0 for a never-edited document) and its stored JSON's length. */
export type Stored = { model: DocModel; revision: number; size: number }

/** The stored document, or a fresh empty one when the Google Doc has no content row yet. */
export function loadDocument(db: Db, fileId: string): Stored {
  const row = stmt(db, 'SELECT model, revision FROM docs_documents WHERE file_id = ?').get(fileId) as
    { model: string; revision: number } | undefined
  if (!row) return { model: newDocument(), revision: 0, size: 0 }
  return { model: JSON.parse(row.model) as DocModel, revision: row.revision, size: row.model.length }
}

/** Saves a document; `check` sees the stored JSON's length first and may refuse it by throwing. */
export function saveDocument(
  db: Db,
  fileId: string,
  model: DocModel,
  revision: number,
  check?: (size: number) => void,
) {
  const text = JSON.stringify(model)
  check?.(text.length)
  stmt(
    db,
    'INSERT INTO docs_documents (file_id, model, revision) VALUES (?, ?, ?) ON CONFLICT(file_id) DO UPDATE SET model = excluded.model, revision = excluded.revision',
  ).run(fileId, text, revision)
}

export function deleteDocumentRow(db: Db, fileId: string) {
  stmt(db, 'DELETE FROM docs_documents WHERE file_id = ?').run(fileId)
}

/** Every stored document id, sorted. */
export function storedDocumentIds(db: Db): string[] {
  return (stmt(db, 'SELECT file_id FROM docs_documents ORDER BY file_id').all() as { file_id: string }[]).map(
    (r) => r.file_id,
  )
}

/**
 * The opaque revisionId of a revision: derived from (file, revision) so it is stable and
 * deterministic, shaped like Google's (an `AIxLk` prefix and ~100 URL-safe characters).
 */
export function revisionIdOf(fileId: string, revision: number): string {
  const a = createHash('sha512').update(`${fileId}\u0000${revision}`).digest('base64url')
  return `ALBJ4L${a}`.slice(0, 102)
}

/** The revision number a revisionId names, searching back from the current one; undefined if none. */
export function revisionOfId(fileId: string, current: number, id: string): number | undefined {
  for (let r = current; r >= Math.max(0, current - 5000); r--) if (revisionIdOf(fileId, r) === id) return r
  return undefined
}
