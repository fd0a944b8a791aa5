/**
 * A request dispatched in process without building a WHATWG `Request` (docs/decisions/0295). It carries what Hono
 * and our middleware read on every call (method, serialized URL, headers, body text); the rarer members (signal,
 * body stream, clone, mode, …) come from a real `Request` built from the same parts on first use.
 */

/** Marks an in-process request whatever copy of this module built it. */
export const IN_PROCESS = Symbol.for('wsgym.in-process-request')

/** Methods served in process (as `Request` spells them once normalised); anything else goes through undici. */
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** What `new Request` adds when a string body comes without a Content-Type. */
const STRING_BODY_TYPE = 'text/plain;charset=UTF-8'

export type InProcessInit = {
  method?: string
  headers?: ConstructorParameters<typeof Headers>[0]
  body?: string | null
}

export class InProcessRequest {
  readonly [IN_PROCESS] = true
  #real: Request | undefined

  constructor(
    readonly url: string,
    readonly method: string,
    readonly headers: Headers,
    /** The body as sent (undefined: none). */
    readonly bodyText: string | undefined,
  ) {}

  /** The equivalent `Request`, built once, for members nothing on the common path reads. */
  #request(): Request {
    this.#real ??= new Request(this.url, { method: this.method, headers: this.headers, body: this.bodyText })
    return this.#real
  }

  get body() {
    return this.#request().body
  }
  get bodyUsed() {
    return this.#request().bodyUsed
  }
  get signal() {
    return this.#request().signal
  }
  get cache() {
    return this.#request().cache
  }
  get credentials() {
    return this.#request().credentials
  }
  get destination() {
    return this.#request().destination
  }
  get integrity() {
    return this.#request().integrity
  }
  get keepalive() {
    return this.#request().keepalive
  }
  get mode() {
    return this.#request().mode
  }
  get redirect() {
    return this.#request().redirect
  }
  get referrer() {
    return this.#request().referrer
  }
  get referrerPolicy() {
    return this.#request().referrerPolicy
  }
  get duplex() {
    return (this.#request() as Request & { duplex?: string }).duplex
  }
  clone() {
    return this.#request().clone()
  }
  arrayBuffer() {
    return this.#request().arrayBuffer()
  }
  blob() {
    return this.#request().blob()
  }
  formData() {
    return this.#request().formData()
  }
  json() {
    return this.#request().json()
  }
  text() {
    return this.#request().text()
  }
}

/** True when `raw` (a context's `c.req.raw`) is an in-process request. */
export function isInProcessRequest(raw: unknown): raw is InProcessRequest {
  return typeof raw === 'object' && raw !== null && (raw as Record<symbol, unknown>)[IN_PROCESS] === true
}

/** The absolute URL `app.request(input)` dispatches (Hono prefixes `http://localhost` to a path). */
function absoluteUrl(input: string): string {
  if (/^https?:\/\//.test(input)) return input
  return `http://localhost/${input.startsWith('/') ? input.slice(1) : input}`
}

/**
 * The in-process request for `app.request(input, init)`, or undefined when the call is not one this path serves
 * exactly: another method spelling, a body that is not a string, a multipart body, a GET with a body, init
 * members other than method/headers/body, URLs or headers `Request` would refuse (the caller then uses
 * `app.request`, which answers or throws as it always did).
 */
export function inProcessRequest(input: string, init: InProcessInit = {}): InProcessRequest | undefined {
  for (const key in init) if (key !== 'method' && key !== 'headers' && key !== 'body') return undefined
  const method = init.method ?? 'GET'
  if (!METHODS.has(method)) return undefined
  const body = init.body ?? undefined
  if (body !== undefined && (typeof body !== 'string' || method === 'GET')) return undefined
  let url: URL
  let headers: Headers
  try {
    url = new URL(absoluteUrl(input))
    headers = new Headers(init.headers)
  } catch {
    return undefined
  }
  if (url.username || url.password) return undefined
  const type = headers.get('content-type')
  if (type !== null && /multipart\//i.test(type)) return undefined
  if (body !== undefined && type === null) headers.append('content-type', STRING_BODY_TYPE)
  return new InProcessRequest(url.href, method, headers, body)
}
