import type { Context } from 'hono'
import { isInProcessRequest } from './request.ts'

/**
 * The size check and body cache of an in-process request (docs/decisions/0295): what Hono's `bodyLimit` decides
 * for the same request, without reading a web stream. The bytes are the body's UTF-8 encoding (what a `Request`
 * built from the string holds) and its text what `Request.text()` gives back: lone surrogates replaced, one
 * leading byte order mark dropped.
 */
export function checkInProcessBody(c: Context, max: number, tooLarge: () => Error): boolean {
  const raw = c.req.raw
  if (!isInProcessRequest(raw)) return false
  const text = raw.bodyText
  if (text === undefined) return true
  // As bodyLimit: a declared length is trusted unless the body is chunked; otherwise the bytes are counted.
  const headers = raw.headers
  if (headers.has('content-length') && !headers.has('transfer-encoding')) {
    if (Number.parseInt(headers.get('content-length') || '0', 10) > max) throw tooLarge()
  } else if (Buffer.byteLength(text, 'utf8') > max) throw tooLarge()
  cacheText(c, text)
  return true
}

/** The text `Request.text()` reads back from a string body. */
export function textOfBody(text: string): string {
  const s = text as string & { isWellFormed(): boolean; toWellFormed(): string } // ES2024, in Node 20
  const whole = s.isWellFormed() ? text : s.toWellFormed()
  return whole.charCodeAt(0) === 0xfeff ? whole.slice(1) : whole
}

/** The body's own ArrayBuffer of UTF-8 bytes (lone surrogates become U+FFFD, as TextEncoder writes them). */
export function bytesOfBody(text: string): ArrayBuffer {
  const encoded = Buffer.from(text, 'utf8')
  const own = new ArrayBuffer(encoded.length)
  new Uint8Array(own).set(encoded)
  return own
}

/** The body text of an in-process request and what was made of it, kept on Hono's body cache under `BODY`. */
type Kept = { text: string; bytes: Promise<unknown> | undefined; decoded: Promise<unknown> | undefined }
const BODY = Symbol('in-process body')
type BodyCache = Record<string, Promise<unknown> | undefined> & { [BODY]: Kept }

// The same accessor functions for every request (fresh closures per request gave each body cache a hidden class
// of its own, which kept requests alive through young-generation collections; see response.ts `RES`).
const keptEntry = (slot: 'bytes' | 'decoded', of: (text: string) => unknown): PropertyDescriptor => ({
  enumerable: true,
  configurable: true,
  get(this: BodyCache) {
    const kept = this[BODY]
    return (kept[slot] ??= Promise.resolve(of(kept.text)))
  },
  set(this: BodyCache, value: Promise<unknown>) {
    this[BODY][slot] = value
  },
})
const BYTES = keptEntry('bytes', bytesOfBody)
const TEXT = keptEntry('decoded', textOfBody)

/** Fills Hono's body cache lazily: bytes first (Hono converts other kinds from the first entry), then text. */
function cacheText(c: Context, text: string) {
  const cache = c.req.bodyCache as BodyCache
  cache[BODY] = { text, bytes: undefined, decoded: undefined }
  Object.defineProperty(cache, 'arrayBuffer', BYTES)
  Object.defineProperty(cache, 'text', TEXT)
}
