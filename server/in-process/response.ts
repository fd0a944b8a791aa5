import type { Context } from 'hono'
import { HtmlEscapedCallbackPhase, resolveCallback } from 'hono/utils/html'
import { isInProcessRequest } from './request.ts'
import { bytesOfBody, textOfBody } from './body.ts'

/**
 * Responses of in-process requests without a WHATWG `Response` (docs/decisions/0295). For such a request the
 * context's response methods (`body`, `json`, `text`, `header`, `status`, `res`) are replaced by ones that keep
 * Hono's rules (header merging, the default content types, what re-setting `c.res` keeps) but hold a typed text
 * or empty answer as an `InProcessResponse`: status, a real `Headers`, the text. Any other body (a stream, bytes,
 * text without a type) or an init `Response` would refuse goes to the global `Response`, exactly as in Hono,
 * whichever class that is (@hono/node-server's, over the light one of server/web/, once a listener starts: 0436).
 */

/** What the in-process caller reads from an answer (a `Response` or an `InProcessResponse`). */
export type Answer = Pick<Response, 'status' | 'headers' | 'text' | 'arrayBuffer' | 'json'>

/** Statuses a `Response` with a body refuses. */
const NULL_BODY_STATUS = new Set([101, 204, 205, 304])
/** Hono's `c.text()` and `c.json()` types. */
const TEXT_PLAIN = 'text/plain; charset=UTF-8'
const JSON_TYPE = 'application/json'

export class InProcessResponse {
  readonly type = 'default'
  readonly url = ''
  readonly redirected = false
  #used = false
  #real: Response | undefined

  constructor(
    /** The body as given (null: none). */
    readonly bodyText: string | null,
    readonly status: number,
    readonly statusText: string,
    readonly headers: Headers,
  ) {}

  get ok() {
    return this.status >= 200 && this.status <= 299
  }

  /** The equivalent `Response`, for members nothing on the common path reads. Body reads go to it from then on. */
  #response(): Response {
    const init = { status: this.status, statusText: this.statusText, headers: this.headers }
    this.#real ??= new Response(this.bodyText, init)
    return this.#real
  }

  get body() {
    return this.#response().body
  }
  get bodyUsed() {
    return this.#real ? this.#real.bodyUsed : this.#used
  }

  /** The body's text, once (as `Response.text()`: a second read of a body fails). */
  #take(): string | Error {
    if (this.bodyText === null) return ''
    if (this.#used) return new TypeError('Body is unusable: Body has already been read')
    this.#used = true
    return this.bodyText
  }

  async text(): Promise<string> {
    if (this.#real) return this.#real.text()
    const text = this.#take()
    if (text instanceof Error) throw text
    return textOfBody(text)
  }

  async json(): Promise<unknown> {
    if (this.#real) return this.#real.json()
    return JSON.parse(await this.text())
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#real) return this.#real.arrayBuffer()
    const text = this.#take()
    if (text instanceof Error) throw text
    return bytesOfBody(text)
  }

  blob() {
    return this.#response().blob()
  }
  formData() {
    return this.#response().formData()
  }

  clone(): InProcessResponse | Response {
    if (this.#real || this.#used) return this.#response().clone()
    return new InProcessResponse(this.bodyText, this.status, this.statusText, new Headers(this.headers))
  }
}

type Init = { status?: number; headers?: ConstructorParameters<typeof Headers>[0] }
type Body = ConstructorParameters<typeof Response>[0]
type AnyResponse = Response | InProcessResponse

/** `new Response(data, init)`, as an `InProcessResponse` when the body is text or nothing and init is plain. */
function respond(data: unknown, init: Init): AnyResponse {
  const status = init.status ?? 200
  const plain = data === null || data === undefined || typeof data === 'string'
  if (!plain || !Number.isInteger(status) || status < 200 || status > 599) return new Response(data as Body, init)
  if (data != null && NULL_BODY_STATUS.has(status)) return new Response(data as Body, init)
  const headers = new Headers(init.headers)
  // Which type a typeless text gets depends on the global class (undici: `text/plain;charset=UTF-8`;
  // @hono/node-server's: `text/plain; charset=UTF-8`, or none when init has headers): it decides.
  if (typeof data === 'string' && !headers.has('content-type')) return new Response(data, init)
  return new InProcessResponse(data ?? null, status, '', headers)
}

/** Hono's `new Response(res.body, res)`: the same answer with headers of its own. */
function rebuild(res: AnyResponse): AnyResponse {
  if (res instanceof InProcessResponse && !res.bodyUsed) return res.clone()
  if (res instanceof InProcessResponse) {
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers: res.headers })
  }
  return new Response(res.body, res)
}

type HeaderRecord = Record<string, string | string[]>

/** The answer state of one in-process request, kept on its context under `ANSWER`. */
type Answering = { res: AnyResponse | undefined; prepared: Headers | undefined; status: number | undefined }
const ANSWER = Symbol('in-process answer')
type AnsweringContext = Context & { [ANSWER]: Answering }

