/**
 * `JSON.stringify` of a value with the keys `leaveOut` matches left out of every object and the others in
 * `localeCompare` order (array indices first, as objects list them), written in one pass (docs/decisions/0342).
 * It equals stringifying a copy built with `Object.entries` → filter → sort → `Object.fromEntries`
 * (tests/gym/stable-json.test.ts), without building that copy: the filtered, sorted keys of each key list met are
 * kept (per instance, bounded), so many entities of one shape are sorted with `localeCompare` once.
 */
export class StableJson {
  readonly #leaveOut: RegExp
  /** Key lists (joined by NUL) → the lists met with that join, each with its filtered, sorted keys. */
  readonly #orders = new Map<string, { keys: readonly string[]; order: readonly string[] }[]>()
  #size = 0

  constructor(leaveOut: RegExp) {
    this.#leaveOut = leaveOut
  }

  /** What `JSON.stringify(copy)` gives, `undefined` included (a function, a symbol or `undefined` at the top). */
  stringify(v: unknown): string | undefined {
    if (Array.isArray(v)) {
      let out = '['
      for (let i = 0; i < v.length; i++) {
        if (i > 0) out += ','
        out += this.stringify(v[i]) ?? 'null'
      }
      return `${out}]`
    }
    if (v && typeof v === 'object') {
      const record = v as Record<string, unknown>
      let out = '{'
      let first = true
      for (const k of this.#order(Object.keys(record))) {
        const text = this.stringify(record[k])
        if (text === undefined) continue
        out += `${first ? '' : ','}${JSON.stringify(k)}:${text}`
        first = false
      }
      return `${out}}`
    }
    return JSON.stringify(v)
  }

  /** The keys kept, in `localeCompare` order (as Array.prototype.sort leaves them from `keys`' order). */
  #order(keys: string[]): readonly string[] {
    const join = keys.join('\0')
    let met = this.#orders.get(join)
    const found = met?.find((m) => m.keys.length === keys.length && m.keys.every((k, i) => k === keys[i]))
    if (found) return found.order
    const sorted = keys.filter((k) => !this.#leaveOut.test(k)).sort((a, b) => a.localeCompare(b))
    // A copy built with Object.fromEntries lists array-index keys first, ascending, as every object does.
    const indices = sorted.filter(isIndex).sort((a, b) => Number(a) - Number(b))
    const order = indices.length ? [...indices, ...sorted.filter((k) => !isIndex(k))] : sorted
    // Bounded: dumps have few shapes, but keys can be data (a settings document); starting over is only slower.
    if (this.#size >= MAX_ORDERS) {
      this.#orders.clear()
      this.#size = 0
      met = undefined
    }
    if (!met) this.#orders.set(join, (met = []))
    met.push({ keys, order })
    this.#size++
    return order
  }
}

const MAX_ORDERS = 10_000
const INDEX = /^(?:0|[1-9][0-9]{0,9})$/
/** An array index (a canonical integer below 2³² − 1): such keys come first, ascending, in any object. */
const isIndex = (k: string) => INDEX.test(k) && Number(k) <= 4_294_967_294
