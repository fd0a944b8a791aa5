import { insertRow, selectRows, stmt, type Db } from '../../core/db.ts'
import { labels, mailboxes } from '../schema.ts'

/** System labels every mailbox has, with the visibility Gmail reports for them. */
export const SYSTEM_LABELS: { id: string; hidden: boolean }[] = [
  { id: 'CHAT', hidden: true }, { id: 'SENT', hidden: false }, { id: 'INBOX', hidden: false }, { id: 'IMPORTANT', hidden: true },
  { id: 'TRASH', hidden: true }, { id: 'DRAFT', hidden: false }, { id: 'SPAM', hidden: true }, { id: 'CATEGORY_FORUMS', hidden: true },
  { id: 'CATEGORY_UPDATES', hidden: true }, { id: 'CATEGORY_PERSONAL', hidden: true }, { id: 'CATEGORY_PROMOTIONS', hidden: true },
  { id: 'CATEGORY_SOCIAL', hidden: true }, { id: 'STARRED', hidden: false }, { id: 'UNREAD', hidden: false },
]
export const SYSTEM_LABEL_IDS = new Set(SYSTEM_LABELS.map((l) => l.id))

/** Creates the mailbox row and its system labels if the user has none yet. */
export function ensureMailbox(db: Db, userId: string): void {
  if (stmt(db, 'SELECT 1 FROM gmail_mailboxes WHERE user_id = ?').get(userId)) return
  insertRow(db, mailboxes, { userId, historyId: 1000 })
  for (const l of SYSTEM_LABELS) {
    insertRow(db, labels, {
      userId,
      id: l.id,
      name: l.id,
      type: 'system',
      messageListVisibility: l.hidden ? 'hide' : null,
      labelListVisibility: l.hidden ? 'labelHide' : null,
    })
  }
}

/** Advances and returns the history id of a mailbox known to exist (ensureMailbox ran for it earlier). */
export function nextHistoryId(db: Db, userId: string): number {
  const row = stmt(db, 'UPDATE gmail_mailboxes SET history_id = history_id + 1 WHERE user_id = ? RETURNING history_id').get(userId) as { history_id: number }
  return row.history_id
}

export function currentHistoryId(db: Db, userId: string): number {
  const row = stmt(db, 'SELECT history_id AS h FROM gmail_mailboxes WHERE user_id = ?').get(userId) as { h: number } | undefined
  return row?.h ?? 1000
}

export function findLabel(db: Db, userId: string, id: string) {
  return selectRows(db, labels, { userId, id })[0]
}

export function listLabels(db: Db, userId: string) {
  return selectRows(db, labels, { userId })
}

const normalise = (s: string) => s.toLowerCase().replace(/[\s/_-]+/g, '-')

/** Label id for a name as `label:` search takes it (case-insensitive; `-`, `/`, space equivalent; system ids too). */
export function labelIdByName(db: Db, userId: string, name: string): string | undefined {
  const wanted = normalise(name)
  for (const l of listLabels(db, userId)) if (normalise(l.name) === wanted || normalise(l.id) === wanted) return l.id
  return undefined
}
