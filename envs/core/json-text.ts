import type { Db } from './db.ts'

/**
 * An element of a response's top-level list whose JSON text is kept per world connection (docs/decisions/0300):
 * a listing asked again serialises an unchanged element by copying its text instead of rendering and
 * stringifying it. `key` must name everything the element's rendering reads (the row's content, the viewer's
 * options), so a change can never find an old text. Serialisers that do not know this class still get the value
 * (`toJSON`), and `fields=` selections see the plain value (`plainLists`).
 */
export class JsonText {
  constructor(
    private readonly key: string,
    private readonly make: () => unknown,
    private readonly memo: Map<string, string>,
  ) {}

  toJSON(): unknown {
    return this.make()
  }

  /** The text of the value as an element of a top-level array: `JSON.stringify(value, null, indent)`, indented. */
  element(indent: number | undefined): string {
    const k = `${indent ?? 0}\u0000${this.key}`
    let text = this.memo.get(k)
    if (text === undefined) {
      text = elementText(this.make(), indent)
      if (this.memo.size >= MAX_TEXTS) this.memo.clear()
      this.memo.set(k, text)
    }
    return text
  }
}

/** Texts kept per connection (each a rendered element, 1–3 KB for a calendar event): cleared when full. */
const MAX_TEXTS = 2000
const memos = new WeakMap<object, Map<string, Map<string, string>>>()

/**
 * The text memo of one kind of element (`'calendar#event'`) on this world connection. It dies with the connection
 * (restore swaps connections), so no text outlives the world's bytes or reaches another world.
 */
export function textMemo(db: Db, kind: string): Map<string, string> {
  let kinds = memos.get(db.$client)
  if (!kinds) memos.set(db.$client, (kinds = new Map()))
  let memo = kinds.get(kind)
  if (!memo) kinds.set(kind, (memo = new Map()))
  return memo
}

/** `JSON.stringify(v, null, indent)` of an element two levels deep: with a leading newline and its lines indented. */
export function elementText(v: unknown, indent: number | undefined): string {
  const s = JSON.stringify(v, null, indent) ?? 'null'
  if (!indent) return s
  const pad = `\n${' '.repeat(indent * 2)}`
  return pad + s.replace(/\n/g, pad)
}

/** The element's text inside a top-level array (a `JsonText`'s kept text, or the value stringified). */
export const elementOf = (v: unknown, indent: number | undefined) =>
  v instanceof JsonText ? v.element(indent) : elementText(v, indent)

/** The top-level keys of `value` holding arrays with a `JsonText` element. */
function textListKeys(value: unknown): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return []
  const keys: string[] = []
  for (const [k, v] of Object.entries(value)) if (Array.isArray(v) && v.some((x) => x instanceof JsonText)) keys.push(k)
  return keys
}

/**
 * `JSON.stringify(value, null, indent)`, byte for byte, with the kept texts of `JsonText` elements of top-level
 * arrays copied in. The object is written member by member as `JSON.stringify` writes it (members whose value
 * stringifies to nothing are left out, nested lines indented one level), so no marker can clash with a value.
 */
export function stringifyWithTexts(value: unknown, indent: number | undefined): string {
  const keys = textListKeys(value)
  if (!keys.length || Object.getPrototypeOf(value) !== Object.prototype || 'toJSON' in (value as object)) {
    return JSON.stringify(value, null, indent)
  }
  const lists = new Set(keys)
  const pad = indent ? `\n${' '.repeat(indent)}` : ''
  const parts: string[] = []
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    let text: string | undefined
    if (lists.has(k)) {
      const items = v as unknown[]
      text = '['
      for (let i = 0; i < items.length; i++) text += (i > 0 ? ',' : '') + elementOf(items[i], indent)
      text += items.length ? `${pad}]` : ']'
    } else {
      text = JSON.stringify(v, null, indent)
      if (text === undefined) continue
      if (indent) text = text.replace(/\n/g, pad)
    }
    parts.push(`${pad}${JSON.stringify(k)}:${indent ? ' ' : ''}${text}`)
  }
  if (!parts.length) return '{}'
  return `{${parts.join(',')}${indent ? '\n' : ''}}`
}

/** `value` with the `JsonText` elements of its top-level arrays replaced by their values (for `fields=`). */
export function plainLists(value: unknown): unknown {
  const keys = textListKeys(value)
  if (!keys.length) return value
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  for (const k of keys) out[k] = (out[k] as unknown[]).map((x) => (x instanceof JsonText ? x.toJSON() : x))
  return out
}

/**
 * An unambiguous key for a list of values (strings length-prefixed, so no value can run into the next): what a
 * `JsonText` key is made of.
 */
export function keyOf(values: readonly unknown[]): string {
  let key = ''
  for (const v of values) {
    if (typeof v === 'string') key += `s${v.length}:${v}`
    else if (typeof v === 'number') key += `d${v};`
    else if (v === null) key += 'n'
    else if (v === undefined) key += 'u'
    else if (typeof v === 'boolean') key += v ? 't' : 'f'
    else {
      const j = JSON.stringify(v) ?? ''
      key += `j${j.length}:${j}`
    }
  }
  return key
}
