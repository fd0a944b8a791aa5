import type { Cond } from './parse.ts'

/**
 * Turns a parsed `q` into a SQL WHERE clause over `drive_files` that keeps at least every file the query
 * matches (a superset), so files.list loads only candidate rows; `matches()` stays the judge of each file.
 * Conditions that depend on the viewer or on permissions (`in`, `sharedWithMe`, `visibility`, properties)
 * become TRUE. `exact` says the clause selects exactly the matching files, which `not` needs to stay sound.
 */
export type Prefilter = { where: string; params: (string | number)[]; exact: boolean }

const TRUE: Prefilter = { where: '1', params: [], exact: false }
const ASCII = /^[\x20-\x7e]*$/

/** `%value%` for LIKE with `\` escaping. */
const likeAny = (value: string) => `%${value.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`
/** Text with a character outside printable ASCII (and tab/newline): JS lower-casing may differ from LIKE's, so keep it. */
const NON_ASCII_GLOB = '*[^\t\n\r -~]*'
/** `column` contains the ASCII `value`, case-insensitively, or might once Unicode case folding is applied. */
const containsAscii = (column: string, value: string): Prefilter => ({ where: `${column} LIKE ? ESCAPE '\\' OR ${column} GLOB ?`, params: [likeAny(value), NON_ASCII_GLOB], exact: false })

export function prefilter(c: Cond | undefined): Prefilter {
  if (!c) return TRUE
  switch (c.kind) {
    case 'and': {
      const parts = c.items.map(prefilter)
      const narrowing = parts.filter((p) => p.where !== '1')
      if (!narrowing.length) return { ...TRUE, exact: parts.every((p) => p.exact) }
      return { where: narrowing.map((p) => `(${p.where})`).join(' AND '), params: narrowing.flatMap((p) => p.params), exact: parts.every((p) => p.exact) }
    }
    case 'or': {
      const parts = c.items.map(prefilter)
      if (parts.some((p) => p.where === '1')) return TRUE
      return { where: parts.map((p) => `(${p.where})`).join(' OR '), params: parts.flatMap((p) => p.params), exact: parts.every((p) => p.exact) }
    }
    case 'not': {
      const inner = prefilter(c.item)
      return inner.exact && inner.where !== '1' ? { where: `NOT (${inner.where})`, params: inner.params, exact: true } : TRUE
    }
    case 'cmp':
      return comparison(c.field, c.op, c.value)
    default:
      return TRUE
  }
}

function comparison(field: string, op: string, value: string | boolean): Prefilter {
  if (typeof value === 'boolean') {
    if ((field === 'trashed' || field === 'starred') && (op === '=' || op === '!=')) return { where: `${field} ${op} ?`, params: [value ? 1 : 0], exact: true }
    return TRUE
  }
  const text = (column: string): Prefilter => {
    if (op === '=' || op === '!=') return { where: `${column} ${op} ?`, params: [value], exact: true }
    if (op === 'contains' && ASCII.test(value)) return containsAscii(column, value)
    return TRUE
  }
  switch (field) {
    case 'name':
    case 'description':
      return text(field)
    case 'mimeType':
      if (op === 'contains') return { where: 'instr(mime_type, ?) > 0', params: [value], exact: true }
      return op === '=' || op === '!=' ? { where: `mime_type ${op} ?`, params: [value], exact: true } : TRUE
    case 'fullText': {
      // Searched over name, description and text together (a value with a line break may span them).
      if (op !== 'contains' || !ASCII.test(value)) return TRUE
      const parts = ['name', 'description', 'full_text'].map((column) => containsAscii(column, value))
      return { where: parts.map((p) => p.where).join(' OR '), params: parts.flatMap((p) => p.params), exact: false }
    }
    case 'modifiedTime':
    case 'createdTime': {
      const ms = Date.parse(value)
      if (Number.isNaN(ms) || !['=', '!=', '<', '<=', '>', '>='].includes(op)) return TRUE
      return { where: `${field === 'modifiedTime' ? 'modified_ms' : 'created_ms'} ${op} ?`, params: [ms], exact: true }
    }
    default:
      return TRUE
  }
}
