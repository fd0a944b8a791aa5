import type { Context } from 'hono'
import type { OpenAPIHono } from '@hono/zod-openapi'
import type { WorldEnv } from '../envs/core/http.ts'
import { badRequest, notFound } from '../envs/core/errors/google.ts'
import { nextTurn } from '../envs/core/turns.ts'

/** Google allows at most this many calls in one batch request. */
export const MAX_BATCH_PARTS = 100

/**
 * The calls each batch endpoint takes: an API's batch endpoint (its discovery document's `batchPath` on its root URL)
 * serves that API only, since Google retired the global batch endpoint (2020) that mixed APIs. `/batch` is the
 * batchPath of Gmail, Docs and Data Transfer, each on its own host (gmail.googleapis.com/batch, …); one origin serves
 * all three here. A call to another API gets a 404 part, as the API's own server answers a path it does not serve.
 * Deviation: real Google's answer to such a part is not recorded; on one origin `/batch` cannot tell the three
 * hosts apart.
 */
const BATCH_APIS: Readonly<Record<string, readonly string[]>> = {
  '/batch/gmail/v1': ['/gmail/v1/'],
  '/batch/drive/v3': ['/drive/v3/'],
  '/batch/calendar/v3': ['/calendar/v3/'],
  '/batch/admin/directory_v1': ['/admin/directory/v1/'],
  '/batch': ['/gmail/v1/', '/v1/documents', '/admin/datatransfer/v1/'],
}

type InnerRequest = { contentId: string | undefined; method: string; target: string; headers: Headers; body: string }

/**
 * Google's batch endpoint (`POST /batch`, `/batch/gmail/v1`, `/batch/drive/v3`, …): a multipart/mixed
 * body of `application/http` parts, each one API call. Each call is run through the same app (so it
 * is authorised, clock-ticked and action-logged like any other), and the answers come back as a
 * multipart/mixed response in the same order.
 * @see https://developers.google.com/gmail/api/guides/batch
 */
export async function handleGoogleBatch(c: Context<WorldEnv>, app: OpenAPIHono<WorldEnv>) {
  const apis = Object.hasOwn(BATCH_APIS, c.req.path) ? BATCH_APIS[c.req.path]! : undefined
  if (!apis) throw notFound('The requested URL was not found on this server.', 'notFound')
  if (c.req.method !== 'POST') throw badRequest('Batch requests must use POST.')
  const type = c.req.header('content-type') ?? ''
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]
  if (!/^multipart\/mixed/i.test(type) || !boundary)
    throw badRequest('Batch requests need a multipart/mixed body with a boundary.')
  // Counted before any part is parsed: an 8 MiB body holds half a million tiny parts.
  const raw = splitMultipart(await c.req.text(), boundary)
  if (raw.length === 0) throw badRequest('A batch request needs at least one part.')
  if (raw.length > MAX_BATCH_PARTS) throw badRequest(`A batch request may contain at most ${MAX_BATCH_PARTS} calls.`)
  const parts = raw.map(parsePart)

  const origin = new URL(c.req.url).origin
  const auth = c.req.header('authorization')
  const responseBoundary = `batch_${boundary.replace(/[^A-Za-z0-9_]/g, '').slice(0, 40) || 'response'}`
  /** One call of the batch, run through the app: its part of the answer. */
  const run = async (part: InnerRequest): Promise<string> => {
    const id = part.contentId ? `Content-ID: <response-${part.contentId.replace(/^<|>$/g, '')}>\r\n` : ''
    const partHead = `--${responseBoundary}\r\nContent-Type: application/http\r\n${id}\r\n`
    if (!BATCH_METHODS.has(part.method)) return partHead + unsupportedMethodPart(part.method)
    try {
      return partHead + (await answer(part))
    } catch (err) {
      // Whatever a call throws past the app's error handler answers its part, so the stream is never cut off.
      console.error('unhandled error in batch part', part.method, part.target.slice(0, 200), err)
      return partHead + internalErrorPart()
    }
  }
  const answer = async (part: InnerRequest): Promise<string> => {
    const headers = new Headers(part.headers)
    if (auth && !headers.has('authorization')) headers.set('authorization', auth)
    // An absolute target's origin is ignored; parsePart checked that a URL can be made of it.
    const url = new URL(part.target, origin)
    // The path as resolved (dot segments gone), the one the call would reach.
    if (!apis.some((p) => url.pathname.startsWith(p))) return notFoundPart()
    const res = await app.fetch(
      new Request(`${origin}${url.pathname}${url.search}`, {
        method: part.method,
        headers,
        body: ['GET', 'HEAD', 'DELETE'].includes(part.method) || part.body === '' ? undefined : part.body,
      }),
    )
    const text = await res.text()
    return (
      `HTTP/1.1 ${res.status} ${res.statusText || statusText(res.status)}\r\n` +
      `Content-Type: ${res.headers.get('content-type') ?? 'application/json; charset=UTF-8'}\r\n\r\n${text}\r\n`
    )
  }
  // The calls run one after another, each in its own turn of the event loop (a batch of 100 heavy calls never
  // holds other worlds for all of them at once), and each as the answer is read: a part is encoded and sent
  // before the next call runs, so the answer is never held whole (100 listings of a megabyte each would be a
  // 100 MB string, and its garbage collection one long pause). A client that goes away still gets every call
  // run, in order, as a batch Google accepted would.
  const encoder = new TextEncoder()
  let next = 0
  let chain: Promise<unknown> = Promise.resolve()
  const runNext = () => {
    const part = parts[next++]!
    const first = next === 1
    const done = chain.then(async () => {
      if (!first) await nextTurn()
      return run(part)
    })
    chain = done
    return done
  }
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next >= parts.length) {
        controller.enqueue(encoder.encode(`--${responseBoundary}--\r\n`))
        controller.close()
        return
      }
      controller.enqueue(encoder.encode(await runNext()))
    },
    async cancel() {
      while (next < parts.length) await runNext()
    },
  })
  return c.body(body, 200, { 'content-type': `multipart/mixed; boundary=${responseBoundary}` })
}

