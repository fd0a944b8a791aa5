import { LightResponse } from './response.ts'
import { isReal } from './headers.ts'

/**
 * The `Response` of the served process (docs/decisions/0436): @hono/node-server's lightweight response (its
 * `src/response.ts`, 1.19) over `LightResponse` instead of undici's class. A string, stream, Blob or Uint8Array
 * body with its init is kept as given (`CACHE`) and written straight to the socket (server/web/listener.ts); any
 * other member read first makes the full response, which is then written as a `Response` is. The two ways write
 * the same bytes as @hono/node-server did, header name case included.
 */

export const CACHE = Symbol('cache')
const FULL = Symbol('full response')
type Cached = [status: number, body: unknown, headers: unknown]
type Init = { status?: number; headers?: unknown } | undefined

export class ListenerResponse {
  #body: unknown
  #init: Init | LightResponse | Response;
  [CACHE]?: Cached;
  [FULL]?: LightResponse | Response

  /** The full response, from here on what every member reads. */
  full(): LightResponse | Response {
    delete this[CACHE]
    return (this[FULL] ||= new LightResponse(this.#body, this.#init as Init))
  }

  constructor(body?: unknown, init?: Init | ListenerResponse) {
    let headers: unknown
    this.#body = body
    if (isListenerResponse(init)) {
      const full = init[FULL]
      if (full) {
        this.#init = full
        this.full()
        return
      }
      this.#init = init.#init
      headers = new Headers((init.#init as { headers?: ConstructorParameters<typeof Headers>[0] } | undefined)?.headers)
    } else this.#init = init
    if (
      typeof body === 'string' ||
      typeof (body as ReadableStream | undefined)?.getReader !== 'undefined' ||
      body instanceof Blob ||
      body instanceof Uint8Array
    ) {
      this[CACHE] = [(init as Init)?.status || 200, body, headers || (init as Init)?.headers]
    }
  }

  get headers(): Headers {
    const cache = this[CACHE]
    if (cache) {
      if (!(cache[2] instanceof Headers)) {
        cache[2] = new Headers(
          (cache[2] as ConstructorParameters<typeof Headers>[0]) || { 'content-type': 'text/plain; charset=UTF-8' },
        )
      }
      return cache[2] as Headers
    }
    return this.full().headers
  }
  get status(): number {
    return this[CACHE]?.[0] ?? this.full().status
  }
  get ok() {
    const status = this.status
    return status >= 200 && status < 300
  }
  get body() {
    return this.full().body
  }
  get bodyUsed() {
    return this.full().bodyUsed
  }
  get redirected() {
    return this.full().redirected
  }
  get statusText() {
    return this.full().statusText
  }
  get type() {
    return this.full().type
  }
  get url() {
    return this.full().url
  }
  arrayBuffer() {
    return this.full().arrayBuffer()
  }
  blob() {
    return this.full().blob()
  }
  clone() {
    return this.full().clone()
  }
  formData() {
    return this.full().formData()
  }
  json() {
    return this.full().json()
  }
  text() {
    return this.full().text()
  }
  get [Symbol.toStringTag]() {
    return 'Response'
  }

  static json(data: unknown, init?: Init) {
    return LightResponse.json(data, init)
  }
  static redirect(url: string | URL, status?: number) {
    return LightResponse.redirect(url, status)
  }
  static error() {
    return LightResponse.error()
  }
  static [Symbol.hasInstance](x: unknown): boolean {
    return (
      isListenerResponse(x) || Function.prototype[Symbol.hasInstance].call(LightResponse, x) || isReal('Response', x)
    )
  }
}

/** Exactly a ListenerResponse (not any `Response`, which `instanceof` accepts). */
export function isListenerResponse(x: unknown): x is ListenerResponse {
  return typeof x === 'object' && x !== null && Object.getPrototypeOf(x) === ListenerResponse.prototype
}
