import { createHash } from 'node:crypto'
import { getMeta } from '../core/clock.ts'
import type { Db } from '../core/db.ts'

/** A user's numeric Google account id (21 digits, stable per seed): the ID token's `sub` and Directory's `id`. */
export function googleUserId(db: Db, userId: string): string {
  const salt = getMeta(db, 'id_salt') ?? ''
  const h = createHash('sha256').update(`${salt}\u0000google-user\u0000${userId}`).digest()
  return `1${(h.readBigUInt64BE(0) % 10n ** 20n).toString().padStart(20, '0')}`
}

/** The workspace's customer id (`C0` + 7 characters), stable per seed. */
export function customerId(db: Db): string {
  const salt = getMeta(db, 'id_salt') ?? ''
  const h = createHash('sha256').update(`${salt}\u0000customer`).digest()
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz'
  return `C0${[...h.subarray(0, 7)].map((b) => alphabet[b % 36]).join('')}`
}
