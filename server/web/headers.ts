/**
 * A WHATWG `Headers` without undici (docs/decisions/0436), for the served process: the same names, values, order
 * and errors as Node's own class (lower-cased names iterated in sorted order, repeated values joined with ", " or
 * "; " for Cookie, Set-Cookie kept line by line, values trimmed of HTTP whitespace, invalid names and values
 * refused with undici's TypeError messages).
 */

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
/** HTTP whitespace at either end of a value, stripped when it is stored. */
const WS_ENDS = /^[\t\n\r ]+|[\t\n\r ]+$/g
const BAD_VALUE = /[\0\r\n]/

/** A WebIDL ByteString: every code unit at most 0xFF. */
function byteString(v: unknown): string {
  const s = String(v)
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c > 255) {
      throw new TypeError(
        `Cannot convert argument to a ByteString because the character at index ${i} has a value of ${c} which is greater than 255.`,
      )
    }
  }
  return s
}

function checkName(name: string, op: string): string {
  if (!TOKEN.test(name)) throw new TypeError(`Headers.${op}: "${name}" is an invalid header name.`)
  return name.toLowerCase()
}

function normalValue(value: string, op: string): string {
  const v = value.replace(WS_ENDS, '')
  if (BAD_VALUE.test(v)) throw new TypeError(`Headers.${op}: "${v}" is an invalid header value.`)
  return v
}

const LIGHT = Symbol.for('wsgym.light-headers')

export class LightHeaders {
  readonly [LIGHT] = true
  /** Lower-cased name → combined value. */
  #map = new Map<string, string>()
  #cookies: string[] | undefined
  #sorted: [string, string][] | undefined

  constructor(init?: unknown) {
    if (init === undefined || init === null) return
    if (typeof init === 'object' && #map in init) {
      for (const [k, v] of init.#map) this.#map.set(k, v)
      if (init.#cookies) this.#cookies = [...init.#cookies]
      return
    }
    if (typeof init !== 'object' && typeof init !== 'function') {
      throw new TypeError(
        'Headers constructor: Argument 1 could not be converted to one of: sequence<sequence<ByteString>>, record<ByteString, ByteString>.',
      )
    }
    const iterator = (init as { [Symbol.iterator]?: unknown })[Symbol.iterator]
    if (typeof iterator === 'function') {
      for (const pair of init as Iterable<unknown>) {
        const list = typeof pair === 'string' ? undefined : [...(pair as Iterable<unknown>)]
        if (!list || list.length !== 2) {
          throw new TypeError(
            `Headers constructor: expected name/value pair to be length 2, found ${list?.length ?? 0}.`,
          )
        }
        this.#append(byteString(list[0]), byteString(list[1]), 'append')
      }
      return
    }
    for (const key of Reflect.ownKeys(init)) {
      if (typeof key !== 'string' || !Object.prototype.propertyIsEnumerable.call(init, key)) continue
      this.#append(byteString(key), byteString((init as Record<string, unknown>)[key]), 'append')
    }
  }

  #append(name: string, value: string, op: string) {
    const k = checkName(name, op)
    const v = normalValue(value, op)
    this.#sorted = undefined
    const old = this.#map.get(k)
    this.#map.set(k, old === undefined ? v : `${old}${k === 'cookie' ? '; ' : ', '}${v}`)
    if (k === 'set-cookie') (this.#cookies ??= []).push(v)
  }

  append(name: string, value: string) {
    this.#append(byteString(name), byteString(value), 'append')
  }

  set(name: string, value: string) {
    const k = checkName(byteString(name), 'set')
    const v = normalValue(byteString(value), 'set')
    this.#sorted = undefined
    this.#map.set(k, v)
    if (k === 'set-cookie') this.#cookies = [v]
  }

  delete(name: string) {
    const k = checkName(byteString(name), 'delete')
    if (!this.#map.has(k)) return
    this.#sorted = undefined
    this.#map.delete(k)
    if (k === 'set-cookie') this.#cookies = undefined
  }

  get(name: string): string | null {
    return this.#map.get(checkName(byteString(name), 'get')) ?? null
  }

  has(name: string): boolean {
    return this.#map.has(checkName(byteString(name), 'has'))
  }

  getSetCookie(): string[] {
    return this.#cookies ? [...this.#cookies] : []
  }

  /** The entries as iteration gives them: sorted by name, each Set-Cookie line on its own. */
  #entries(): [string, string][] {
    if (this.#sorted) return this.#sorted
    const names = [...this.#map.keys()].sort()
    const out: [string, string][] = []
    for (const k of names) {
      if (k === 'set-cookie') for (const c of this.#cookies!) out.push([k, c])
      else out.push([k, this.#map.get(k)!])
    }
    return (this.#sorted = out)
  }

  forEach(callback: (value: string, key: string, parent: LightHeaders) => void, thisArg?: unknown) {
    if (typeof callback !== 'function') {
      throw new TypeError('Headers.forEach: Argument 1 could not be converted to: Function.')
    }
    for (const [k, v] of this.#entries()) callback.call(thisArg, v, k, this)
  }

  *entries(): IterableIterator<[string, string]> {
    for (const [k, v] of this.#entries()) yield [k, v]
  }
  *keys(): IterableIterator<string> {
    for (const [k] of this.#entries()) yield k
  }
  *values(): IterableIterator<string> {
    for (const [, v] of this.#entries()) yield v
  }
  [Symbol.iterator]() {
    return this.entries()
  }

  get [Symbol.toStringTag]() {
    return 'Headers'
  }

  [Symbol.for('nodejs.util.inspect.custom')]() {
    return Object.fromEntries(this.#entries())
  }

  static [Symbol.hasInstance](x: unknown): boolean {
    return (
      (typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[LIGHT] === true) || isReal('Headers', x)
    )
  }
}

/** Whether `x` is an instance of undici's class `name`, without loading undici to find out. */
export function isReal(name: 'Headers' | 'Request' | 'Response', x: unknown): boolean {
  const cls = loadedReal[name]
  return cls !== undefined && typeof x === 'object' && x !== null && Function.prototype[Symbol.hasInstance].call(cls, x)
}

/** Undici's classes once something loaded them (server/web/real.ts fills this). */
export const loadedReal: Partial<Record<'Headers' | 'Request' | 'Response', Function>> = {}
