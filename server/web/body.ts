import * as nodeStream from 'node:stream'

/** Whether a web stream has been read from (Node's `stream.isDisturbed`, missing from @types/node). */
const isDisturbed = (nodeStream as unknown as { isDisturbed(s: unknown): boolean }).isDisturbed

/**
 * Bodies of the light `Request` and `Response` (docs/decisions/0436): what undici's `extractBody` makes of a
 * string, bytes, a Blob, URLSearchParams or a ReadableStream (the same default types, and the same one-chunk byte
 * stream when the body is read as a stream), and the reads of the Body mixin (text, json, arrayBuffer, bytes).
 * Other bodies (FormData, async iterables, anything converted to a string) are left to undici's classes.
 */

/** A body as held: bytes, a Blob or a stream. */
export type Source =
  | { bytes: Uint8Array; blob?: undefined; stream?: undefined }
  | { blob: Blob; bytes?: undefined; stream?: undefined }
  | { stream: ReadableStream<Uint8Array>; bytes?: undefined; blob?: undefined }

/** A body and the Content-Type it implies, or undefined for a body kind left to undici. */
export function extractBody(body: unknown): { source: Source | null; type: string | null } | undefined {
  if (body === null || body === undefined) return { source: null, type: null }
  if (typeof body === 'string') return { source: { bytes: encoder.encode(body) }, type: 'text/plain;charset=UTF-8' }
  if (typeof body !== 'object') return undefined
  if (body instanceof URLSearchParams) {
    return {
      source: { bytes: encoder.encode(body.toString()) },
      type: 'application/x-www-form-urlencoded;charset=UTF-8',
    }
  }
  if (body instanceof ArrayBuffer) return { source: { bytes: new Uint8Array(body.slice(0)) }, type: null }
  if (ArrayBuffer.isView(body)) {
    const copy = body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer
    return { source: { bytes: new Uint8Array(copy) }, type: null }
  }
  if (body instanceof Blob) return { source: { blob: body }, type: body.type || null }
  if (body instanceof ReadableStream) {
    if (body.locked) throw new TypeError('Response body object should not be disturbed or locked')
    return { source: { stream: body }, type: null }
  }
  return undefined
}

const encoder = new TextEncoder()
/** UTF-8 with a leading BOM dropped, as the Body mixin's text() decodes. */
const decoder = new TextDecoder()

function closeStream(controller: ReadableByteStreamController) {
  try {
    controller.close()
    controller.byobRequest?.respond(0)
  } catch (e) {
    const m = (e as Error).message
    if (!m.includes('Controller is already closed') && !m.includes('ReadableStream is already closed')) throw e
  }
}

/** The byte stream undici makes of a byte body (one chunk, closed a microtask after it is pulled). */
function bytesStream(take: () => Uint8Array | Promise<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async pull(controller) {
      const buffer = await take()
      if (buffer.byteLength) controller.enqueue(buffer)
      queueMicrotask(() => closeStream(controller))
    },
    start() {},
    type: 'bytes',
  }) as ReadableStream<Uint8Array>
}

async function readStream(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    if (!(value instanceof Uint8Array)) throw new TypeError('Received non-Uint8Array chunk')
    chunks.push(value)
    size += value.byteLength
  }
  if (chunks.length === 1) return chunks[0]!
  const out = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.byteLength
  }
  return out
}

const UNUSABLE = 'Body is unusable: Body has already been read'

/** The body of one light Request or Response: held as given, a stream made of it only when asked for. */
export class Body {
  #source: Source | null
  #stream: ReadableStream<Uint8Array> | undefined
  #used = false

  constructor(source: Source | null) {
    this.#source = source
  }

  get isNull() {
    return this.#source === null
  }

  /** The source as given, while nothing has read or streamed it. */
  get untouched(): Source | null | undefined {
    return this.#stream || this.#used ? undefined : this.#source
  }

  get stream(): ReadableStream<Uint8Array> | null {
    const s = this.#source
    if (s === null) return null
    if (!this.#stream) {
      if (s.stream) this.#stream = s.stream
      else if (s.blob) this.#stream = s.blob.stream() as ReadableStream<Uint8Array>
      else this.#stream = bytesStream(() => s.bytes)
    }
    return this.#stream
  }

  get used(): boolean {
    if (this.#used) return true
    const st = this.#stream
    return st !== undefined && (st.locked || isDisturbed(st))
  }

  /** The whole body once (a second read throws, as the Body mixin's). */
  async bytes(): Promise<Uint8Array> {
    if (this.used) throw new TypeError(UNUSABLE)
    const s = this.#source
    if (s === null) return new Uint8Array(0)
    if (this.#stream) return readStream(this.#stream)
    this.#used = true
    if (s.bytes) return s.bytes
    if (s.blob) return new Uint8Array(await s.blob.arrayBuffer())
    return readStream(s.stream)
  }

  async text(): Promise<string> {
    return decoder.decode(await this.bytes())
  }

  /** The bytes in an ArrayBuffer of their own (a clone may share the source's bytes). */
  async arrayBuffer(): Promise<ArrayBuffer> {
    const b = await this.bytes()
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer
  }

  /** Two bodies with the same bytes (the stream teed when there is one). */
  clone(): Body {
    if (this.used) throw new TypeError('Response.clone: Body has already been consumed.')
    const s = this.#source
    if (s === null) return new Body(null)
    if (!this.#stream && (s.bytes || s.blob)) return new Body(s)
    const [a, b] = this.stream!.tee()
    this.#stream = a
    return new Body({ stream: b })
  }
}
