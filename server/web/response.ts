import { Body, extractBody } from './body.ts'
import { LightHeaders, isReal } from './headers.ts'
import { realClass } from './real.ts'

/**
 * A WHATWG `Response` without undici (docs/decisions/0436), what `Response` is in the served process: string,
 * bytes, Blob, URLSearchParams and stream bodies, undici's status, statusText and null-body checks and default
 * Content-Type. Any other body (FormData, a value converted to a string) gets undici's own `Response`.
 */

const NULL_BODY_STATUS = new Set([101, 204, 205, 304])
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308])
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/
const LIGHT = Symbol.for('wsgym.light-response')

type Init = { status?: unknown; statusText?: unknown; headers?: unknown } | undefined | null

export class LightResponse {
  readonly [LIGHT] = true
  #status = 200
  #statusText = ''
  #headers: LightHeaders
  #body!: Body
  #type = 'default'

  constructor(body?: unknown, init?: Init) {
    if (init !== undefined && init !== null && typeof init !== 'object' && typeof init !== 'function') {
      throw new TypeError('Response constructor: Expected init to be a dictionary.')
    }
    if (init?.status !== undefined) this.#status = Math.trunc(Number(init.status)) & 0xffff
    if (init?.status !== undefined && (this.#status < 200 || this.#status > 599)) {
      throw new RangeError('init["status"] must be in the range of 200 to 599, inclusive.')
    }
    if (init?.statusText !== undefined) {
      const text = String(init.statusText)
      if (!REASON_PHRASE.test(text)) throw new TypeError('Invalid statusText')
      this.#statusText = text
    }
    this.#headers = new LightHeaders(init?.headers ?? undefined)
    const extracted = extractBody(body)
    if (!extracted) {
      // A body kind left to undici (FormData, anything converted to a string).
      const Real = realClass<typeof Response>('Response')
      const real = { status: init?.status, statusText: init?.statusText, headers: this.#headers } as ResponseInit
      return new Real(body as ConstructorParameters<typeof Response>[0], real) as unknown as LightResponse
    }
    if (extracted.source !== null && NULL_BODY_STATUS.has(this.#status)) {
      throw new TypeError(`Response constructor: Invalid response status code ${this.#status}`)
    }
    if (extracted.type !== null && !this.#headers.has('content-type')) {
      this.#headers.append('content-type', extracted.type)
    }
    this.#body = new Body(extracted.source)
  }

  get status() {
    return this.#status
  }
  get statusText() {
    return this.#statusText
  }
  get headers(): Headers {
    return this.#headers as unknown as Headers
  }
  get ok() {
    return this.#status >= 200 && this.#status <= 299
  }
  get type() {
    return this.#type
  }
  get url() {
    return ''
  }
  get redirected() {
    return false
  }
  get body() {
    return this.#body.stream
  }
  get bodyUsed() {
    return this.#body.used
  }

  text() {
    return this.#body.text()
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.#body.text())
  }
  arrayBuffer() {
    return this.#body.arrayBuffer()
  }
  bytes() {
    return this.#body.bytes().then((b) => new Uint8Array(b))
  }
  async blob(): Promise<Blob> {
    return new Blob([await this.#body.bytes()], { type: blobType(this.#headers) })
  }
  /** Forms are parsed by undici's own class. */
  async formData(): Promise<FormData> {
    const Real = realClass<typeof Response>('Response')
    const bytes = this.#body.isNull ? null : await this.#body.bytes()
    return new Real(bytes, { status: this.#status, headers: this.#headers as unknown as Headers }).formData()
  }

  clone(): LightResponse {
    const copy = new LightResponse(null, { status: this.#status, statusText: this.#statusText, headers: this.#headers })
    copy.#body = this.#body.clone()
    copy.#type = this.#type
    return copy
  }

  get [Symbol.toStringTag]() {
    return 'Response'
  }

  static json(data: unknown, init?: Init): LightResponse {
    const text = JSON.stringify(data)
    if (text === undefined) throw new TypeError('Value is not JSON serializable')
    const res = new LightResponse(new TextEncoder().encode(text), init)
    if (!res.#headers.has('content-type')) res.#headers.append('content-type', 'application/json')
    return res
  }

  static redirect(url: string | URL, status = 302): LightResponse {
    let parsed: URL
    try {
      parsed = new URL(String(url))
    } catch (e) {
      throw new TypeError(`Failed to parse URL from ${String(url)}`, { cause: e })
    }
    if (!REDIRECT_STATUS.has(status)) throw new RangeError(`Invalid status code ${status}`)
    return new LightResponse(null, { status, headers: { location: parsed.href } })
  }

  static error(): Response {
    return realClass<typeof Response>('Response').error()
  }

  static [Symbol.hasInstance](x: unknown): boolean {
    // A class built on this one (@hono/node-server's) also answers for objects made from its own prototype.
    return isLightResponse(x) || isReal('Response', x) || Function.prototype[Symbol.hasInstance].call(this, x)
  }
}

export function isLightResponse(x: unknown): x is LightResponse {
  return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[LIGHT] === true
}

/** The type a Blob of the body gets: the Content-Type's essence and parameters, lower-cased (a MIME type). */
function blobType(headers: LightHeaders): string {
  const type = headers.get('content-type')
  return type === null ? '' : type.toLowerCase()
}