/**
 * Hono's `res` accessor, for a context answering in process. One descriptor with the same two functions for
 * every context: V8 keeps objects whose accessor pairs are equal on one shape, while a pair of fresh closures per
 * request made a new hidden class each time, held in old space, which kept every request's objects alive through
 * the young-generation collections until a full one (a fifth of each call's CPU went to the collector).
 */
const RES: PropertyDescriptor = {
  configurable: true,
  get(this: AnsweringContext) {
    const st = this[ANSWER]
    return (st.res ||= respond(null, { headers: (st.prepared ??= new Headers()) }))
  },
  set(this: AnsweringContext, next: AnyResponse | undefined) {
    const st = this[ANSWER]
    const res = st.res
    if (res && next) {
      next = rebuild(next)
      for (const [k, v] of res.headers.entries()) {
        if (k === 'content-type') continue
        if (k === 'set-cookie') {
          const cookies = res.headers.getSetCookie()
          next.headers.delete('set-cookie')
          for (const cookie of cookies) next.headers.append('set-cookie', cookie)
        } else next.headers.set(k, v)
      }
    }
    st.res = next
    this.finalized = true
  },
}

/** Hono's Context#newResponse, rule for rule. */
function newResponse(this: AnsweringContext, data: unknown, arg?: number | ResponseInit, headers?: HeaderRecord) {
  const st = this[ANSWER]
  let merged = st.res ? new Headers(st.res.headers) : st.prepared
  if (typeof arg === 'object' && arg.headers) {
    merged ??= new Headers()
    for (const [k, v] of new Headers(arg.headers)) {
      if (k === 'set-cookie') merged.append(k, v)
      else merged.set(k, v)
    }
  }
  if (headers) {
    if (!merged) {
      let count = 0
      for (const k in headers) {
        if (++count > 1 || typeof headers[k] !== 'string') {
          merged = new Headers()
          break
        }
      }
    }
    if (merged) {
      for (const k in headers) {
        const v = headers[k]!
        if (typeof v === 'string') merged.set(k, v)
        else {
          merged.delete(k)
          for (const one of v) merged.append(k, one)
        }
      }
    }
  }
  const code = typeof arg === 'number' ? arg : (arg?.status ?? st.status)
  return respond(data, { status: code, headers: merged ?? (headers as Record<string, string>) })
}

/**
 * The response methods a context answering in process gets in place of Hono's. The same functions for every
 * context (they find the request's state through `this`, which Hono and handlers always pass: `c.json(…)`).
 */
const METHODS = {
  header(this: AnsweringContext, name: string, value: string | undefined, options?: { append?: boolean }) {
    const st = this[ANSWER]
    if (this.finalized && !st.res!.bodyUsed) st.res = rebuild(st.res!)
    const headers = st.res ? st.res.headers : (st.prepared ??= new Headers())
    if (value === undefined) headers.delete(name)
    else if (options?.append) headers.append(name, value)
    else headers.set(name, value)
  },
  status(this: AnsweringContext, code: number) {
    this[ANSWER].status = code
  },
  newResponse,
  body: newResponse,
  text(this: AnsweringContext, text: string, arg?: number | ResponseInit, headers?: HeaderRecord) {
    const st = this[ANSWER]
    return !st.prepared && !st.status && !arg && !headers && !this.finalized
      ? respond(text, {})
      : newResponse.call(this, text, arg, { 'Content-Type': TEXT_PLAIN, ...headers })
  },
  json(this: AnsweringContext, object: unknown, arg?: number | ResponseInit, headers?: HeaderRecord) {
    return newResponse.call(this, JSON.stringify(object), arg, { 'Content-Type': JSON_TYPE, ...headers })
  },
  html(this: AnsweringContext, html: unknown, arg?: number | ResponseInit, headers?: HeaderRecord) {
    const render = (text: unknown) =>
      newResponse.call(this, text, arg, { 'Content-Type': 'text/html; charset=UTF-8', ...headers })
    return typeof html === 'object'
      ? resolveCallback(html as unknown as string, HtmlEscapedCallbackPhase.Stringify, false, {}).then(render)
      : render(html)
  },
}

/** Gives `c` the in-process response methods (see the top of this file). */
function serveInProcess(c: Context): void {
  const ctx = c as AnsweringContext
  ctx[ANSWER] = { res: undefined, prepared: undefined, status: undefined }
  Object.defineProperty(c, 'res', RES)
  Object.assign(c, METHODS)
}

/**
 * Called first thing by the agent app's first middleware: an in-process request gets the in-process response
 * methods. Anything dispatched otherwise (the listener, `app.request`, batch parts) keeps Hono's.
 */
export function answerInProcess(c: Context): void {
  if (isInProcessRequest(c.req.raw)) serveInProcess(c)
}
