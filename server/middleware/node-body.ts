import type { IncomingMessage } from 'node:http'
import type { Context } from 'hono'

/**
 * Request bodies read straight from Node's socket stream (docs/decisions/0270). Through @hono/node-server, the
 * first read of a body builds a WHATWG `Request` (headers, abort signal, a web stream over the Node stream) and
 * pulls the bytes through that stream: most of a small POST's framework cost. When the request came from a Node
 * listener, this reads the bytes from the `IncomingMessage` itself and puts them in Hono's body cache, so
 * `c.req.text()`, `json()`, `arrayBuffer()` and `parseBody()` answer from it; a `Request` is still built (from the
 * same bytes, `incoming.rawBody`) if anything asks for `c.req.raw.body`.
 */

/** The symbol @hono/node-server keeps the IncomingMessage under (a constant of that module), once seen. */
let incomingKey: symbol | undefined

/** The Node request behind `c`, when `c` is that listener request (not an in-process or batch sub-request). */
export function nodeIncoming(c: Context): IncomingMessage | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
  if (!incoming) return undefined
  // @hono/node-server keeps the IncomingMessage under a symbol of its lazy request object.
  const raw = c.req.raw as unknown as Record<symbol, unknown>
  if (incomingKey !== undefined && raw[incomingKey] === incoming) return incoming
  for (const key of Object.getOwnPropertySymbols(raw)) {
    if (raw[key] === incoming) {
      incomingKey = key
      return incoming
    }
  }
  return undefined
}

/** HTTP whitespace at either end of a header value (what the Fetch standard strips when it stores one). */
const HTTP_WS_ENDS = /^[\t\n\r ]+|[\t\n\r ]+$/g

/**
 * A request header as `c.req.header(name)` answers it (`name` in lower case). For the listener's own request it
 * is read from the Node request's raw header list (every line of that name, whitespace-trimmed, joined with
 * ", ", as a WHATWG `Headers` built from that list gives it): @hono/node-server would otherwise build a `Headers`
 * object on the first read, which a GET needs for nothing else.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = nodeIncoming(c)
  return incoming ? rawHeader(incoming.rawHeaders, name) : c.req.header(name)
}

/** Every value of header `name` (lower case) in a Node raw header list, as a WHATWG `Headers` joins them. */
function rawHeader(raw: readonly string[], name: string): string | undefined {
  let value: string | undefined
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!
    if (key.length !== name.length || key.toLowerCase() !== name) continue
    const v = raw[i + 1]!.replace(HTTP_WS_ENDS, '')
    value = value === undefined ? v : `${value}, ${v}`
  }
  return value
}

/** The Node request of a listener request's `c.req` (set by `readHeadersInPlace`). */
const INCOMING = Symbol('node incoming')
type ListenerRequest = Context['req'] & { [INCOMING]: IncomingMessage }

/** `c.req.header(name)` of a listener request, from the raw header list; all headers (no name) as Hono gives them. */
function listenerHeader(this: ListenerRequest, name?: string) {
  if (!name) return (Object.getPrototypeOf(this) as { header(): Record<string, string> }).header.call(this)
  return rawHeader(this[INCOMING].rawHeaders, name.toLowerCase())
}

/**
 * For a listener request, `c.req.header(name)` (Hono's validators read Content-Type on every call, and handlers
 * their own headers) answers as `requestHeader` does instead of building a `Headers` from the Node request. The
 * same function for every request (see `TEXT` below); a request that is not the listener's is left alone.
 */
export function readHeadersInPlace(c: Context): void {
  const incoming = nodeIncoming(c)
  if (!incoming) return
  const req = c.req as ListenerRequest
  req[INCOMING] = incoming
  req.header = listenerHeader as Context['req']['header']
}

/**
 * Reads the whole body of `incoming` (at most `max` bytes: beyond that, `tooLarge()` is thrown, before reading
 * anything when Content-Length announces it, as Hono's bodyLimit does) into `c`'s body cache.
 */
