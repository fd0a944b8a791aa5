import type { Db } from '../core/db.ts'
import { docsAccess, isGoogleDoc } from '../drive/docs-bridge.ts'
import { docForbidden, docNotFound } from './errors.ts'

export type Role = 'reader' | 'commenter' | 'writer' | 'owner'
const RANK: Record<Role, number> = { reader: 1, commenter: 2, writer: 3, owner: 4 }

/**
 * The caller's role on a Google Doc through Drive permissions. Missing files, files that are not
 * Google Docs and files the caller cannot see are all 404 (Google does not reveal them); a caller
 * below `need` gets 403.
 */
export function requireDoc(db: Db, fileId: string, userId: string, need: Role): Role {
  if (isGoogleDoc(db, fileId) !== true) throw docNotFound()
  const role = docsAccess(db, fileId, userId)
  if (role === 'none') throw docNotFound()
  if (RANK[role] < RANK[need]) throw docForbidden()
  return role
}
