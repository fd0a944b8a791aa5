import { stmt, type Db } from '../../core/db.ts'

// `name contains` and name ordering in SQL, exactly as the JavaScript evaluator (query/evaluate.ts) and sorter
// (routes/order.ts) judge them: both read the name as SQLite gives it back, lower-case it with toLowerCase and
// compare UTF-16 code units. Two columns derived from the name carry that into SQL (docs/decisions/0220).

/** Splits a lower-cased name into the words `name contains` matches the start of (as query/evaluate.ts does). */
export const WORD_BREAK = /[^\p{L}\p{N}]+/u
/** A lone surrogate (a code point of category Cs when read with the `u` flag). */
const LONE_SURROGATE = /\p{Cs}/u
/** No lone surrogate: SQLite stores the text as given and reads it back the same. */
export const wellFormed = (s: string) => !LONE_SURROGATE.test(s)

/** A string as UTF-16BE bytes: compared with memcmp (SQLite's BLOB order), they order as JavaScript's `<`. */
export function utf16be(s: string): Buffer {
  const b = Buffer.from(s, 'utf16le')
  return b.swap16()
}

/**
 * The name as SQLite stores and returns it. better-sqlite3 writes a lone surrogate as bytes that read back as
 * replacement characters, so a name that is not well-formed is put through SQLite once to see what it becomes.
 */
function storedName(db: Db, name: string): string {
  return wellFormed(name) ? name : (stmt(db, '/* stored text */ SELECT CAST(? AS TEXT)').pluck().get(name) as string)
}

/** The name_key of a file whose stored name is `name` (well-formed, so stored as given). */
export const nameKeyOf = (name: string) => utf16be(name.toLowerCase())

/** The derived name columns of drive_files for a file named `name`. */
export function nameColumns(db: Db, name: string): { nameKey: Buffer; nameWords: string } {
  const lower = storedName(db, name).toLowerCase()
  // In ASCII text the letters and digits are exactly a-z, A-Z and 0-9 (none of them upper case once lowered).
  // Each distinct word once, in the order the name first has it, after a space (one pass, no arrays in between).
  const seen = new Set<string>()
  let nameWords = ''
  for (const w of lower.split(ASCII.test(lower) ? ASCII_WORD_BREAK : WORD_BREAK)) {
    if (w === '' || seen.has(w)) continue
    seen.add(w)
    nameWords += ` ${w}`
  }
  return { nameKey: utf16be(lower), nameWords }
}

const ASCII = /^[\x00-\x7f]*$/
/** WORD_BREAK for ASCII text, without the Unicode property tables. */
const ASCII_WORD_BREAK = /[^A-Za-z0-9]+/

/**
 * Recomputes the derived name columns of the given files (every file when `ids` is omitted): for rows written
 * without them, such as a benchmark's bulk copies.
 */
export function refreshNameColumns(db: Db, ids?: string[]): void {
  const some = '/* names of files */ SELECT id, name FROM drive_files WHERE id IN (SELECT value FROM json_each(?))'
  const rows = (
    ids
      ? stmt(db, some).raw().all(JSON.stringify(ids))
      : stmt(db, '/* names of all files */ SELECT id, name FROM drive_files').raw().all()
  ) as [string, string][]
  const update = stmt(db, '/* name columns */ UPDATE drive_files SET name_key = ?, name_words = ? WHERE id = ?')
  for (const [id, name] of rows) {
    const { nameKey, nameWords } = nameColumns(db, name)
    update.run(nameKey, nameWords, id)
  }
}

/**
 * `name contains 'value'` over the derived columns: every word of the lower-cased value starts one of the name's
 * words (a value with no letters or digits: the name starts with it, a prefix of its UTF-16BE bytes). Exact for a
 * well-formed value; a value with a lone surrogate (which can match half of a pair in JavaScript) gives undefined,
 * for the caller's looser test.
 */
export function nameContainsSql(value: string): { where: string; params: (string | number | Buffer)[] } | undefined {
  const v = value.toLowerCase()
  if (!wellFormed(v)) return undefined
  if (v === '') return { where: '1', params: [] }
  const wanted = [...new Set(v.split(WORD_BREAK).filter(Boolean))]
  if (wanted.length === 0) {
    // IS, not =: a row whose name_key was never written (NULL) is false here, never NULL (which NOT keeps false).
    const key = utf16be(v)
    return { where: 'substr(name_key, 1, ?) IS ?', params: [key.length, key] }
  }
  return { where: wanted.map(() => 'instr(name_words, ?) > 0').join(' AND '), params: wanted.map((w) => ` ${w}`) }
}