export async function bufferNodeBody(c: Context, incoming: IncomingMessage, max: number, tooLarge: () => Error) {
  // Read already by a worker that routed the request by its body (server/handoff.ts).
  const read = (incoming as IncomingMessage & { rawBody?: Buffer }).rawBody
  if (read instanceof Buffer) {
    if (read.length > max) throw tooLarge()
    return cacheBody(c, new Uint8Array(read.buffer.slice(read.byteOffset, read.byteOffset + read.length)))
  }
  const length = incoming.headers['content-length']
  if (length !== undefined && incoming.headers['transfer-encoding'] === undefined) {
    if (Number.parseInt(length, 10) > max) throw tooLarge()
  }
  const chunks = await readAll(incoming, max, tooLarge)
  const size = chunks.reduce((n, chunk) => n + chunk.length, 0)
  // An ArrayBuffer of its own (a pooled Buffer's backing store is shared with other data).
  const bytes = new Uint8Array(new ArrayBuffer(size))
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.length
  }
  ;(incoming as IncomingMessage & { rawBody?: Buffer }).rawBody = Buffer.from(bytes.buffer)
  cacheBody(c, bytes)
}

/** The client closed the connection (or the server cut a slow body, server/connections.ts) before the body ended. */
export class RequestAborted extends Error {
  constructor() {
    super('request aborted')
  }
}

/**
 * The chunks of `incoming` until its end. Past `max` bytes it stops listening (without destroying the stream: the
 * listener drains the rest after the answer, so the connection survives) and rejects with `tooLarge()`.
 */
function readAll(incoming: IncomingMessage, max: number, tooLarge: () => Error): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const stop = () => {
      incoming.off('data', onData)
      incoming.off('end', onEnd)
      incoming.off('error', onError)
      incoming.off('aborted', onAborted)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= max) return void chunks.push(chunk)
      stop()
      incoming.pause()
      reject(tooLarge())
    }
    const onEnd = () => {
      stop()
      resolve(chunks)
    }
    const onError = (e: Error) => {
      stop()
      reject(e)
    }
    const onAborted = () => onError(new RequestAborted())
    incoming.on('data', onData)
    incoming.on('end', onEnd)
    incoming.on('error', onError)
    incoming.on('aborted', onAborted)
  })
}

/** UTF-8, BOM dropped, as `Request.text()` decodes (a whole-buffer `decode` keeps no state between calls). */
const UTF8 = new TextDecoder()

/** The bytes of a listener request's body and their text once decoded, kept on Hono's body cache. */
const BYTES = Symbol('node body')
type BodyCache = Record<string, Promise<unknown> | undefined> & {
  [BYTES]: { bytes: Uint8Array; text: Promise<unknown> | undefined }
}

// One accessor pair for every request: fresh closures per request gave each cache a hidden class of its own,
// which kept requests alive through young-generation collections (server/in-process/response.ts `RES`).
const TEXT: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: BodyCache) {
    const kept = this[BYTES]
    return (kept.text ??= Promise.resolve(UTF8.decode(kept.bytes)))
  },
  set(this: BodyCache, value: Promise<unknown>) {
    this[BYTES].text = value
  },
}

/**
 * The first `units` UTF-16 code units of the body's text (what `(await c.req.text()).slice(0, units)` gives, or the
 * whole text when shorter), for the action log, which keeps at most a bounded head of a body. A listener body of many
 * more bytes than that is decoded only as far as the head needs: a code unit takes at most 3 bytes of UTF-8 (4 for
 * the 2 units of a surrogate pair; a malformed sequence of up to 3 bytes is 1 unit), so `3 * units + 8` bytes give
 * at least `units + 1` units, and only the last unit of a cut body can differ from the whole body's (a sequence
 * cut short is U+FFFD). Decoding a 30 MB text upload whole for the log cost ~250 ms and a 60 MB string (0416).
 */
