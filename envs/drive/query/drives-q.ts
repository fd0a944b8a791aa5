import { badRequest } from '../../core/errors/google.ts'
import { DRIVE_QUERY_LIMITS } from './parse.ts'

/** What a shared-drive search term reads from a drive. */
export type DriveFacts = {
  name: string
  createdTime: string
  memberCount: number
  organizerCount: number
  hidden: boolean
  orgUnitId: string
}
type Pred = (d: DriveFacts) => boolean

const invalid = () => badRequest('Invalid Value', 'invalid', { location: 'q', locationType: 'parameter' })

/**
 * The shared-drive search grammar of drives.list: `name contains|=|!=`, `createdTime`, `memberCount`,
 * `organizerCount` comparisons, `hidden = true|false`, `orgUnitId =|!=`, joined by `and`/`or`/`not` and parentheses
 * (`not` binds tighter than `and`, `and` tighter than `or`).
 */
export function parseDrivesQuery(q: string): Pred {
  // Deviation: Drive documents no limits; files.list's bounds apply (length, tokens, `(`/`not` nesting), so no
  // query runs unbounded work or recursion, and past them the query is refused as Drive refuses a bad one.
  if (q.length > DRIVE_QUERY_LIMITS.chars) throw invalid()
  const tokens = q.match(/'(?:\\.|[^'\\])*'|<=|>=|!=|[()<>=]|[^\s()<>=!']+/g) ?? []
  if (tokens.length > DRIVE_QUERY_LIMITS.tokens) throw invalid()
  let depth = 0
  let nots = 0
  for (const t of tokens) {
    if (t === '(') depth++
    else if (t === ')') depth = Math.max(0, depth - 1)
    nots = t.toLowerCase() === 'not' ? nots + 1 : t === '(' ? nots : 0
    if (depth + nots > DRIVE_QUERY_LIMITS.depth) throw invalid()
  }
  let i = 0
  const peek = () => tokens[i]
  const take = () => {
    if (i >= tokens.length) throw invalid()
    return tokens[i++]!
  }
  const or = (): Pred => {
    let l = and()
    while (peek()?.toLowerCase() === 'or') {
      take()
      const a = l,
        b = and()
      l = (d) => a(d) || b(d)
    }
    return l
  }
  const and = (): Pred => {
    let l = not()
    while (peek()?.toLowerCase() === 'and') {
      take()
      const a = l,
        b = not()
      l = (d) => a(d) && b(d)
    }
    return l
  }
  const not = (): Pred => {
    if (peek()?.toLowerCase() === 'not') {
      take()
      const p = not()
      return (d) => !p(d)
    }
    return term()
  }
  const term = (): Pred => {
    if (peek() === '(') {
      take()
      const p = or()
      if (take() !== ')') throw invalid()
      return p
    }
    const field = take()
    const op = take()
    const raw = take()
    const str = /^'.*'$/s.test(raw) ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : undefined
    const cmp = (a: number | string, b: number | string) => {
      switch (op) {
        case '=':
          return a === b
        case '!=':
          return a !== b
        case '<':
          return a < b
        case '<=':
          return a <= b
        case '>':
          return a > b
        case '>=':
          return a >= b
        default:
          throw invalid()
      }
    }
    if (field === 'name') {
      if (str === undefined) throw invalid()
      if (op === 'contains') return (d) => d.name.toLowerCase().includes(str.toLowerCase())
      if (op === '=' || op === '!=') return (d) => cmp(d.name, str)
      throw invalid()
    }
    if (field === 'orgUnitId' && str !== undefined && (op === '=' || op === '!=')) return (d) => cmp(d.orgUnitId, str)
    if (field === 'hidden' && (raw === 'true' || raw === 'false') && (op === '=' || op === '!='))
      return (d) => cmp(String(d.hidden), raw)
    if ((field === 'memberCount' || field === 'organizerCount') && /^\d+$/.test(raw))
      return (d) => cmp(d[field], Number(raw))
    if (field === 'createdTime' && str !== undefined && !Number.isNaN(Date.parse(str))) {
      const t = Date.parse(str)
      return (d) => cmp(Date.parse(d.createdTime), t)
    }
    throw invalid()
  }
  const pred = or()
  if (i !== tokens.length) throw invalid()
  return pred
}
