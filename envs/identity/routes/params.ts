import type { Context } from 'hono'

/** Query parameters merged with a form or JSON body (OAuth endpoints take either). */
export async function oauthParams(c: Context): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const [k, v] of new URL(c.req.url).searchParams) out[k] = v
  // tokeninfo also takes the token as a bearer (google-auth-library sends it so).
  const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1]
  if (bearer && out.access_token === undefined) out.access_token = bearer
  if (c.req.method !== 'POST') return out
  const type = (c.req.header('content-type') ?? '').toLowerCase()
  try {
    if (type.includes('json')) {
      const body = (await c.req.json()) as unknown
      if (body && typeof body === 'object') {
        for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v
      }
    } else if (type.includes('x-www-form-urlencoded') || type.includes('multipart/form-data')) {
      const body = await c.req.parseBody()
      for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v
    }
  } catch {
    // An unreadable body carries no parameters; the endpoint then reports what is missing.
  }
  return out
}

/** Client credentials from HTTP Basic authentication, if the request carries them. */
export function basicAuth(c: Context): { id: string; secret: string } | undefined {
  const m = /^Basic\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')
  if (!m) return undefined
  const text = Buffer.from(m[1]!, 'base64').toString('utf8')
  const i = text.indexOf(':')
  if (i < 0) return undefined
  // Form-encoded per RFC 6749 §2.3.1; malformed escapes make no credentials (invalid_client), never a 500.
  try {
    return { id: decodeURIComponent(text.slice(0, i)), secret: decodeURIComponent(text.slice(i + 1)) }
  } catch {
    return undefined
  }
}

/** OAuth's JSON error body (`{error, error_description}`), as Google's token endpoint answers it. */
export function oauthError(c: Context, status: 400 | 401 | 403, error: string, description: string) {
  return c.json({ error, error_description: description }, status)
}
