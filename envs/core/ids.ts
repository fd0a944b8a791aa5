import { hash } from 'node:crypto'
import { stmt, type Db } from './db.ts'
import { getMeta, nowMs, setMeta } from './clock.ts'
import { seedingBump, seedingMemo, type BumpedColumn } from './seeding-memo.ts'

// Deterministic ids. Each id family has a counter in world_counters; the visible id is derived from
// (world salt, family, counter) so the same seed and the same requests give the same ids, and ids
// still look like the real service's.

// A counter's next value: an UPDATE of the row and a read of it, or the row's insert for a family's first value. Not
// one upsert: an upsert keeps a statement journal even `OR FAIL`, whose end costs what a held world's savepoints
// journaled (db.ts failFastWrites, docs/decisions/0414). The stored bytes are the upsert's: the same in-place
// overwrite, the same new row.
const BUMP = 'UPDATE world_counters SET value = value + 1 WHERE name = ?'
const READ = 'SELECT value FROM world_counters WHERE name = ?'
const FIRST = 'INSERT INTO world_counters (name, value) VALUES (?, 1)'

/** Next value (1, 2, 3, …) of a named counter. */
export function nextCounter(db: Db, family: string): number {
  const memo = seedingMemo(db)
  if (memo) return seedingBump(db, memo, COUNTER, family, () => bump(db, family))
  return bump(db, family)
}

/**
 * `n` consecutive values of a named counter taken at once (one UPDATE and one read, not `n` bumps); returns the
 * first. While a seed is written the counter is memoised (seeding-memo.ts): values are then taken one by one.
 */
export function reserveCounter(db: Db, family: string, n: number): number {
  if (n <= 1 || seedingMemo(db)) {
    const first = nextCounter(db, family)
    for (let i = 1; i < n; i++) nextCounter(db, family)
    return first
  }
  if (stmt(db, BUMP_BY).run(n, family).changes === 0) {
    stmt(db, FIRST).run(family)
    stmt(db, BUMP_BY).run(n - 1, family)
    return 1
  }
  return (stmt(db, READ).pluck(true).get(family) as number) - n + 1
}
const BUMP_BY = 'UPDATE world_counters SET value = value + ? WHERE name = ?'

function bump(db: Db, family: string): number {
  if (stmt(db, BUMP).run(family).changes === 0) {
    stmt(db, FIRST).run(family)
    return 1
  }
  // The value alone (pluck): no row object made per id.
  return stmt(db, READ).pluck(true).get(family) as number
}
const COUNTER: BumpedColumn = {
  table: 'world_counters',
  overwrite: 'UPDATE world_counters SET value = ? WHERE name = ?',
  rows: 'SELECT name, value FROM world_counters',
  insert: 'INSERT INTO world_counters (name, value) VALUES (?, 1)',
}

function digest(db: Db, family: string, n: number): Buffer {
  const salt = getMeta(db, 'id_salt') ?? ''
  return hash('sha256', `${salt}\u0000${family}\u0000${n}`, 'buffer')
}

/** `length` characters from `alphabet` (ASCII), derived from the family's next counter value. */
export function opaqueId(db: Db, family: string, length: number, alphabet: string): string {
  const n = nextCounter(db, family)
  let bytes = digest(db, family, n)
  // The characters are written into one buffer, then read as one string (not a new string per character added).
  const chars = Buffer.allocUnsafe(length)
  let at = 0
  let round = 0
  for (;;) {
    for (let i = 0; i < bytes.length; i++) {
      if (at >= length) return chars.toString('latin1', 0, at)
      chars[at++] = alphabet.charCodeAt(bytes[i]! % alphabet.length)
    }
    if (at >= length) return chars.toString('latin1', 0, at)
    // One-shot hashes (about half the CPU of createHash): the digest of the same bytes.
    bytes = hash('sha256', Buffer.concat([bytes, Buffer.from(String(++round))]), 'buffer')
  }
}

const HEX = '0123456789abcdef'
const BASE32HEX = '0123456789abcdefghijklmnopqrstuv'
const URLSAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const SLACK = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

/** Gmail message/thread id: 16 lowercase hex digits that grow with time, like the real ones. */
export function gmailId(db: Db, family = 'gmail.message', atMs?: number): string {
  const n = nextCounter(db, family)
  return gmailIdOf(Math.max(0, Math.trunc(atMs ?? nowMs(db))), n)
}

/** `(ms << 20) | (n & 0xfffff)` as 16 hex digits: the low 20 bits are the last five digits, so no BigInt is needed. */
export function gmailIdOf(ms: number, n: number): string {
  const hex = `${ms === 0 ? '' : ms.toString(16)}${(n & 0xfffff).toString(16).padStart(5, '0')}`
  return hex.padStart(16, '0').slice(-16)
}

/** Drive file id: 33 characters of the URL-safe alphabet, starting with `1`. */
export function driveId(db: Db, family = 'drive.file'): string {
  return `1${opaqueId(db, family, 32, URLSAFE)}`
}

/** Calendar event id: 26 characters of base32hex (lowercase a–v, 0–9). */
export function calendarEventId(db: Db, family = 'calendar.event'): string {
  return opaqueId(db, family, 26, BASE32HEX)
}

/** Slack object id: a type letter (`C`, `G`, `D`, `U`, `B`, `F`, `T`, …) and 10 uppercase characters. */
export function slackId(db: Db, prefix: string): string {
  return `${prefix}${opaqueId(db, `slack.${prefix}`, 10, SLACK)}`
}

/** Hex string of a given length (etags, revision ids, history-free opaque values). */
export function hexId(db: Db, family: string, length: number): string {
  return opaqueId(db, family, length, HEX)
}

/** URL-safe opaque id of a given length. */
export function urlSafeId(db: Db, family: string, length: number): string {
  return opaqueId(db, family, length, URLSAFE)
}

/**
 * Slack message timestamp (`"1767225600.000100"`): seconds and microseconds from the world clock,
 * strictly increasing within the world even when several messages share one clock reading. `atMs` dates a message
 * that went out at an earlier moment of a clock jump (a scheduled message at its post_at): never before the last.
 */
export function slackTs(db: Db, atMs = nowMs(db)): string {
  const last = BigInt(getMeta(db, 'slack_ts_last_us') ?? '0')
  let us = BigInt(atMs) * 1000n
  if (us <= last) us = last + 1n
  setMeta(db, 'slack_ts_last_us', us.toString())
  const seconds = us / 1_000_000n
  const micros = (us % 1_000_000n).toString().padStart(6, '0')
  return `${seconds}.${micros}`
}
