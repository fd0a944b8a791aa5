import { stmt, type Db } from '../../core/db.ts'
import { seedingMemo } from '../../core/seeding-memo.ts'
import { deleteMessage, labelChange, labelOrder, modifyLabels } from './messages.ts'
import { nextHistoryId, reserveHistoryIds } from './mailbox.ts'

type Ref = { id: string; threadId: string }

const REFS_OF_MANY =
  'SELECT id, thread_id AS threadId FROM gmail_messages ' +
  'WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))'

/** findMessageRef for many ids in one query: the refs of those the mailbox has, by id. */
export function findMessageRefs(db: Db, userId: string, ids: readonly string[]): Map<string, Ref> {
  const rows = stmt(db, REFS_OF_MANY).all(userId, JSON.stringify(ids)) as Ref[]
  return new Map(rows.map((r) => [r.id, r]))
}

const STORED_OF_MANY =
  'SELECT message_id AS m, label_id AS l FROM gmail_message_labels ' +
  'WHERE user_id = ? AND message_id IN (SELECT value FROM json_each(?)) ORDER BY rowid'
const DELETE_LABEL = 'DELETE FROM gmail_message_labels WHERE user_id = ? AND message_id = ? AND label_id = ?'
const INSERT_LABEL = 'INSERT INTO gmail_message_labels (user_id, message_id, label_id) VALUES (?, ?, ?)'
const SET_HISTORY_ID = 'UPDATE gmail_messages SET history_id = ? WHERE user_id = ? AND id = ?'
const INSERT_HISTORY =
  'INSERT INTO gmail_history ' +
  '(user_id, id, type, message_id, thread_id, message_label_ids, changed_label_ids) VALUES (?, ?, ?, ?, ?, ?, ?)'

/**
 * `modifyLabels` for each message of `refs` in turn (batchModify, threads.modify), with the reads done once for the
 * batch: the stored labels of every message in one query, and the mailbox's history id advanced in one write. Each
 * message's writes (its label rows, its history id, its history records) are the statements modifyLabels runs, in
 * the same order, so pages are split, filled and freed as before: the database bytes are those of the per-message
 * calls (tests/gmail/message-batch.test.ts).
 */
export function modifyLabelsOfMany(
  db: Db,
  userId: string,
  refs: readonly Ref[],
  add: readonly string[],
  remove: readonly string[],
): void {
  if (refs.length < 2 || seedingMemo(db)) {
    for (const r of refs) modifyLabels(db, userId, r.id, add, remove, r.threadId)
    return
  }
  const current = new Map<string, string[]>()
  for (const r of refs) current.set(r.id, [])
  const rows = stmt(db, STORED_OF_MANY).all(userId, JSON.stringify([...current.keys()])) as { m: string; l: string }[]
  for (const { m, l } of rows) current.get(m)!.push(l)
  const changes: { ref: Ref; added: string[]; removed: string[]; after: string[] }[] = []
  for (const ref of refs) {
    const stored = current.get(ref.id)!
    const { added, removed } = labelChange(stored, add, remove)
    if (added.length === 0 && removed.length === 0) continue
    // A new row's rowid is one past the table's largest, so it sorts last (as in modifyLabels).
    const now = [...stored.filter((l) => !removed.includes(l)), ...added]
    current.set(ref.id, now)
    changes.push({ ref, added, removed, after: labelOrder(now) })
  }
  if (changes.length === 0) return
  const first = reserveHistoryIds(db, userId, changes.length)
  const [deleteLabel, insertLabel] = [stmt(db, DELETE_LABEL), stmt(db, INSERT_LABEL)]
  const [setHistoryId, insertHistory] = [stmt(db, SET_HISTORY_ID), stmt(db, INSERT_HISTORY)]
  changes.forEach(({ ref, added, removed, after }, i) => {
    for (const labelId of removed) deleteLabel.run(userId, ref.id, labelId)
    for (const labelId of added) insertLabel.run(userId, ref.id, labelId)
    const historyId = first === undefined ? nextHistoryId(db, userId) : first + i
    setHistoryId.run(historyId, userId, ref.id)
    const labels = JSON.stringify(after)
    const record = (type: string, changed: string[]) =>
      insertHistory.run(userId, historyId, type, ref.id, ref.threadId, labels, JSON.stringify(changed))
    if (added.length) record('labelAdded', added)
    if (removed.length) record('labelRemoved', removed)
  })
}

const DELETE_LABELS = 'DELETE FROM gmail_message_labels WHERE user_id = ? AND message_id = ?'
const DELETE_ATTACHMENTS = 'DELETE FROM gmail_attachments WHERE user_id = ? AND message_id = ?'
const DELETE_MESSAGE = 'DELETE FROM gmail_messages WHERE user_id = ? AND id = ?'

/**
 * `deleteMessage` for each of `ids` in turn (batchDelete, threads.delete; unknown ids and repeats are skipped), with
 * the reads done once for the batch as in modifyLabelsOfMany, and each message's writes in deleteMessage's order.
 */
export function deleteMessagesOfMany(db: Db, userId: string, ids: readonly string[]): void {
  if (ids.length < 2 || seedingMemo(db)) {
    for (const id of ids) deleteMessage(db, userId, id)
    return
  }
  const refs = findMessageRefs(db, userId, ids)
  const doomed = new Map<string, string[]>()
  for (const id of ids) if (refs.has(id)) doomed.set(id, [])
  if (doomed.size === 0) return
  const rows = stmt(db, STORED_OF_MANY).all(userId, JSON.stringify([...doomed.keys()])) as { m: string; l: string }[]
  for (const { m, l } of rows) doomed.get(m)!.push(l)
  const first = reserveHistoryIds(db, userId, doomed.size)
  const [deleteLabels, deleteAttachments] = [stmt(db, DELETE_LABELS), stmt(db, DELETE_ATTACHMENTS)]
  const [deleteRow, insertHistory] = [stmt(db, DELETE_MESSAGE), stmt(db, INSERT_HISTORY)]
  let i = 0
  for (const [id, stored] of doomed) {
    deleteLabels.run(userId, id)
    deleteAttachments.run(userId, id)
    deleteRow.run(userId, id)
    const historyId = first === undefined ? nextHistoryId(db, userId) : first + i++
    const labels = JSON.stringify(labelOrder(stored))
    insertHistory.run(userId, historyId, 'messageDeleted', id, refs.get(id)!.threadId, labels, '[]')
  }
}
