import type { IncomingMessage } from 'node:http'

/** Methods a Google POST may name in `X-HTTP-Method-Override`. */
const OVERRIDABLE = new Set(['PATCH', 'PUT', 'DELETE'])

/**
 * Google's front ends take a POST carrying `X-HTTP-Method-Override: PATCH` (or PUT, DELETE) as that method: the
 * official Java client sends every PATCH so, since `HttpURLConnection` cannot send one. The request `fetch` is
 * about to dispatch, with its method replaced when it is such a POST to a Google path (Slack's `/api/` is not).
 */
export function overrideMethod(req: Request, env: unknown): Request {
  // A listener request (@hono/node-server) is read through its Node request: `req.headers` would build a Headers.
  const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming
  const method = incoming ? incoming.method : req.method
  if (method === 'GET') {
    const path = incoming ? (incoming.url ?? '') : req.url
    return path.includes('/download/drive/') ? downloadAlias(req) : req
  }
  if (method !== 'POST') return req
  const header = incoming ? incoming.headers['x-http-method-override'] : req.headers.get('x-http-method-override')
  const named = typeof header === 'string' ? header.trim().toUpperCase() : undefined
  if (!named || !OVERRIDABLE.has(named)) return req
  if (new URL(req.url).pathname.startsWith('/api/')) return req
  // The lazy listener request reads its method from the Node request: set it there, keeping the body read
  // straight from the socket.
  if (incoming && req.method === 'POST') {
    incoming.method = named
    if (req.method === named) return req
  }
  return new Request(req, { method: named })
}

/**
 * Drive's media downloads (files.get, files.export and revisions.get with alt=media) are also served under
 * `/download/drive/v3/...` (Discovery's `useMediaDownloadService`; the Java client downloads there): such a GET is
 * answered as the same path without `/download`.
 */
function downloadAlias(req: Request): Request {
  const url = new URL(req.url)
  if (!url.pathname.startsWith('/download/drive/')) return req
  url.pathname = url.pathname.slice('/download'.length)
  return new Request(url, req)
}
