import { GoogleApiError } from '../../core/errors/google.ts'

// The Directory API's search syntax (users.list and groups.list `query`): space-separated clauses, all of which must
// match. `field:value` matches a word of the field (or the whole value); a trailing `*` makes it a prefix;
// `field=value` matches the whole field; a bare word matches the start of any searchable field's word. Values may be
// quoted ('Jane Smith'). Case never matters.

export type Clause = { field: string | null; op: ':' | '=' | null; value: string; prefix: boolean }

const CLAUSE = /\s*(?:([A-Za-z_][A-Za-z0-9_.]*)\s*([:=])\s*)?('([^']*)'|"([^"]*)"|([^\s'"]+))/y

export function parseQuery(query: string | undefined, fields: readonly string[]): Clause[] {
  const out: Clause[] = []
  const text = (query ?? '').trim()
  CLAUSE.lastIndex = 0
  while (CLAUSE.lastIndex < text.length) {
    const start = CLAUSE.lastIndex
    const m = CLAUSE.exec(text)
    if (!m || m.index !== start) throw new GoogleApiError('INVALID_ARGUMENT', 'invalid', 'Invalid Input')
    const field = m[1] ?? null
    if (field && !fields.includes(field)) throw new GoogleApiError('INVALID_ARGUMENT', 'invalid', 'Invalid Input')
    let value = m[4] ?? m[5] ?? m[6] ?? ''
    const prefix = value.endsWith('*')
    if (prefix) value = value.slice(0, -1)
    out.push({ field, op: (m[2] as ':' | '=' | undefined) ?? null, value: value.toLowerCase(), prefix })
    if (text.slice(CLAUSE.lastIndex).trim() === '') break
  }
  return out
}

const words = (s: string) =>
  s
    .toLowerCase()
    .split(/[\s@.]+/)
    .filter(Boolean)

/** Whether one field value satisfies a clause. */
function matchValue(raw: string, c: Clause): boolean {
  const v = raw.toLowerCase()
  if (c.op === '=') return c.prefix ? v.startsWith(c.value) : v === c.value
  if (c.prefix) return v.startsWith(c.value) || words(v).some((w) => w.startsWith(c.value))
  if (c.op === null) return v.startsWith(c.value) || words(v).some((w) => w.startsWith(c.value))
  return v === c.value || words(v).includes(c.value) || (c.value.includes(' ') && v.includes(c.value))
}

/** Whether a record (field → values) satisfies every clause; bare words search `anyFields`. */
export function matches(
  record: Record<string, string[]>,
  clauses: readonly Clause[],
  anyFields: readonly string[],
): boolean {
  return clauses.every((c) => {
    const fields = c.field ? [c.field] : anyFields
    return fields.some((f) => (record[f] ?? []).some((v) => matchValue(v, c)))
  })
}
