import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Context } from 'hono'

export const COOKIE = 'wsgym_ui'

/**
 * The session cookie's value: an HMAC of a fixed label under the admin token, so the cookie never carries the
 * token itself and changing the token signs every browser out.
 */
export function sessionValue(adminToken: string): string {
  return createHmac('sha256', adminToken).update('workspace-gym inspector session v1').digest('base64url')
}

/** Constant-time string equality (length is not secret: both sides are fixed-length or the admin token's). */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

function cookieOf(c: Context, name: string): string | undefined {
  for (const part of (c.req.header('cookie') ?? '').split(';')) {
    const i = part.indexOf('=')
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim()
  }
  return undefined
}

/** Signed in by cookie, or by the admin token as a bearer (scripts, curl). */
export function isSignedIn(c: Context, adminToken: string): boolean {
  const cookie = cookieOf(c, COOKIE)
  if (cookie !== undefined && sameSecret(cookie, sessionValue(adminToken))) return true
  const m = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')
  return !!m && sameSecret(m[1]!, adminToken)
}

export function setSessionCookie(c: Context, adminToken: string): void {
  c.header('set-cookie', `${COOKIE}=${sessionValue(adminToken)}; Path=/ui; HttpOnly; SameSite=Strict`)
}

export function clearSessionCookie(c: Context): void {
  c.header('set-cookie', `${COOKIE}=; Path=/ui; HttpOnly; SameSite=Strict; Max-Age=0`)
}

/**
 * A state-changing request must come from the inspector's own pages: SameSite=Strict keeps the cookie off
 * cross-site requests, and a present Origin header must name this host.
 */
export function sameOrigin(c: Context): boolean {
  const origin = c.req.header('origin')
  if (!origin || origin === 'null') return origin === undefined
  try {
    return new URL(origin).host === (c.req.header('host') ?? new URL(c.req.url).host)
  } catch {
    return false
  }
}
