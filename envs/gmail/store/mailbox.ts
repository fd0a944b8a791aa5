import { insertRow, selectRows, stmt, type Db } from '../../core/db.ts'
import { labels, mailboxes } from '../schema.ts'
import {
  flushBumped,
  seedingBump,
  seedingBumpedValue,
  seedingMemo,
  storedIntSize,
  type BumpedColumn,
} from '../../core/seeding-memo.ts'

/** System labels every mailbox has, with the visibility Gmail reports for them. */
export const SYSTEM_LABELS: { id: string; hidden: boolean }[] = [
  { id: 'CHAT', hidden: true },
  { id: 'SENT', hidden: false },
  { id: 'INBOX', hidden: false },
  { id: 'IMPORTANT', hidden: true },
  { id: 'TRASH', hidden: true },
  { id: 'DRAFT', hidden: false },
  { id: 'SPAM', hidden: true },
  { id: 'CATEGORY_FORUMS', hidden: true },
  { id: 'CATEGORY_UPDATES', hidden: true },
  { id: 'CATEGORY_PERSONAL', hidden: true },
  { id: 'CATEGORY_PROMOTIONS', hidden: true },
  { id: 'CATEGORY_SOCIAL', hidden: true },
  { id: 'STARRED', hidden: false },
  { id: 'UNREAD', hidden: false },
]
export const SYSTEM_LABEL_IDS = new Set(SYSTEM_LABELS.map((l) => l.id))

/** Creates the mailbox row and its system labels if the user has none yet. */
export function ensureMailbox(db: Db, userId: string): void {
  // While seeding, a mailbox whose history id was bumped exists (nothing deletes one).
  const memo = seedingMemo(db)
  if (memo && seedingBumpedValue(memo, HISTORY.table, userId) !== undefined) return
  if (stmt(db, 'SELECT 1 FROM gmail_mailboxes WHERE user_id = ?').get(userId)) return
  // A new row may move others: history ids a seed has not written yet go first (envs/core/seeding-memo.ts).
  if (memo) flushBumped(db, memo, HISTORY.table)
  insertRow(db, mailboxes, { userId, historyId: 1000 })
  for (const l of SYSTEM_LABELS) {
    insertRow(db, labels, {
      userId,
      id: l.id,
      name: l.id,
      nameKey: labelNameKey(l.id),
      type: 'system',
      messageListVisibility: l.hidden ? 'hide' : null,
      labelListVisibility: l.hidden ? 'labelHide' : null,
    })
  }
}

/** Advances and returns the history id of a mailbox known to exist (ensureMailbox ran for it earlier). */
export function nextHistoryId(db: Db, userId: string): number {
  const memo = seedingMemo(db)
  if (memo) return seedingBump(db, memo, HISTORY, userId, () => bumpHistoryId(db, userId))
  return bumpHistoryId(db, userId)
}

/**
 * Advances a mailbox's history id by `n` and returns the first of the `n` ids that `n` calls of nextHistoryId would
 * have returned, in one write; undefined (nothing written) where those calls would not leave the same bytes: while
 * seeding, or where the stored integer would change size on the way (the row is then rewritten, not overwritten).
 */
export function reserveHistoryIds(db: Db, userId: string, n: number): number | undefined {
  if (seedingMemo(db)) return undefined
  const current = currentHistoryId(db, userId)
  if (storedIntSize(current) !== storedIntSize(current + n)) return undefined
  stmt(db, 'UPDATE gmail_mailboxes SET history_id = ? WHERE user_id = ?').run(current + n, userId)
  return current + 1
}

const bumpHistoryId = (db: Db, userId: string) =>
  (
    stmt(db, 'UPDATE gmail_mailboxes SET history_id = history_id + 1 WHERE user_id = ? RETURNING history_id').get(
      userId,
    ) as { history_id: number }
  ).history_id
const HISTORY: BumpedColumn = {
  table: 'gmail_mailboxes',
  overwrite: 'UPDATE gmail_mailboxes SET history_id = ? WHERE user_id = ?',
}

export function currentHistoryId(db: Db, userId: string): number {
  const memo = seedingMemo(db)
  const seeded = memo && seedingBumpedValue(memo, HISTORY.table, userId)
  if (seeded !== undefined) return seeded
  const row = stmt(db, 'SELECT history_id AS h FROM gmail_mailboxes WHERE user_id = ?').get(userId) as
    { h: number } | undefined
  return row?.h ?? 1000
}

/** Whether the mailbox has label `id` (findLabel without reading the row). */
export function labelExists(db: Db, userId: string, id: string): boolean {
  return stmt(db, 'SELECT 1 FROM gmail_labels WHERE user_id = ? AND id = ?').get(userId, id) !== undefined
}

export function findLabel(db: Db, userId: string, id: string) {
  return selectRows(db, labels, { userId, id })[0]
}

export function listLabels(db: Db, userId: string) {
  return selectRows(db, labels, { userId })
}

/** How two label names clash: the same in JavaScript's lower case (`gmail_labels.name_key`). */
export const labelNameKey = (name: string) => name.toLowerCase()

const LABEL_BY_KEY = 'SELECT id FROM gmail_labels WHERE user_id = ? AND name_key = ? ORDER BY rowid'

/** Ids of the mailbox's labels (system ones too) whose name clashes with `name`, through the name-key index. */
export function labelsNamed(db: Db, userId: string, name: string): string[] {
  return stmt(db, LABEL_BY_KEY).pluck().all(userId, labelNameKey(name)) as string[]
}

/** How many labels (system and user) the mailbox has. */
export function labelCount(db: Db, userId: string): number {
  return stmt(db, 'SELECT count(*) FROM gmail_labels WHERE user_id = ?').pluck().get(userId) as number
}

const normalise = (s: string) => s.toLowerCase().replace(/[\s/_-]+/g, '-')

/** Label id for a name as `label:` search takes it (case-insensitive; `-`, `/`, space equivalent; system ids too). */
export function labelIdByName(db: Db, userId: string, name: string): string | undefined {
  const wanted = normalise(name)
  for (const l of listLabels(db, userId)) if (normalise(l.name) === wanted || normalise(l.id) === wanted) return l.id
  return undefined
}
