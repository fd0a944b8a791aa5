import { GoogleApiError } from '../../core/errors/google.ts'
import type { Db } from '../../core/db.ts'
import { featuresOf, generatedResourceName, type ResourceRow } from '../../core/resources.ts'
import { ownEntry } from '../../core/own-key.ts'

// resources.calendars.list `query` and `orderBy`, as the Directory API documents them: clauses `field op value`
// joined by AND; `=` is an exact match, `:` a prefix match (value ending in `*`) or, on a repeated field
// (featureInstances.feature.name), a HAS match; capacity also takes `>`, `>=`, `<`, `<=`. Values may be quoted.

const invalid = (what: string) => new GoogleApiError('INVALID_ARGUMENT', 'invalid', `Invalid Input: ${what}`)

type Op = '=' | ':' | '>' | '>=' | '<' | '<='
type Clause = { field: string; op: Op; value: string }

const FIELDS: Record<string, (db: Db, r: ResourceRow) => string[]> = {
  generatedResourceName: (db, r) => [generatedResourceName(db, r)],
  name: (_db, r) => [r.name],
  resourceName: (_db, r) => [r.name],
  buildingId: (_db, r) => (r.buildingId ? [r.buildingId] : []),
  floor_name: (_db, r) => (r.floorName ? [r.floorName] : []),
  floorName: (_db, r) => (r.floorName ? [r.floorName] : []),
  resourceEmail: (_db, r) => [r.email],
  resourceCategory: (_db, r) => [r.category],
  resourceType: (_db, r) => (r.type ? [r.type] : []),
  capacity: (_db, r) => (r.capacity === null ? [] : [String(r.capacity)]),
  'featureInstances.feature.name': (_db, r) => featuresOf(r),
}

const CLAUSE = /^\s*([A-Za-z_.]+)\s*(>=|<=|=|:|>|<)\s*("([^"]*)"|'([^']*)'|(\S+))\s*/

export function parseResourceQuery(query: string | undefined): Clause[] {
  const out: Clause[] = []
  let rest = (query ?? '').trim()
  while (rest.length > 0) {
    const m = CLAUSE.exec(rest)
    if (!m || !Object.hasOwn(FIELDS, m[1]!)) throw invalid('query')
    const op = m[2] as Op
    if (op.length > 1 || op === '>' || op === '<') {
      if (m[1] !== 'capacity') throw invalid('query')
    }
    out.push({ field: m[1]!, op, value: m[4] ?? m[5] ?? m[6] ?? '' })
    rest = rest.slice(m[0].length)
    const and = /^AND\s+/i.exec(rest)
    if (and) rest = rest.slice(and[0].length)
    else if (rest.length > 0) throw invalid('query')
  }
  return out
}

function holds(v: string, c: Clause): boolean {
  if (c.field === 'capacity') {
    const [a, b] = [Number(v), Number(c.value)]
    if (!Number.isFinite(b)) throw invalid('query')
    return c.op === '=' || c.op === ':'
      ? a === b
      : c.op === '>'
        ? a > b
        : c.op === '>='
          ? a >= b
          : c.op === '<'
            ? a < b
            : a <= b
  }
  const [have, want] = [v.toLowerCase(), c.value.toLowerCase()]
  if (c.op === ':' && want.endsWith('*')) return have.startsWith(want.slice(0, -1))
  return have === want
}

export const matchesResource = (db: Db, r: ResourceRow, clauses: readonly Clause[]) =>
  clauses.every((c) => FIELDS[c.field]!(db, r).some((v) => holds(v, c)))

const ORDER_FIELDS: Record<string, (r: ResourceRow) => string | number> = {
  resourceId: (r) => r.id,
  resourceName: (r) => r.name.toLowerCase(),
  capacity: (r) => r.capacity ?? -1,
  buildingId: (r) => r.buildingId ?? '',
  floorName: (r) => r.floorName ?? '',
}

/** `orderBy` ("buildingId, capacity desc") as a comparator; creation order breaks ties. */
export function resourceOrder(orderBy: string | undefined): (a: ResourceRow, b: ResourceRow) => number {
  const keys = (orderBy ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((part) => {
      const [field, dir, extra] = part.split(/\s+/)
      const key = ownEntry(ORDER_FIELDS, field ?? '')
      const d = (dir ?? 'asc').toLowerCase()
      if (!key || extra !== undefined || (d !== 'asc' && d !== 'desc')) throw invalid('orderBy')
      return { key, sign: d === 'desc' ? -1 : 1 }
    })
  return (a, b) => {
    for (const { key, sign } of keys) {
      const [x, y] = [key(a), key(b)]
      if (x !== y) return (x < y ? -1 : 1) * sign
    }
    return a.seq - b.seq
  }
}
