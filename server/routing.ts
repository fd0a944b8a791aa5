import { worldIdOfToken } from '../envs/core/tokens.ts'
import { jsonShapeFault } from '../envs/core/json-width.ts'
import { worldOfCredential } from '../envs/identity/store/oauth.ts'

/** Deepest JSON a routed message may hold: server/app.ts LIMITS.messageDepth (not imported: the front stays small). */
const MESSAGE_DEPTH = 128

// Multi-worker routing. Every world (and the gym episode living in it, whose id is the world id) is served by one
// worker; the routing key is the world id, carried in every token (ya29.<world>.…, xox?-<world>-…) and in control
// plane paths (/worlds/<id>, /gym/episodes/<id>). workerOf() is nginx's `hash $key;` choice among N equal upstreams,
// so nginx, the built-in front (server/workers.ts) and a worker deciding which ids it may create all agree.

const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c
})

/** CRC-32 (IEEE) of the key's UTF-8 bytes, as nginx's ngx_crc32 computes it. */
export function crc32(key: string): number {
  let c = -1
  for (const byte of Buffer.from(key, 'utf8')) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8)
  return (c ^ -1) >>> 0
}

/** The worker of `key` among `n`: ((crc32 >> 16) & 0x7fff) % n, nginx's first pick for `hash $key;`. */
export function workerOf(key: string, n: number): number {
  return ((crc32(key) >>> 16) & 0x7fff) % n
}

const WORLD_PATH = /^\/(?:worlds|gym\/episodes)\/([a-z0-9_]{1,40})(?:\/|$)/

/**
 * The routing key of a request, when it names one: an `X-Wsgym-World` header (what a proxy that cannot read bodies
 * needs on worlds.create), the world id of its bearer token (or Slack `token` argument in
 * the query or a form/JSON body), of a /worlds/<id> or /gym/episodes/<id> path, or a JSON body's `id` (worlds.create)
 * or `episode_id` (OpenEnv /step). Undefined when the request names no world (the front picks a worker).
 */
type Headers = Record<string, string | string[] | undefined>

/** OAuth parameters that carry a world: codes, refresh and access tokens (the token endpoint has no bearer). */
/** Token endpoints, where a service account's JWT-bearer request names its world with `world`. */
const TOKEN_PATHS = new Set(['/token', '/o/oauth2/token', '/oauth2/v4/token'])
const OAUTH_KEYS = ['code', 'refresh_token', 'token', 'access_token'] as const
const oauthWorld = (v: string | null | undefined) => (v ? (worldIdOfToken(v) ?? worldOfCredential(v)) : undefined)
function fromOAuthParams(get: (k: string) => string | null | undefined): string | undefined {
  for (const k of OAUTH_KEYS) {
    const id = oauthWorld(get(k))
    if (id) return id
  }
  return undefined
}

export function routingKeyOf(path: string, headers: Headers, body?: Buffer): string | undefined {
  const named = headers['x-wsgym-world']
  if (typeof named === 'string' && /^[a-z0-9_]{1,40}$/.test(named)) return named
  const auth = headers.authorization
  const bearer = typeof auth === 'string' ? /^Bearer\s+(\S+)/i.exec(auth)?.[1] : undefined
  const fromToken = bearer ? worldIdOfToken(bearer) : undefined
  if (fromToken) return fromToken
  const [pathname = '', query = ''] = path.split('?', 2)
  const inPath = WORLD_PATH.exec(pathname)?.[1]
  if (inPath) return inPath
  const params = new URLSearchParams(query)
  const queryToken = params.get('token')
  if (queryToken && worldIdOfToken(queryToken)) return worldIdOfToken(queryToken)
  // OAuth endpoints: a code or token in the query, or the world whose key set `/oauth2/v3/certs` asks for.
  const fromQuery = fromOAuthParams((k) => params.get(k))
  if (fromQuery) return fromQuery
  const certsOf = pathname === '/oauth2/v3/certs' || TOKEN_PATHS.has(pathname) ? params.get('world') : null
  if (certsOf && /^[a-z0-9_]{1,40}$/.test(certsOf)) return certsOf
  if (!body?.length) return undefined
  const type = String(headers['content-type'] ?? '')
  if (type.startsWith('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(body.toString('utf8'))
    const token = form.get('token')
    const named = TOKEN_PATHS.has(pathname) ? form.get('world') : null
    if (named && /^[a-z0-9_]{1,40}$/.test(named)) return named
    return (token ? worldIdOfToken(token) : undefined) ?? fromOAuthParams((k) => form.get(k))
  }
  if (type.startsWith('application/json')) {
    const text = body.toString('utf8')
    // Too deep for any message (the worker refuses it): not parsed here, where it would hold the front (0401).
    if (jsonShapeFault(text, MESSAGE_DEPTH, Infinity)) return undefined
    try {
      const json = JSON.parse(text) as Record<string, unknown>
      for (const k of ['token', 'id', 'episode_id', 'episodeId']) {
        const v = json?.[k]
        if (typeof v !== 'string') continue
        const id = k === 'token' ? worldIdOfToken(v) : v
        if (id && /^[a-z0-9_]{1,40}$/.test(id)) return id
      }
      const oauth = fromOAuthParams((k) => (typeof json?.[k] === 'string' ? (json[k] as string) : undefined))
      if (oauth) return oauth
    } catch {
      // not JSON: the worker answers the error
    }
  }
  return undefined
}
