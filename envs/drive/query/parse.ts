import { badRequest } from '../../core/errors/google.ts'

/**
 * Drive's search grammar: `not` binds tighter than `and`, which binds tighter than `or`; strings are
 * single-quoted with `\'` and `\\` escapes.
 * @see https://developers.google.com/drive/api/guides/search-files
 */
export type Cond =
  | { kind: 'and' | 'or'; items: Cond[] }
  | { kind: 'not'; item: Cond }
  | { kind: 'cmp'; field: string; op: string; value: string | boolean }
  | { kind: 'in'; value: string; field: 'parents' | 'owners' | 'writers' | 'readers' }
  | { kind: 'has'; field: 'properties' | 'appProperties'; key: string; value: string }
  | { kind: 'flag'; field: 'sharedWithMe' }

type Tok = { t: 'str' | 'word' | 'op' | '(' | ')' | '{' | '}'; v: string }

/** The `files.list` query terms (besides `sharedWithMe`, `properties`/`appProperties` and `'x' in …`). */
const FIELDS = new Set([
  'name',
  'fullText',
  'mimeType',
  'modifiedTime',
  'viewedByMeTime',
  'sharedWithMeTime',
  'createdTime',
  'trashed',
  'starred',
  'visibility',
  'description',
  'shortcutDetails.targetId',
])
const DATE_FIELDS = new Set(['modifiedTime', 'viewedByMeTime', 'sharedWithMeTime', 'createdTime'])

const invalid = () => badRequest('Invalid Value', 'invalid', { location: 'q', locationType: 'parameter' })

function tokenize(q: string): Tok[] {
  const out: Tok[] = []
  let i = 0
  while (i < q.length) {
    const ch = q[i]!
    if (/\s/.test(ch)) {
      i++
      continue
    }
    if ('(){}'.includes(ch)) {
      out.push({ t: ch as Tok['t'], v: ch })
      i++
      continue
    }
    if (ch === "'") {
      let s = ''
      i++
      while (i < q.length && q[i] !== "'") {
        if (q[i] === '\\' && i + 1 < q.length) {
          s += q[i + 1]
          i += 2
          continue
        }
        s += q[i++]
      }
      if (q[i] !== "'") throw invalid()
      i++
      out.push({ t: 'str', v: s })
      continue
    }
    const op = /^(!=|<=|>=|=|<|>)/.exec(q.slice(i))
    if (op) {
      out.push({ t: 'op', v: op[1]! })
      i += op[1]!.length
      continue
    }
    const w = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(q.slice(i))
    if (!w) throw invalid()
    out.push({ t: 'word', v: w[0] })
    i += w[0].length
  }
  return out
}

/** Bounds on one query: tokens and nesting (parentheses and `not`), so no query runs unbounded work. */
export const DRIVE_QUERY_LIMITS = { chars: 8192, tokens: 1200, depth: 32 }

export function parseDriveQuery(q: string): Cond {
  // Deviation: Drive documents no limits; past these the query is refused as Drive refuses a bad one.
  if (q.length > DRIVE_QUERY_LIMITS.chars) throw invalid()
  const toks = tokenize(q)
  if (toks.length > DRIVE_QUERY_LIMITS.tokens) throw invalid()
  let depth = 0
  let nots = 0
  for (const t of toks) {
    if (t.t === '(') depth++
    else if (t.t === ')') depth = Math.max(0, depth - 1)
    nots = t.t === 'word' && t.v.toLowerCase() === 'not' ? nots + 1 : t.t === '(' ? nots : 0
    if (depth + nots > DRIVE_QUERY_LIMITS.depth) throw invalid()
  }
  let pos = 0
  const peek = () => toks[pos]
  const word = (v: string) => peek()?.t === 'word' && peek()!.v.toLowerCase() === v
  const expect = (t: Tok['t']) => {
    if (peek()?.t !== t) throw invalid()
    return toks[pos++]!
  }
  const orExpr = (): Cond => {
    const items = [andExpr()]
    while (word('or')) {
      pos++
      items.push(andExpr())
    }
    return items.length === 1 ? items[0]! : { kind: 'or', items }
  }
  const andExpr = (): Cond => {
    const items = [notExpr()]
    while (word('and')) {
      pos++
      items.push(notExpr())
    }
    return items.length === 1 ? items[0]! : { kind: 'and', items }
  }
  const notExpr = (): Cond => {
    if (word('not')) {
      pos++
      return { kind: 'not', item: notExpr() }
    }
    return primary()
  }
  const primary = (): Cond => {
    const tok = peek()
    if (!tok) throw invalid()
    if (tok.t === '(') {
      pos++
      const inner = orExpr()
      expect(')')
      return inner
    }
    if (tok.t === 'str') {
      pos++
      if (!word('in')) throw invalid()
      pos++
      const field = expect('word').v
      if (!['parents', 'owners', 'writers', 'readers'].includes(field)) throw invalid()
      return { kind: 'in', value: tok.v, field: field as 'parents' }
    }
    if (tok.t !== 'word') throw invalid()
    pos++
    const field = tok.v
    if (field === 'sharedWithMe') {
      // Bare `sharedWithMe`, or `sharedWithMe = true|false` / `!=` (the documented operators).
      const flag: Cond = { kind: 'flag', field: 'sharedWithMe' }
      const opTok = peek()
      if (opTok?.t !== 'op') return flag
      if (opTok.v !== '=' && opTok.v !== '!=') throw invalid()
      pos++
      const vt = expect('word')
      if (vt.v !== 'true' && vt.v !== 'false') throw invalid()
      return (vt.v === 'true') === (opTok.v === '=') ? flag : { kind: 'not', item: flag }
    }
    if (field === 'properties' || field === 'appProperties') {
      if (!word('has')) throw invalid()
      pos++
      expect('{')
      if (!word('key')) throw invalid()
      pos++
      if (expect('op').v !== '=') throw invalid()
      const key = expect('str').v
      if (!word('and')) throw invalid()
      pos++
      if (!word('value')) throw invalid()
      pos++
      if (expect('op').v !== '=') throw invalid()
      const value = expect('str').v
      expect('}')
      return { kind: 'has', field, key, value }
    }
    // An unknown term (field names are case-sensitive) is refused like any other malformed query.
    if (!FIELDS.has(field)) throw invalid()
    let op: string
    if (word('contains')) {
      pos++
      op = 'contains'
    } else op = expect('op').v
    const vt = peek()
    if (!vt) throw invalid()
    pos++
    // A date that does not parse is a 400, never a comparison that fails later.
    if (DATE_FIELDS.has(field)) {
      if (vt.t !== 'str') throw invalid()
      // RFC 3339 without an offset is UTC for Drive (JavaScript would read it in the host's zone).
      const value = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(vt.v) ? `${vt.v}Z` : vt.v
      if (Number.isNaN(Date.parse(value))) throw invalid()
      return { kind: 'cmp', field, op, value }
    }
    // `fullText contains '"hello world"'` is the documented exact-phrase form: the phrase without its quotes.
    if (vt.t === 'str' && field === 'fullText')
      return { kind: 'cmp', field, op, value: /^".*"$/s.test(vt.v) && vt.v.length >= 2 ? vt.v.slice(1, -1) : vt.v }
    if (vt.t === 'str') return { kind: 'cmp', field, op, value: vt.v }
    if (vt.t === 'word' && (vt.v === 'true' || vt.v === 'false'))
      return { kind: 'cmp', field, op, value: vt.v === 'true' }
    throw invalid()
  }
  const result = orExpr()
  if (pos !== toks.length) throw invalid()
  return result
}
