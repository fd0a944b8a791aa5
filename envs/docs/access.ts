import type { Db } from '../core/db.ts'
import { docsAccess, isGoogleDoc } from '../drive/docs-bridge.ts'
import { DocsError, docForbidden, docNotFound } from './errors.ts'

export type Role = 'reader' | 'commenter' | 'writer' | 'owner'
const RANK: Record<Role, number> = { reader: 1, commenter: 2, writer: 3, owner: 4 }

/**
 * The caller's role on a Google Doc through Drive permissions. A missing id is 404; a file the caller cannot see
 * is 403 PERMISSION_DENIED, as Google's editors front end answers for a document or spreadsheet not shared with the
 * caller (Drive's own files.get keeps 404 there); a visible file that is not a Google Doc is 400
 * FAILED_PRECONDITION; a caller below `need` gets 403.
 */
export function requireDoc(db: Db, fileId: string, userId: string, need: Role): Role {
  const isDoc = isGoogleDoc(db, fileId)
  if (isDoc === undefined) throw docNotFound()
  const role = docsAccess(db, fileId, userId)
  if (role === 'none') throw docForbidden()
  // A visible Drive file of another type (PDF, Sheet, folder) is not a document.
  if (!isDoc) throw new DocsError('FAILED_PRECONDITION', 'This operation is not supported for this document')
  if (RANK[role] < RANK[need]) throw docForbidden()
  return role
}
