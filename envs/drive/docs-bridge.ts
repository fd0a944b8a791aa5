import { updateRows, type Db } from '../core/db.ts'
import { files } from './schema.ts'
import { nameColumns } from './store/name-search.ts'
import { effectiveRole, findBareFile, GOOGLE_DOC, insertFile, recordChange, touchFile } from './store/files.ts'

// The contract between Drive and Docs: a Google Doc is a Drive file; Docs keeps the document model,
// Drive keeps the file (owner, sharing, times, revisions, search text, change feed).

/** Creates the Drive file of a new Google Doc owned by a world user; its id is the documentId. */
export function createGoogleDocFile(
  db: Db,
  opts: { ownerId: string; title: string; parentId?: string },
): { id: string } {
  const row = insertFile(db, {
    name: opts.title,
    mimeType: GOOGLE_DOC,
    ownerId: opts.ownerId,
    parents: opts.parentId ? [opts.parentId] : [],
  })
  return { id: row.id }
}

/** The caller's effective role on a document ('none' when it does not exist or is not visible to them). */
export function docsAccess(
  db: Db,
  fileId: string,
  userId: string,
): 'none' | 'reader' | 'commenter' | 'writer' | 'owner' {
  const role = effectiveRole(db, fileId, userId)
  if (role === 'organizer' || role === 'fileOrganizer') return 'writer'
  return role
}

/** Whether a file is a Google Doc (undefined when there is no such file). */
/** The Drive MIME type of a Google Doc. */
export { GOOGLE_DOC }

export function isGoogleDoc(db: Db, fileId: string): boolean | undefined {
  const row = findBareFile(db, fileId)
  return row ? row.mimeType === GOOGLE_DOC : undefined
}

/** Drive bookkeeping after an edit through the Docs API: version, modifiedTime, revision, search text, change. */
export function recordDocEdit(db: Db, fileId: string, userId: string, plainText: string): void {
  touchFile(db, fileId, userId, { fullText: plainText })
}

/** A seeded document's search text (no new version or revision: the seed is the file's first state). */
export function indexSeededDoc(db: Db, fileId: string, plainText: string): void {
  updateRows(db, files, { fullText: plainText }, { id: fileId })
}

export function docTitle(db: Db, fileId: string): string | undefined {
  return findBareFile(db, fileId)?.name
}

export function renameDoc(db: Db, fileId: string, title: string): void {
  updateRows(db, files, { name: title, ...nameColumns(db, title) }, { id: fileId })
  recordChange(db, fileId)
}
