import { GoogleApiError } from '../../core/errors/google.ts'

// Sync tokens: opaque, bound to one feed (a calendar's events, its ACL, a user's list) and a position in the
// change sequence. Any token that does not decode, belongs to another feed, or names a position past the world's
// latest change (a token no server ever issued, or one from a world since rolled back) needs a full sync (410).
// Deviation: tokens do not expire with age (Google's do, at a time it does not document).

export const encodeSync = (feed: string, seq: number) => Buffer.from(`${seq}\u0000${feed}`).toString('base64url')

export const fullSyncRequired = () =>
  new GoogleApiError('GONE', 'fullSyncRequired', 'Sync token is no longer valid, a full sync is required.', {}, 410)

export function decodeSync(token: string, feed: string, latest: number): number {
  const text = /^[A-Za-z0-9_-]+$/.test(token) ? Buffer.from(token, 'base64url').toString('utf8') : ''
  const [seq, f] = text.split('\u0000')
  if (f !== feed || !/^\d+$/.test(seq ?? '') || Number(seq) > latest) throw fullSyncRequired()
  return Number(seq)
}
