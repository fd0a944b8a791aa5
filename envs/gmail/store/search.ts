import type { Db } from '../../core/db.ts'
import { nowMs } from '../../core/clock.ts'
import { badRequest } from '../../core/errors/google.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { parseQuery } from '../query/parse.ts'
import { compile, mentionsSpamTrash } from '../query/compile.ts'
import { labelIdByName } from './mailbox.ts'

export type SearchInput = { q?: string; labelIds?: readonly string[]; includeSpamTrash?: boolean }

/**
 * Message ids (and thread ids) of a mailbox matching `q` and `labelIds`, newest first. TRASH and SPAM
 * are left out unless `includeSpamTrash` is set or the query asks for them (`in:trash`, `in:anywhere`).
 */
export function searchMessages(db: Db, user: WorldUserRow, input: SearchInput): { id: string; threadId: string; internalDate: number }[] {
  const where: string[] = ['m.user_id = ?']
  const params: unknown[] = [user.id]
  let explicitSpamTrash = false
  if (input.q && input.q.trim() !== '') {
    if (input.q.length > 10_000) throw badRequest('Invalid query: too long.', 'invalidArgument')
    const ast = parseQuery(input.q)
    explicitSpamTrash = mentionsSpamTrash(ast)
    const sql = compile(ast, { nowMs: nowMs(db), timeZone: user.timeZone, selfEmail: user.email.toLowerCase(), labelIdByName: (n) => labelIdByName(db, user.id, n) })
    where.push(sql.where)
    params.push(...sql.params)
  }
  for (const labelId of input.labelIds ?? []) {
    where.push('EXISTS (SELECT 1 FROM gmail_message_labels l WHERE l.user_id = m.user_id AND l.message_id = m.id AND l.label_id = ?)')
    params.push(labelId)
    if (labelId === 'TRASH' || labelId === 'SPAM') explicitSpamTrash = true
  }
  if (!input.includeSpamTrash && !explicitSpamTrash) {
    where.push("NOT EXISTS (SELECT 1 FROM gmail_message_labels l WHERE l.user_id = m.user_id AND l.message_id = m.id AND l.label_id IN ('TRASH', 'SPAM'))")
  }
  const sql = `SELECT m.id AS id, m.thread_id AS threadId, m.internal_date AS internalDate FROM gmail_messages m WHERE ${where.join(' AND ')} ORDER BY m.internal_date DESC, m.id DESC`
  return db.$client.prepare(sql).all(...params) as { id: string; threadId: string; internalDate: number }[]
}

/** Threads of the matching messages, ordered by their newest matching message. */
export function searchThreads(db: Db, user: WorldUserRow, input: SearchInput): string[] {
  const seen = new Set<string>()
  for (const m of searchMessages(db, user, input)) seen.add(m.threadId)
  return [...seen]
}
