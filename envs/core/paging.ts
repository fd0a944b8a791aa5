import { badRequest } from './errors/google.ts'

/**
 * Opaque page tokens: base64url JSON of whatever a list needs to resume (offset, sort key, filters
 * hash). A token that does not decode is rejected the way Google rejects a bad pageToken.
 */
export function encodePageToken(state: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url')
}

export function decodePageToken<T extends Record<string, unknown>>(token: string | undefined): T | undefined {
  if (!token) return undefined
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'))
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as T
  } catch {
    // fall through
  }
  throw badRequest('Invalid page token.', 'invalid')
}

/** Offset paging over an already-ordered array. */
export function pageOf<T>(items: readonly T[], pageSize: number, token: string | undefined) {
  const start = Number(decodePageToken<{ o: number }>(token)?.o ?? 0)
  if (!Number.isInteger(start) || start < 0) throw badRequest('Invalid page token.', 'invalid')
  const page = items.slice(start, start + pageSize)
  const next = start + pageSize < items.length ? encodePageToken({ o: start + pageSize }) : undefined
  return { page, nextPageToken: next }
}
