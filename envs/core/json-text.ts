import type { Db } from './db.ts'

/**
 * An element of a response's top-level list whose JSON text is kept per world connection (docs/decisions/0300):
 * a listing asked again serialises an unchanged element by copying its text instead of rendering and
 * stringifying it. `slot` names the element (its identity and the view it is rendered for); `values` must hold
 * everything else its rendering reads (the row's content, names it shows), compared value by value with what the
 * kept text was made from, so a change can never find an old text. Serialisers that do not know this class still
 * get the value (`toJSON`), and `fields=` selections see the plain value (`plainLists`).
 */
export class JsonText {
  constructor(
    private readonly slot: string,
    private readonly values: readonly unknown[],
    private readonly make: () => unknown,
    private readonly memo: TextMemo,
  ) {}

  /** The last text this element gave and its indent: an element handed out again (0329) gives it again. */
  private mine: { indent: number | undefined; text: string } | undefined

  toJSON(): unknown {
    return this.make()
  }

  /**
   * The text of the value as a member of the top-level object: `JSON.stringify(value, null, indent)` with its lines
   * indented one level (kept under its own key beside the element texts, which are indented two).
   */
  member(indent: number | undefined): string | undefined {
    return this.kept(indent === undefined ? MEMBER_COMPACT : -indent, () => {
      const s = JSON.stringify(this.make(), null, indent) as string | undefined
      // A value that stringifies to nothing (undefined, a function) leaves the member out, as JSON.stringify does.
      if (s === undefined) return undefined
      return indent ? s.split('\n').join(`\n${' '.repeat(indent)}`) : s
    })
  }

  /** The text of the value as an element of a top-level array: `JSON.stringify(value, null, indent)`, indented. */
  element(indent: number | undefined): string {
    if (this.mine && this.mine.indent === indent) return this.mine.text
    const text = this.textFromMemo(indent)
    this.mine = { indent, text }
    return text
  }

  private textFromMemo(indent: number | undefined): string {
    return this.kept(indent ?? 0, () => elementText(this.make(), indent))
  }

  /**
   * The slot's text under `key` (an indent), made when the slot's values changed or it has none yet (a value with no
   * text is not kept).
   */
  private kept<T extends string | undefined>(key: number, make: () => T): T {
    let kept = this.memo.get(this.slot)
    if (!kept || !sameValues(kept.values, this.values)) {
      if (!kept && this.memo.size >= MAX_TEXTS) this.memo.clear()
      this.memo.set(this.slot, (kept = { values: this.values, texts: new Map() }))
    }
    const text = kept.texts.get(key) as T | undefined
    if (text !== undefined) return text
    const made = make()
    if (made !== undefined) kept.texts.set(key, made)
    return made
  }
}

/** The memo key of a member's compact text (member texts are kept under minus their indent). */
const MEMBER_COMPACT = -0.5

/** Kept texts by slot: the values each was made from and its text per indent. */
export type TextMemo = Map<string, { values: readonly unknown[]; texts: Map<number, string> }>

/** Same length and the same value at every place (primitives by identity of value, anything else by its JSON). */
function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const x = a[i]
    const y = b[i]
    if (x === y) continue
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false
    if (JSON.stringify(x) !== JSON.stringify(y)) return false
  }
  return true
}

/** Elements kept per connection and kind (1–3 KB each for calendar events): cleared when full. */
const MAX_TEXTS = 2000
const memos = new WeakMap<object, Map<string, TextMemo>>()

/**
 * The text memo of one kind of element (`'calendar#event'`) on this world connection. It dies with the connection
 * (restore swaps connections), so no text outlives the world's bytes or reaches another world.
 */
export function textMemo(db: Db, kind: string): TextMemo {
  let kinds = memos.get(db.$client)
  if (!kinds) memos.set(db.$client, (kinds = new Map()))
  let memo = kinds.get(kind)
  if (!memo) kinds.set(kind, (memo = new Map()))
  return memo
}

/**
 * `JSON.stringify(v, null, indent)` of an element two levels deep: with a leading newline and its lines indented,
 * i.e. `pad + s.replace(/\n/g, pad)`. Written as a split and a join, which give V8 one flat string: a global
 * `replace` gives a rope of a piece per line, and a listing of such elements costs several times as much to flatten,
 * measure and encode when it is sent (~70–100 µs for a 54 KB page of events; docs/decisions/0357).
 */
export function elementText(v: unknown, indent: number | undefined): string {
  const s = JSON.stringify(v, null, indent) ?? 'null'
  if (!indent) return s
  return `\n${s}`.split('\n').join(`\n${' '.repeat(indent * 2)}`)
}

/** The element's text inside a top-level array (a `JsonText`'s kept text, or the value stringified). */
export const elementOf = (v: unknown, indent: number | undefined) =>
  v instanceof JsonText ? v.element(indent) : elementText(v, indent)

/** The top-level keys of `value` holding a `JsonText`, or arrays with a `JsonText` element. */
function textListKeys(value: unknown): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return []
  const keys: string[] = []
  for (const [k, v] of Object.entries(value)) {
    if (v instanceof JsonText || (Array.isArray(v) && v.some((x) => x instanceof JsonText))) keys.push(k)
  }
  return keys
}

/**
 * `JSON.stringify(value, null, indent)`, byte for byte, with the kept texts of `JsonText` elements of top-level
 * arrays and of `JsonText` top-level members copied in. The object is written member by member as `JSON.stringify`
 * writes it (members whose value stringifies to nothing are left out, nested lines indented one level), so no marker
 * can clash with a value.
 */
export function stringifyWithTexts(value: unknown, indent: number | undefined): string {
  const keys = textListKeys(value)
  if (!keys.length || Object.getPrototypeOf(value) !== Object.prototype || 'toJSON' in (value as object)) {
    return JSON.stringify(value, null, indent)
  }
  const lists = new Set(keys)
  const pad = indent ? `\n${' '.repeat(indent)}` : ''
  // One concatenation (not a join, which would copy the whole answer once more before it is written).
  let out = ''
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    let text: string | undefined
    if (v instanceof JsonText) {
      text = v.member(indent)
      if (text === undefined) continue
    } else if (lists.has(k)) text = listText(v as unknown[], indent, pad)
    else {
      text = JSON.stringify(v, null, indent)
      if (text === undefined) continue
      if (indent) text = text.replace(/\n/g, pad)
    }
    out += `${out ? ',' : ''}${pad}${JSON.stringify(k)}:${indent ? ' ' : ''}${text}`
  }
  if (!out) return '{}'
  return `{${out}${indent ? '\n' : ''}}`
}

/** A top-level list's text: `[`, the element texts (kept ones copied in), `]`. */
function listText(items: readonly unknown[], indent: number | undefined, pad: string): string {
  let text = '['
  for (let i = 0; i < items.length; i++) text += (i > 0 ? ',' : '') + elementOf(items[i], indent)
  return text + (items.length ? `${pad}]` : ']')
}

/** `value` with the `JsonText` elements of its top-level arrays replaced by their values (for `fields=`). */
export function plainLists(value: unknown): unknown {
  const keys = textListKeys(value)
  if (!keys.length) return value
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  for (const k of keys) {
    const v = out[k]
    out[k] = v instanceof JsonText ? v.toJSON() : (v as unknown[]).map((x) => (x instanceof JsonText ? x.toJSON() : x))
  }
  return out
}

/**
 * An unambiguous key for a list of values (strings length-prefixed, so no value can run into the next): what a
 * `JsonText` slot is made of.
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
