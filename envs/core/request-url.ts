// A request's `url` is a serialized URL (a WHATWG Request, or @hono/node-server's request, which stores
// `new URL(…).href`): its path and query can be sliced out of the text instead of parsing it again per request.

/** Where the path of a serialized http(s) URL starts, or -1 when `url` does not look like one. */
function pathStart(url: string): number {
  const scheme = url.indexOf('://')
  return scheme < 0 ? -1 : url.indexOf('/', scheme + 3)
}

/** Where the path ends: the `?` of the query or the `#` of the fragment (neither can appear raw in a path). */
function pathEnd(url: string, from: number): number {
  for (let i = from; i < url.length; i++) {
    const ch = url.charCodeAt(i)
    if (ch === 63 || ch === 35) return i
  }
  return url.length
}

/** `new URL(url).pathname` for a serialized URL. */
export function pathOfUrl(url: string): string {
  const start = pathStart(url)
  if (start < 0) return new URL(url).pathname
  return url.slice(start, pathEnd(url, start))
}

/** `new URL(url).search` for a serialized URL (`?…` without the fragment; empty when the query is). */
export function searchOfUrl(url: string): string {
  const start = pathStart(url)
  if (start < 0) return new URL(url).search
  const end = pathEnd(url, start)
  if (url.charCodeAt(end) !== 63) return ''
  const hash = url.indexOf('#', end)
  const search = hash < 0 ? url.slice(end) : url.slice(end, hash)
  return search === '?' ? '' : search
}

/**
 * The URL a client used, for URLs a response hands back (a resumable session, a download URI): the request's own,
 * with the scheme a TLS-terminating proxy in front names in `X-Forwarded-Proto` (its first value, `http` or `https`).
 * Google's answers are https URLs; without this a client behind such a proxy is sent to plain http.
 */
export function publicRequestUrl(url: string, forwardedProto: string | undefined): URL {
  const out = new URL(url)
  const proto = forwardedProto?.split(',')[0]?.trim().toLowerCase()
  if (proto === 'https' || proto === 'http') out.protocol = `${proto}:`
  return out
}
