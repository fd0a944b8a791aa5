import { GoogleApiError } from '../../core/errors/google.ts'

// Sync tokens: opaque, bound to one feed (a calendar's events, its ACL, a user's list) and a position in the
// change sequence. Any token that does not decode, or belongs to another feed, needs a full sync (410).

export const encodeSync = (feed: string, seq: number) => Buffer.from(`${seq}\u0000${feed}`).toString('base64url')

export const fullSyncRequired = () =>
  new GoogleApiError('GONE', 'fullSyncRequired', 'Sync token is no longer valid, a full sync is required.', {}, 410)

export function decodeSync(token: string, feed: string): number {
  const text = /^[A-Za-z0-9_-]+$/.test(token) ? Buffer.from(token, 'base64url').toString('utf8') : ''
  const [seq, f] = text.split('\u0000')
  if (f !== feed || !/^\d+$/.test(seq ?? '')) throw fullSyncRequired()
  return Number(seq)
}
