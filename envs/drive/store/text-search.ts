import type Database from 'better-sqlite3'
import { wellFormed } from './name-search.ts'

// `fullText contains` and `description contains` in SQL, exactly as the JavaScript evaluator (query/evaluate.ts)
// judges them: the texts as SQLite gives them back, joined by line breaks, lower-cased with toLowerCase, hold the
// lower-cased value. LIKE answers rows of plain ASCII alone; a row with any other character (whose case JavaScript
// may fold differently: K, U+212A, lower-cases to k) is judged by a SQL function running that same JavaScript.

/** The SQL function: `wsgym_drive_contains(text, lowered value)` is 1 when `text.toLowerCase()` includes it. */
export const CONTAINS_FN = 'wsgym_drive_contains'

const ready = new WeakSet<Database.Database>()

/**
 * Registers CONTAINS_FN on the connection, once (a restored or forked world has a new connection, registered on its
 * first listing). Pure and deterministic: it reads only its arguments.
 */
export function useTextSearch(client: Database.Database): void {
  if (ready.has(client)) return
  client.function(CONTAINS_FN, { deterministic: true }, (text: unknown, value: unknown) =>
    String(text).toLowerCase().includes(String(value)) ? 1 : 0,
  )
  ready.add(client)
}

const ASCII = /^[\x20-\x7e]*$/
/** `%value%` for LIKE with `\` escaping. */
const likeAny = (value: string) => `%${value.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`
/** The column holds text of ASCII characters but NUL (where LIKE stops reading): LIKE judges it as JavaScript does. */
const plain = (column: string) => `length(${column}) = octet_length(${column})`

/**
 * `columns` (NOT NULL text), joined by line breaks, contain `value` case-insensitively as query/evaluate.ts tests
 * it; undefined for a value with a lone surrogate (bound, it would read back as other characters).
 *
 * With a printable ASCII value (no line break, so no match spans two columns): a column LIKE it is a match (its
 * ASCII letters lower-case alike in both, and JavaScript's folding of other characters leaves them in place); when
 * no column does and every column is plain ASCII, there is none; only the other rows reach the function.
 */
export function textContainsSql(
  columns: readonly string[],
  value: string,
): { where: string; params: string[] } | undefined {
  const low = value.toLowerCase()
  if (!wellFormed(value)) return undefined
  const joined = columns.join(' || char(10) || ')
  const judged = `${CONTAINS_FN}(${joined}, ?)`
  if (!ASCII.test(value)) return { where: judged, params: [low] }
  const likes = columns.map((c) => `${c} LIKE ? ESCAPE '\\'`)
  const odd = columns.map((c) => `NOT ${plain(c)}`).join(' OR ')
  return {
    where: `${likes.join(' OR ')} OR ((${odd}) AND ${judged})`,
    params: [...columns.map(() => likeAny(value)), low],
  }
}
