import type { IncomingMessage, ServerResponse, OutgoingHttpHeaders } from 'node:http'
import { LightRequest } from './request.ts'
import { CACHE, isListenerResponse, type ListenerResponse } from './listener-response.ts'

/**
 * A Node request listener for a Hono app's `fetch` without undici (docs/decisions/0436): @hono/node-server's
 * `getRequestListener` (1.19, HTTP/1 only) over the light `Request` and `Response` of server/web/. The same
 * request URLs (and 400 for the ones it refused), the same bytes written for every answer (a kept body with its
 * headers as given, anything else read through `res.body`), the same draining of unread request bodies.
 */

type Fetch = (req: Request, env: { incoming: IncomingMessage; outgoing: ServerResponse }) => unknown

class RequestError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'RequestError'
  }
}

const validateRequestTarget = (target: string) => {
  const backslash = target.indexOf('\\')
  if (backslash !== -1) {
    const query = target.indexOf('?')
    if (query === -1 || backslash < query) throw new RequestError('Backslash in request path')
  }
}

/** @hono/node-server's `newRequest` for an HTTP/1 request. */
function newRequest(incoming: IncomingMessage, defaultHostname?: string): LightRequest {
  const incomingUrl = incoming.url || ''
  if (incomingUrl[0] !== '/' && (incomingUrl.startsWith('http://') || incomingUrl.startsWith('https://'))) {
    try {
      validateRequestTarget(incomingUrl)
      return LightRequest.fromIncoming(incoming, new URL(incomingUrl).href)
    } catch (e) {
      throw new RequestError('Invalid absolute URL', { cause: e })
    }
  }
  const host = incoming.headers.host || defaultHostname
  if (!host) throw new RequestError('Missing host header')
  const scheme = (incoming.socket as { encrypted?: boolean } | undefined)?.encrypted ? 'https' : 'http'
  validateRequestTarget(incomingUrl)
  const url = new URL(`${scheme}://${host}${incomingUrl}`)
  if (url.hostname.length !== host.length && url.hostname !== host.replace(/:\d+$/, '')) {
    throw new RequestError('Invalid host header')
  }
  return LightRequest.fromIncoming(incoming, url.href)
}

const DRAIN_TIMEOUT_MS = 500
const MAX_DRAIN_BYTES = 64 * 1024 * 1024
const draining = new WeakSet<IncomingMessage>()

function drainIncoming(incoming: IncomingMessage) {
  if (incoming.destroyed || draining.has(incoming)) return
  draining.add(incoming)
  let bytesRead = 0
  const cleanup = () => {
    clearTimeout(timer)
    incoming.off('data', onData)
    incoming.off('end', cleanup)
    incoming.off('error', cleanup)
  }
  const forceClose = () => {
    cleanup()
    const socket = incoming.socket
    if (socket && !socket.destroyed) socket.destroySoon()
  }
  const timer = setTimeout(forceClose, DRAIN_TIMEOUT_MS)
  timer.unref?.()
  const onData = (chunk: Buffer) => {
    bytesRead += chunk.length
    if (bytesRead > MAX_DRAIN_BYTES) forceClose()
  }
  incoming.on('data', onData)
  incoming.on('end', cleanup)
  incoming.on('error', cleanup)
  incoming.resume()
}

const handleRequestError = () => new Response(null, { status: 400 })
const handleFetchError = (e: unknown) =>
  new Response(null, {
    status: e instanceof Error && (e.name === 'TimeoutError' || e.constructor.name === 'TimeoutError') ? 504 : 500,
  })

