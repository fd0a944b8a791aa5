import { stmt, type Db } from '../../core/db.ts'

/**
 * A Directory rename reaches Drive (docs/decisions/0469): a grant is bound to the account, so permissions naming the
 * old address (of a user, or of a group) show the new one. Their ids, derived from the account, stay.
 * Deviation (unverified): the files' change feed records nothing for it.
 */
export function renameDriveAddress(db: Db, kind: 'user' | 'group', oldEmail: string, newEmail: string): void {
  const from = oldEmail.toLowerCase()
  const to = newEmail.toLowerCase()
  if (from === to) return
  stmt(db, 'UPDATE drive_permissions SET email_address = ? WHERE type = ? AND lower(email_address) = ?').run(
    to,
    kind,
    from,
  )
}