function splitMultipart(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`
  return body
    .split(delimiter)
    .slice(1)
    .filter((p) => !p.startsWith('--'))
    .map((p) => p.replace(/^\r?\n/, '').replace(/\r?\n$/, ''))
}

function splitHead(text: string): [string, string] {
  const m = /\r?\n\r?\n/.exec(text)
  if (!m) return [text, '']
  return [text.slice(0, m.index), text.slice(m.index + m[0].length)]
}

/** Methods a batch part may use; anything else (TRACE, CONNECT, made-up verbs) gets a 400 part. */
const BATCH_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'])

function unsupportedMethodPart(method: string): string {
  const message = `Method ${method} is not supported in a batch request.`
  const errors = [{ message, domain: 'global', reason: 'badRequest' }]
  const body = JSON.stringify({ error: { code: 400, message, errors, status: 'INVALID_ARGUMENT' } }, null, 2)
  return `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${body}\r\n`
}

function internalErrorPart(): string {
  const message = 'Internal error encountered.'
  const errors = [{ message, domain: 'global', reason: 'backendError' }]
  const body = JSON.stringify({ error: { code: 500, message, errors, status: 'INTERNAL' } }, null, 2)
  return `HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${body}\r\n`
}

function notFoundPart(): string {
  const body = JSON.stringify(notFound('The requested URL was not found on this server.').toBody(), null, 2)
  return `HTTP/1.1 404 Not Found\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${body}\r\n`
}

/**
 * Header lines; folded continuation lines (starting with a space or tab) join the line before (RFC 5322 §2.2.3). A
 * line HTTP cannot carry (a name with a space, a NUL or a character past U+00FF) makes the batch a 400, as a
 * malformed request line does: before, the Headers class threw and the whole batch was a 500.
 */
function parseHeaders(block: string): Headers {
  const headers = new Headers()
  for (const line of block.replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    const i = line.indexOf(':')
    if (i <= 0) continue
    try {
      headers.append(line.slice(0, i).trim(), line.slice(i + 1).trim())
    } catch {
      throw badRequest(`Malformed batch part header: ${line.slice(0, 100)}`)
    }
  }
  return headers
}

function parsePart(raw: string): InnerRequest {
  const [outerHead, inner] = splitHead(raw)
  const outer = parseHeaders(outerHead)
  const [requestHead, body] = splitHead(inner)
  const [requestLine = '', ...headerLines] = requestHead.split(/\r?\n/)
  const m = /^([A-Za-z]+)\s+(\S+)(?:\s+HTTP\/\d(?:\.\d)?)?$/.exec(requestLine.trim())
  // A target no URL can be made of (`http:`, `http://[`) is malformed too: before, its part threw while the answer
  // streamed, and the response was cut off with the parts after it unanswered.
  if (!m || !URL.canParse(m[2]!, 'http://127.0.0.1/'))
    throw badRequest(`Malformed batch part request line: ${requestLine.slice(0, 100)}`)
  return {
    contentId: outer.get('content-id') ?? undefined,
    method: m[1]!,
    target: m[2]!,
    headers: parseHeaders(headerLines.join('\n')),
    body: body.trim(),
  }
}

function statusText(status: number): string {
  return (
    (
      {
        200: 'OK',
        204: 'No Content',
        400: 'Bad Request',
        401: 'Unauthorized',
        403: 'Forbidden',
        404: 'Not Found',
        409: 'Conflict',
        500: 'Internal Server Error',
        501: 'Not Implemented',
      } as Record<number, string>
    )[status] ?? ''
  )
}
