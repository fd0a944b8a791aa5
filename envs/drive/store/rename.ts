import { stmt, type Db } from '../../core/db.ts'

/**
 * A Directory rename reaches Drive (docs/decisions/0469, 0476): a grant is bound to the account, so permissions
 * naming the old address (of a user, or of a group) show the new one. Their ids, derived from the account, stay.
 * A user's approval reviews, access proposals (as requester or recipient) and label user values name the account
 * too: they show the new address, and the renamed reviewer can still respond (reviews are matched by address).
 * Deviation (unverified): the files' change feed records nothing for it; Google documents none of these after a
 * rename (a Drive label's user value and a reviewer are users in Google's model, so the new address is shown).
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
  if (kind !== 'user') return
  for (const col of ['requester_email', 'recipient_email'])
    stmt(db, `UPDATE drive_access_proposals SET ${col} = ? WHERE lower(${col}) = ?`).run(to, from)
  renameReviewers(db, from, to)
  renameLabelUsers(db, from, to)
}

type Reviewer = { email: string; response: string }

function renameReviewers(db: Db, from: string, to: string): void {
  const rows = stmt(db, 'SELECT file_id, id, reviewers FROM drive_approvals WHERE instr(lower(reviewers), ?) > 0').all(
    JSON.stringify(from).slice(1, -1),
  ) as { file_id: string; id: string; reviewers: string }[]
  const set = stmt(db, 'UPDATE drive_approvals SET reviewers = ? WHERE file_id = ? AND id = ?')
  for (const r of rows) {
    const list = JSON.parse(r.reviewers) as Reviewer[]
    if (!list.some((x) => x.email.toLowerCase() === from)) continue
    // A reviewer listed by both addresses (the new one was a stranger's until now) stays once, where the account was.
    const next = list
      .filter((x) => x.email.toLowerCase() !== to)
      .map((x) => (x.email.toLowerCase() === from ? { ...x, email: to } : x))
    set.run(JSON.stringify(next), r.file_id, r.id)
  }
}

type Fields = Record<string, { valueType: string; values: unknown[] }>

function renameLabelUsers(db: Db, from: string, to: string): void {
  const rows = stmt(
    db,
    'SELECT file_id, label_id, fields FROM drive_file_labels WHERE instr(lower(fields), ?) > 0',
  ).all(JSON.stringify(from).slice(1, -1)) as { file_id: string; label_id: string; fields: string }[]
  const set = stmt(db, 'UPDATE drive_file_labels SET fields = ? WHERE file_id = ? AND label_id = ?')
  for (const r of rows) {
    const fields = JSON.parse(r.fields) as Fields
    let changed = false
    for (const f of Object.values(fields)) {
      if (f.valueType !== 'user' || !f.values.some((v) => String(v).toLowerCase() === from)) continue
      f.values = [...new Set(f.values.map((v) => (String(v).toLowerCase() === from ? to : v)))]
      changed = true
    }
    if (changed) set.run(JSON.stringify(fields), r.file_id, r.label_id)
  }
}
