import { sqlRowCount, stmt, type Db } from '../../core/db.ts'
import { nowMs } from '../../core/clock.ts'
import { badRequest } from '../../core/errors/google.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { parseQuery } from '../query/parse.ts'
import { compile, mentionsSpamTrash } from '../query/compile.ts'
import { labelIdByName } from './mailbox.ts'

export type SearchInput = { q?: string; labelIds?: readonly string[]; includeSpamTrash?: boolean }
export type SearchHit = { id: string; threadId: string; internalDate: number }

/** Where a page starts: just after the message (internalDate, id) in newest-first order. */
export type SearchCursor = { internalDate: number; id: string }

/**
 * How far past a page's start resultSizeEstimate counts. Gmail's estimate stops near 200 too: a mailbox with
 * thousands of matches answers 201 (recorded in specs/parity/gmail/messages_list*.json).
 */
export const ESTIMATE_CAP = 201

/**
 * The default exclusion of TRASH and SPAM. `+l.label_id` keeps SQLite from probing the label index once per label
 * id: it seeks the message's few label entries once and tests them (about a third less per row, the same rows).
 */
const NOT_SPAM_TRASH =
  'NOT EXISTS (SELECT 1 FROM gmail_message_labels l WHERE l.user_id = m.user_id AND ' +
  "l.message_id = m.id AND +l.label_id IN ('TRASH', 'SPAM'))"

/** Label ids written as one EXISTS term each; more are matched by one counting term. */
const MAX_LABEL_TERMS = 32

/** The WHERE clause (over `gmail_messages m`) and parameters of a mailbox search. */
function searchWhere(db: Db, user: WorldUserRow, input: SearchInput): { where: string[]; params: unknown[] } {
  const where: string[] = ['m.user_id = ?']
  const params: unknown[] = [user.id]
  let explicitSpamTrash = false
  if (input.q && input.q.trim() !== '') {
    if (input.q.length > 10_000) throw badRequest('Invalid query: too long.', 'invalidArgument')
    const ast = parseQuery(input.q)
    explicitSpamTrash = mentionsSpamTrash(ast)
    const sql = compile(ast, {
      nowMs: nowMs(db),
      timeZone: user.timeZone,
      selfEmail: user.email.toLowerCase(),
      labelIdByName: (n) => labelIdByName(db, user.id, n),
    })
    where.push(sql.where)
    params.push(...sql.params)
  }
  // A label named twice asks nothing more. Past a few dozen, one term counts the message's labels among them: a term
  // each would nest past SQLite's expression depth (1,000) from a 16 KB URL.
  const labelIds = [...new Set(input.labelIds ?? [])]
  if (labelIds.length > MAX_LABEL_TERMS) {
    where.push(
      '(SELECT COUNT(*) FROM gmail_message_labels l WHERE l.user_id = m.user_id AND l.message_id = m.id AND ' +
        'l.label_id IN (SELECT value FROM json_each(?))) = ?',
    )
    params.push(JSON.stringify(labelIds), labelIds.length)
  }
  for (const labelId of labelIds) {
    if (labelIds.length <= MAX_LABEL_TERMS) {
      where.push(
        'EXISTS (SELECT 1 FROM gmail_message_labels l WHERE l.user_id = m.user_id AND l.message_id = m.id AND l.label_id = ?)',
      )
      params.push(labelId)
    }
    if (labelId === 'TRASH' || labelId === 'SPAM') explicitSpamTrash = true
  }
  if (!input.includeSpamTrash && !explicitSpamTrash) {
    where.push(NOT_SPAM_TRASH)
  }
  return { where, params }
}

const SELECT_HIT = 'SELECT m.id AS id, m.thread_id AS threadId, m.internal_date AS internalDate FROM gmail_messages m'
const NEWEST_FIRST = 'ORDER BY m.internal_date DESC, m.id DESC'

/**
 * Message ids (and thread ids) of a mailbox matching `q` and `labelIds`, newest first. TRASH and SPAM
 * are left out unless `includeSpamTrash` is set or the query asks for them (`in:trash`, `in:anywhere`).
 */
export function searchMessages(db: Db, user: WorldUserRow, input: SearchInput): SearchHit[] {
  const { where, params } = searchWhere(db, user, input)
  return stmt(db, `${SELECT_HIT} WHERE ${where.join(' AND ')} ${NEWEST_FIRST}`).all(...params) as SearchHit[]
}

/**
 * One page of a search, newest first, starting after `after`: reads at most `limit + 1` rows through the
 * (user, internal_date, id) index, so the cost of a page does not grow with the mailbox or with how deep the
 * page is. `more` says whether a row follows the page; `estimate` counts matches from the page's start, up
 * to ESTIMATE_CAP (exact below it).
 *
 * Row counts are written into the SQL as literals: a bound LIMIT makes SQLite recompile the statement on every
 * run (it reads the bound value to plan). A page of at least MERGED_FROM rows reads the estimate's rows in the
 * same pass (one statement of up to ESTIMATE_CAP rows instead of the page and then a count over the same rows).
 */
export function searchPage(db: Db, user: WorldUserRow, input: SearchInput, limit: number, after?: SearchCursor) {
  const { where, params } = searchWhere(db, user, input)
  if (after) {
    where.push('(m.internal_date, m.id) < (?, ?)')
    params.push(after.internalDate, after.id)
  }
  const filter = where.join(' AND ')
  const merged = limit + 1 >= MERGED_FROM
  const read = merged ? Math.max(limit + 1, ESTIMATE_CAP) : limit + 1
  const page = stmt(db, `${SELECT_HIT_ROW} WHERE ${filter} ${NEWEST_FIRST} LIMIT ${sqlRowCount(read)}`)
  const rows = page.raw().all(...params) as [string, string, number][]
  const more = rows.length > limit
  const kept = more ? rows.slice(0, limit) : rows
  const hits = kept.map(([id, threadId, internalDate]) => ({ id, threadId, internalDate }))
  if (!more) return { hits, more, estimate: hits.length }
  if (merged) return { hits, more, estimate: Math.min(rows.length, ESTIMATE_CAP) }
  const count = stmt(
    db,
    `SELECT count(*) AS n FROM (SELECT 1 FROM gmail_messages m WHERE ${filter}` + ` LIMIT ${ESTIMATE_CAP})`,
  )
  return { hits, more, estimate: (count.get(...params) as { n: number }).n }
}

/**
 * Pages this long or longer read the estimate's rows with the page (see searchPage): below it, the extra rows
 * handed to JavaScript cost more than the separate count (measured on a 676-message mailbox, docs/decisions/0304).
 */
const MERGED_FROM = 50
const SELECT_HIT_ROW = 'SELECT m.id, m.thread_id, m.internal_date FROM gmail_messages m'

/** Threads of the matching messages, ordered by their newest matching message. */
export function searchThreads(db: Db, user: WorldUserRow, input: SearchInput): string[] {
  const seen = new Set<string>()
  for (const m of searchMessages(db, user, input)) seen.add(m.threadId)
  return [...seen]
}
