import { badRequest } from './errors/google.ts'
import { ownEntry } from './own-key.ts'

/**
 * Google's partial-response selector (`fields=`): `a,b/c,d(e,f/g),*`.
 * A selection tree maps a key to `true` (whole value) or to a sub-selection.
 * @see https://developers.google.com/gmail/api/guides/performance#partial-response
 */
export type Selection = Map<string, Selection | true>

/**
 * Deepest selection taken (`a/b(c)` is three levels); no response schema nests near this. Deviation (unverified):
 * deeper selections are refused as an invalid selection, before the parser's recursion could overflow the stack.
 */
export const MAX_FIELDS_DEPTH = 64

export function parseFields(input: string): Selection {
  let pos = 0
  let depth = 0
  const fail = (): never => {
    throw badRequest(`Invalid field selection ${input}`, 'invalidParameter', {
      location: 'fields',
      locationType: 'parameter',
    })
  }

  const parseList = (): Selection => {
    const sel: Selection = new Map()
    for (;;) {
      parsePath(sel)
      if (input[pos] === ',') {
        pos++
        continue
      }
      return sel
    }
  }

  // path := name ('/' path)? ('(' list ')')?
  const parsePath = (into: Selection) => {
    if (++depth > MAX_FIELDS_DEPTH) fail()
    const start = pos
    while (pos < input.length && !',/()'.includes(input[pos]!)) pos++
    const name = input.slice(start, pos).trim()
    if (!name) fail()
    let sub: Selection | true = true
    if (input[pos] === '/') {
      pos++
      const child: Selection = new Map()
      parsePath(child)
      sub = child
    } else if (input[pos] === '(') {
      pos++
      sub = parseList()
      if (input[pos] !== ')') fail()
      pos++
    }
    merge(into, name, sub)
    depth--
  }

  const result = parseList()
  if (pos !== input.length) fail()
  return result
}

function merge(into: Selection, key: string, sub: Selection | true) {
  const existing = into.get(key)
  if (existing === true || sub === true || existing === undefined) {
    into.set(key, existing === true || sub === true ? true : sub)
    return
  }
  for (const [k, v] of sub) merge(existing, k, v)
}

/** Applies a selection to a JSON value; arrays are filtered element by element. */
export function applyFields(value: unknown, sel: Selection): unknown {
  if (Array.isArray(value)) return value.map((v) => applyFields(v, sel))
  if (value === null || typeof value !== 'object') return value
  if (sel.get('*') === true) return value
  // No prototype: a member named `__proto__` (a Drive property's key, say) is copied as a member.
  const out: Record<string, unknown> = Object.create(null)
  const obj = value as Record<string, unknown>
  for (const [key, sub] of sel) {
    if (key === '*') {
      for (const [k, v] of Object.entries(obj))
        if (!Object.hasOwn(out, k)) out[k] = sub === true ? v : applyFields(v, sub)
      continue
    }
    if (!Object.hasOwn(obj, key)) continue
    out[key] = sub === true ? obj[key] : applyFields(obj[key], sub)
  }
  return out
}

/** Generated per service (`api/fields.gen.ts`): schema → property → '' (leaf), 'Name' (schema) or '*X' (map of X). */
export type FieldTables = Readonly<Record<string, Readonly<Record<string, string>>>>

/**
 * Checks a selection against the method's response schema, as Google does: a name the schema does not have
 * is a 400 naming it. Leaves, maps and free-form objects accept anything below them.
 */
export function checkSelection(sel: Selection, schema: string, tables: FieldTables): void {
  const walk = (s: Selection, kind: string) => {
    if (kind === '') return
    if (kind.startsWith('*')) {
      for (const sub of s.values()) if (sub !== true) walk(sub, kind.slice(1))
      return
    }
    const props = tables[kind]
    if (!props) return
    for (const [key, sub] of s) {
      if (key === '*') continue
      // Own names only: `constructor` or `__proto__` is not a field of any schema.
      const child = ownEntry(props, key) ?? props['*']
      if (child === undefined) {
        throw badRequest(`Invalid field selection ${key}`, 'invalidParameter', {
          location: 'fields',
          locationType: 'parameter',
        })
      }
      if (sub !== true) walk(sub, child)
    }
  }
  walk(sel, schema)
}
