import type { World } from '../../envs/core/world.ts'
import { stmt } from '../../envs/core/db.ts'

/** The most UTF-16 code units of a body the log keeps (then `…[truncated]`). */
export const MAX_BODY = 64 * 1024

export type ActionRecord = {
  userId: string | null
  service: string | null
  operationId: string | null
  method: string
  path: string
  query: string
  body: string | null
  status: number
  /** Whether the call changed the world's rows and no error undid it (docs/decisions/0406). */
  wrote: boolean
}

/** A token's mac (the secret part) in a query string or body: kept out of the log, which snapshots carry. */
const TOKEN_MAC = /((?:ya29\.[a-z0-9_]+\.|xox[pb]-[a-z0-9_]+-)[0-9a-f]{24})[0-9a-f]{32}/g
export const redactTokens = (text: string) =>
  // Every match starts with one of the two literal prefixes: text without either is returned as it is.
  text.includes('ya29.') || text.includes('xox') ? text.replace(TOKEN_MAC, '$1<redacted>') : text

/**
 * The row is stamped with the world clock read inside the insert (`nowMs`: the stored text as a number, 0 when
 * unset; the clock is always stored as an integer's text), one statement instead of a read and a write.
 */
const INSERT_AT_NOW =
  'INSERT INTO world_action_log (at_ms, user_id, service, operation_id, method, path, query, ' +
  "body, status, wrote) VALUES (coalesce((SELECT CAST(value AS INTEGER) FROM world_meta WHERE key = 'clock_ms'), 0), " +
  '?,?,?,?,?,?,?,?,?)'

/** Appends one agent call to the world's action log (after the response is known), without token secrets. */
export function logAction(world: World, record: ActionRecord): void {
  const cut =
    record.body !== null && record.body.length > MAX_BODY
      ? `${record.body.slice(0, MAX_BODY)}…[truncated]`
      : record.body
  const body = cut === null ? null : redactTokens(cut)
  const r = record
  const query = redactTokens(r.query)
  stmt(world.db, INSERT_AT_NOW).run(
    r.userId,
    r.service,
    r.operationId,
    r.method,
    r.path,
    query,
    body,
    r.status,
    +r.wrote,
  )
}
