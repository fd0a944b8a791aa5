import type { Db } from '../../core/db.ts'
import { nowMs } from '../../core/clock.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { parseQuery } from '../query/parse.ts'
import { compile } from '../query/compile.ts'
import { labelIdByName } from './mailbox.ts'
import { GoogleApiError } from '../../core/errors/google.ts'

/** Whether one message matches a Gmail query (filters use this; an empty query matches nothing). */
export function matchesQuery(db: Db, user: WorldUserRow, messageId: string, q: string): boolean {
  if (q.trim() === '') return false
  let sql: ReturnType<typeof compile>
  try {
    sql = compile(parseQuery(q), {
      nowMs: nowMs(db),
      timeZone: user.timeZone,
      selfEmail: user.email.toLowerCase(),
      labelIdByName: (n) => labelIdByName(db, user.id, n),
    })
  } catch (e) {
    // A filter saved with a query search refuses (past its bounds) matches nothing: a recipient's own setting must
    // never fail the request of whoever mails them.
    if (e instanceof GoogleApiError) return false
    throw e
  }
  const row = db.$client
    .prepare(`SELECT 1 FROM gmail_messages m WHERE m.user_id = ? AND m.id = ? AND ${sql.where}`)
    .get(user.id, messageId, ...sql.params)
  return row !== undefined
}
