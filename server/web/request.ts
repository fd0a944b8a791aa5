import { Body, extractBody } from './body.ts'
import { LightHeaders, isReal } from './headers.ts'
import { realClass } from './real.ts'

/**
 * A WHATWG `Request` without undici (docs/decisions/0436), the base of what `Request` is in the served process
 * (@hono/node-server's listener request builds on the global class it finds when loaded). `new Request(input,
 * init)` takes a URL or another request, method, headers, a string, bytes, Blob, URLSearchParams or stream body,
 * and a signal. A FormData body, or `formData()`, goes to undici's own `Request`.
 */

const LIGHT = Symbol.for('wsgym.light-request')
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const NORMALIZED = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT'])
const FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK'])

type Init = { method?: string; headers?: unknown; body?: unknown; signal?: AbortSignal | null }

function normalMethod(method: string): string {
  if (!TOKEN.test(method)) throw new TypeError(`'${method}' is not a valid HTTP method.`)
  const upper = method.toUpperCase()
  if (FORBIDDEN.has(upper)) throw new TypeError(`'${method}' HTTP method is unsupported.`)
  return NORMALIZED.has(upper) ? upper : method
}

export class LightRequest {
  readonly [LIGHT] = true
  #url: string
  #method: string | undefined
  #headers: LightHeaders | undefined
  #body: Body | undefined
  #parentSignal: AbortSignal | undefined
  #abort: AbortController | undefined

  constructor(input: string | URL | LightRequest | Request, init?: Init) {
    let source: Body | undefined
    if (typeof input === 'object' && input !== null && !(input instanceof URL)) {
      const from = input as LightRequest
      this.#url = from.url
      this.#method = from.method
      this.#headers = new LightHeaders(from.headers)
      this.#parentSignal = from.signal
      if (#url in from) source = from.#takeBody(init?.body)
      else if (init?.body === undefined || init.body === null) {
        const real = input as Request
        source = new Body(real.body ? { stream: real.body as ReadableStream<Uint8Array> } : null)
      }
    } else {
      let url: URL
      try {
        url = new URL(String(input))
      } catch (e) {
        throw new TypeError(`Failed to parse URL from ${String(input)}`, { cause: e })
      }
      if (url.username || url.password) {
        throw new TypeError(`Request cannot be constructed from a URL that includes credentials: ${String(input)}`)
      }
      this.#url = url.href
      this.#method = 'GET'
      this.#headers = new LightHeaders()
    }
    if (init === undefined || init === null) {
      this.#body = source ?? new Body(null)
      return
    }
    if (init.method !== undefined) this.#method = normalMethod(String(init.method))
    if (init.headers !== undefined) this.#headers = new LightHeaders(init.headers)
    if (init.signal !== undefined) this.#parentSignal = init.signal ?? undefined
    // Another request as init (`new Request(url, request)`) hands its body over.
    const fromRequest = typeof init === 'object' && #url in init
    const initBody = fromRequest ? undefined : init.body
    if (fromRequest) source = (init as LightRequest).#takeBody(undefined)
    if (initBody !== undefined && initBody !== null) {
      const extracted = extractBody(initBody)
      if (!extracted) return this.#real(initBody) as unknown as LightRequest
      this.#headers ??= new LightHeaders()
      if (extracted.type !== null && !this.#headers.has('content-type')) {
        this.#headers.append('content-type', extracted.type)
      }
      source = new Body(extracted.source)
    }
    this.#body = source ?? new Body(null)
    if ((this.#method === 'GET' || this.#method === 'HEAD') && !this.#body.isNull) {
      throw new TypeError('Request with GET/HEAD method cannot have body.')
    }
  }

  /** The body this request hands to one built from it (marked read here, as undici's transfer does). */
  #takeBody(initBody: unknown): Body | undefined {
    if (initBody !== undefined && initBody !== null) return undefined
    const body = this.#ownBody()
    if (body.isNull) return body
    this.#body = new Body({ bytes: new Uint8Array(0) })
    void this.#body.bytes()
    return body
  }

  #ownBody(): Body {
    return (this.#body ??= new Body(null))
  }

  /** Undici's `Request` for a body this class leaves to it. */
  #real(body: unknown): Request {
    const Real = realClass<typeof Request>('Request')
    const init = { method: this.#method, headers: this.#headers, body, signal: this.#parentSignal, duplex: 'half' }
    return new Real(this.#url, init as RequestInit)
  }

  get url() {
    return this.#url
  }
  get method(): string {
    return this.#method ?? 'GET'
  }
  get headers(): Headers {
    return (this.#headers ??= new LightHeaders()) as unknown as Headers
  }
  get body() {
    return this.#ownBody().stream
  }
  get bodyUsed() {
    return this.#ownBody().used
  }
  get signal(): AbortSignal {
    if (!this.#abort) {
      this.#abort = new AbortController()
      const parent = this.#parentSignal
      if (parent?.aborted) this.#abort.abort(parent.reason)
      else parent?.addEventListener('abort', () => this.#abort!.abort(parent.reason), { once: true })
    }
    return this.#abort.signal
  }
  /** Aborts the signal (the listener does when the client goes before the answer is written). */
  abort(reason: unknown) {
    if (this.#abort && !this.#abort.signal.aborted) this.#abort.abort(reason)
  }
  get cache() {
    return 'default'
  }
  get credentials() {
    return 'same-origin'
  }
  get destination() {
    return ''
  }
  get integrity() {
    return ''
  }
  get keepalive() {
    return false
  }
  get mode() {
    return 'cors'
  }
  get redirect() {
    return 'follow'
  }
  get referrer() {
    return 'about:client'
  }
  get referrerPolicy() {
    return ''
  }
  get duplex() {
    return 'half'
  }

  text() {
    return this.#ownBody().text()
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.#ownBody().text())
  }
  arrayBuffer() {
    return this.#ownBody().arrayBuffer()
  }
  bytes() {
    return this.#ownBody()
      .bytes()
      .then((b) => new Uint8Array(b))
  }
  async blob(): Promise<Blob> {
    const type = this.headers.get('content-type')
    return new Blob([await this.#ownBody().bytes()], { type: type === null ? '' : type.toLowerCase() })
  }
  /** Forms are parsed by undici's own class. */
  async formData(): Promise<FormData> {
    const body = this.#ownBody()
    return this.#real(body.isNull ? null : await body.bytes()).formData()
  }
  clone(): LightRequest {
    const copy = new LightRequest(this.#url, { method: this.method, headers: this.headers })
    copy.#body = this.#ownBody().clone()
    copy.#parentSignal = this.#parentSignal
    return copy
  }

  get [Symbol.toStringTag]() {
    return 'Request'
  }

  static [Symbol.hasInstance](x: unknown): boolean {
    const light = typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[LIGHT] === true
    // A class built on this one (@hono/node-server's) also answers for objects made from its own prototype.
    return light || isRealRequest(x) || Function.prototype[Symbol.hasInstance].call(this, x)
  }
}

function isRealRequest(x: unknown): boolean {
  return isReal('Request', x)
}