const handleResponseError = (e: unknown, outgoing: ServerResponse) => {
  const err = e instanceof Error ? e : new Error('unknown error', { cause: e })
  if ((err as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') {
    console.info('The user aborted a request.')
  } else {
    console.error(e)
    if (!outgoing.headersSent) outgoing.writeHead(500, { 'Content-Type': 'text/plain' })
    outgoing.end(`Error: ${err.message}`)
    outgoing.destroy(err)
  }
}

const flushHeaders = (outgoing: ServerResponse) => {
  if ('flushHeaders' in outgoing && outgoing.writable) outgoing.flushHeaders()
}

async function readWithoutBlocking<T>(readPromise: Promise<T>): Promise<T | undefined> {
  return Promise.race([readPromise, Promise.resolve().then(() => Promise.resolve(undefined))])
}

type Reader = ReadableStreamDefaultReader<Uint8Array>
type Chunk = { done: boolean; value?: Uint8Array }

function writeFromReader(reader: Reader, writable: ServerResponse, currentReadPromise?: Promise<Chunk>) {
  const cancel = (error: unknown) => {
    reader.cancel(error).catch(() => {})
  }
  writable.on('close', cancel)
  writable.on('error', cancel)
  ;(currentReadPromise ?? reader.read()).then(flow, handleStreamError)
  return reader.closed.finally(() => {
    writable.off('close', cancel)
    writable.off('error', cancel)
  })
  function handleStreamError(error: unknown) {
    if (error) writable.destroy(error as Error)
  }
  function onDrain() {
    reader.read().then(flow, handleStreamError)
  }
  function flow({ done, value }: Chunk): Promise<void> | undefined {
    try {
      if (done) writable.end()
      else if (!writable.write(value!)) writable.once('drain', onDrain)
      else return reader.read().then(flow, handleStreamError)
    } catch (e) {
      handleStreamError(e)
    }
    return undefined
  }
}

function writeFromReadableStream(stream: ReadableStream<Uint8Array>, writable: ServerResponse) {
  if (stream.locked) throw new TypeError('ReadableStream is locked.')
  else if (writable.destroyed) return
  return writeFromReader(stream.getReader(), writable)
}

const buildOutgoingHttpHeaders = (headers: unknown): OutgoingHttpHeaders => {
  const res: OutgoingHttpHeaders = {}
  const list = headers instanceof Headers ? headers : new Headers((headers ?? undefined) as HeadersInit)
  const cookies: string[] = []
  for (const [k, v] of list as unknown as Iterable<[string, string]>) {
    if (k === 'set-cookie') cookies.push(v)
    else res[k] = v
  }
  if (cookies.length > 0) res['set-cookie'] = cookies
  res['content-type'] ??= 'text/plain; charset=UTF-8'
  return res
}
type HeadersInit = ConstructorParameters<typeof Headers>[0]

const X_ALREADY_SENT = 'x-hono-already-sent'

async function responseViaCache(res: ListenerResponse, outgoing: ServerResponse) {
  const [status, body, header] = res[CACHE]!
  let hasContentLength = false
  let out: OutgoingHttpHeaders
  if (!header) out = { 'content-type': 'text/plain; charset=UTF-8' }
  else if (header instanceof Headers) {
    hasContentLength = header.has('content-length')
    out = buildOutgoingHttpHeaders(header)
  } else if (Array.isArray(header)) {
    const headerObj = new Headers(header as [string, string][])
    hasContentLength = headerObj.has('content-length')
    out = buildOutgoingHttpHeaders(headerObj)
  } else {
    out = header as OutgoingHttpHeaders
    for (const key in out) {
      if (key.length === 14 && key.toLowerCase() === 'content-length') {
        hasContentLength = true
        break
      }
    }
  }
  if (!hasContentLength) {
    if (typeof body === 'string') out['Content-Length'] = Buffer.byteLength(body)
    else if (body instanceof Uint8Array) out['Content-Length'] = body.byteLength
    else if (body instanceof Blob) out['Content-Length'] = body.size
  }
  outgoing.writeHead(status, out)
  if (typeof body === 'string' || body instanceof Uint8Array) outgoing.end(body)
  else if (body instanceof Blob) outgoing.end(new Uint8Array(await body.arrayBuffer()))
  else {
    flushHeaders(outgoing)
    await writeFromReadableStream(body as ReadableStream<Uint8Array>, outgoing)?.catch((e) =>
      handleResponseError(e, outgoing),
    )
  }
}

async function responseViaResponseObject(res: unknown, outgoing: ServerResponse) {
  if (typeof (res as Promise<unknown>).then === 'function')
    res = await (res as Promise<unknown>).catch(handleFetchError)
  if (isListenerResponse(res) && res[CACHE]) return responseViaCache(res, outgoing)
  const response = res as Response
  const resHeaderRecord = buildOutgoingHttpHeaders(response.headers)
  if (response.body) {
    const reader = response.body.getReader() as Reader
    const values: Uint8Array[] = []
    let done = false
    let currentReadPromise: Promise<Chunk> | undefined
    if (resHeaderRecord['transfer-encoding'] !== 'chunked') {
      let maxReadCount = 2
      for (let i = 0; i < maxReadCount; i++) {
        currentReadPromise ||= reader.read()
        const chunk = await readWithoutBlocking(currentReadPromise).catch((e) => {
          console.error(e)
          done = true
          return undefined
        })
        if (!chunk) {
          if (i === 1) {
            await new Promise((resolve) => setTimeout(resolve))
            maxReadCount = 3
            continue
          }
          break
        }
        currentReadPromise = undefined
        if (chunk.value) values.push(chunk.value)
        if (chunk.done) {
          done = true
          break
        }
      }
      if (done && !('content-length' in resHeaderRecord)) {
        resHeaderRecord['content-length'] = values.reduce((acc, value) => acc + value.length, 0)
      }
    }
    outgoing.writeHead(response.status, resHeaderRecord)
    values.forEach((value) => outgoing.write(value))
    if (done) outgoing.end()
    else {
      if (values.length === 0) flushHeaders(outgoing)
      await writeFromReader(reader, outgoing, currentReadPromise)
    }
  } else if (resHeaderRecord[X_ALREADY_SENT]) {
    // Answered already by the handler.
  } else {
    outgoing.writeHead(response.status, resHeaderRecord)
    outgoing.end()
  }
}

/**
 * The listener serving `fetchCallback` (as `getRequestListener(fetch, { hostname })` with its other options at
 * their defaults): `hostname` stands for a missing Host header.
 */
export function requestListener(fetchCallback: Fetch, hostname?: string) {
  return async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    let res: unknown
    let req: LightRequest | undefined
    try {
      req = newRequest(incoming, hostname)
      let incomingEnded = incoming.method === 'GET' || incoming.method === 'HEAD'
      if (!incomingEnded) {
        incoming.on('end', () => {
          incomingEnded = true
        })
        outgoing.on('finish', () => {
          if (!incomingEnded) drainIncoming(incoming)
        })
      }
      const request = req
      outgoing.on('close', () => {
        if (incoming.errored) request.abort(incoming.errored.toString())
        else if (!outgoing.writableFinished) request.abort('Client connection prematurely closed.')
        if (!incomingEnded) {
          setTimeout(() => {
            if (!incomingEnded) setTimeout(() => drainIncoming(incoming))
          })
        }
      })
      res = fetchCallback(req as unknown as Request, { incoming, outgoing })
      // (@hono/node-server's `cacheKey in res` throws on anything but an object.)
      if (typeof res !== 'object' || res === null) throw new TypeError('the app answered no Response')
      if (isListenerResponse(res) && res[CACHE]) return responseViaCache(res, outgoing)
    } catch (e) {
      if (!res) {
        if (!req) res = handleRequestError()
        else res = handleFetchError(e)
      } else return handleResponseError(e, outgoing)
    }
    try {
      return await responseViaResponseObject(res, outgoing)
    } catch (e) {
      return handleResponseError(e, outgoing)
    }
  }
}