export async function bodyTextHead(c: Context, units: number): Promise<string> {
  const kept = (c.req.bodyCache as Partial<BodyCache>)[BYTES]
  const enough = 3 * units + 8
  if (!kept || kept.text !== undefined || kept.bytes.length <= enough) return (await c.req.text()).slice(0, units)
  return UTF8.decode(kept.bytes.subarray(0, enough)).slice(0, units)
}

/** Fills Hono's body cache: the bytes now, their text (UTF-8, BOM dropped, as `Request.text()`) on first use. */
function cacheBody(c: Context, bytes: Uint8Array) {
  const cache = c.req.bodyCache as BodyCache
  // arrayBuffer first: Hono converts from the first cached entry for kinds it has no entry for (blob, formData).
  cache.arrayBuffer = Promise.resolve(bytes.buffer)
  cache[BYTES] = { bytes, text: undefined }
  Object.defineProperty(cache, 'text', TEXT)
}

/** `application/x-www-form-urlencoded` bodies as FormData, decoded as undici's `Request.formData()` does. */
export async function urlEncodedForm(c: Context): Promise<FormData> {
  const cache = c.req.bodyCache as Record<string, Promise<unknown> | undefined>
  const cached = cache.formData as Promise<FormData> | undefined
  if (cached) return cached
  keepPairs(cache as FormCache, await formPairs(c))
  return cache.formData as Promise<FormData>
}

/**
 * An url-encoded body's keys in order, each with its last value (an object without prototype): what
 * `lastValues(await urlEncodedForm(c))` gives, without building the FormData,
 * which the body cache builds from the same pairs if anything asks for it.
 */
export async function urlEncodedArgs(c: Context): Promise<Record<string, string | File>> {
  const cache = c.req.bodyCache as FormCache
  if (cache.formData) return lastValues((await cache.formData) as FormData)
  const pairs = await formPairs(c)
  keepPairs(cache, pairs)
  const out: Record<string, string> = Object.create(null)
  for (const [k, v] of pairs) out[k] = v
  return out
}

/** The name/value pairs of the body (undici keeps a leading BOM in form bodies, ignoreBOM, unlike text()). */
async function formPairs(c: Context): Promise<URLSearchParams> {
  const bytes = new Uint8Array(await c.req.arrayBuffer())
  return new URLSearchParams(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes))
}

/**
 * What `c.req.parseBody({ all: true })` gives for an url-encoded form, reduced to each key's last value (all this
 * reader keeps): the same keys in the same order (an object without prototype, each key placed at its first
 * occurrence). Hono's parseBody would first build the request's `Headers` to read a Content-Type the caller has
 * already matched as url-encoded.
 */
export function lastValues(form: FormData): Record<string, string | File> {
  const out: Record<string, string | File> = Object.create(null)
  form.forEach((value, key) => {
    out[key] = value
  })
  return out
}

const PAIRS = Symbol('form pairs')
type FormCache = Record<string, Promise<unknown> | undefined> & {
  [PAIRS]: { pairs: URLSearchParams; form: Promise<unknown> | undefined }
}

// One accessor pair for every request (see TEXT above): the FormData of the kept pairs, built on first read.
const FORM: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: FormCache) {
    const kept = this[PAIRS]
    if (kept.form) return kept.form
    const form = new FormData()
    for (const [k, v] of kept.pairs) form.append(k, v)
    return (kept.form = Promise.resolve(form))
  },
  set(this: FormCache, value: Promise<unknown>) {
    this[PAIRS].form = value
  },
}

/** Puts the body's FormData on Hono's body cache, built from `pairs` when first read. */
function keepPairs(cache: FormCache, pairs: URLSearchParams) {
  cache[PAIRS] = { pairs, form: undefined }
  Object.defineProperty(cache, 'formData', FORM)
}
