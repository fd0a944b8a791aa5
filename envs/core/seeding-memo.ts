import type Database from 'better-sqlite3'
import type { Db } from './db.ts'

/**
 * What building a world keeps in JS while it seeds (server/seeding.ts, docs/decisions/0310): the `world_meta` rows
 * and the id counters, read once and then written through this memo, on that one connection and only inside the
 * seeding transaction. Nothing else writes these tables meanwhile, so the memo is the table.
 *
 * Writes that only overwrite a row with a value of the same stored size are deferred: SQLite overwrites such a cell
 * in place, leaving no other trace in the page, so only the last one matters. Every write that can change a page's
 * layout (a new row, a value of another size) first flushes the pending ones of its table and then runs as before,
 * so every page goes through the same layouts and the world's bytes are the same as without the memo.
 */
export type SeedingMemo = {
  meta: Map<string, string>
  pendingMeta: Set<string>
  counters: Map<string, number>
  pendingCounters: Set<string>
}

const memos = new WeakMap<Database.Database, SeedingMemo>()

export function seedingMemo(db: Db): SeedingMemo | undefined {
  return memos.get(db.$client)
}

/** Runs `fn` (a world's seeding, inside its transaction) with the memo on, and writes what is pending after it. */
export function withSeedingMemo<T>(db: Db, fn: () => T): T {
  const client = db.$client
  if (memos.has(client)) return fn()
  const meta = new Map(client.prepare('SELECT key, value FROM world_meta').raw().all() as [string, string][])
  const rows = client.prepare('SELECT name, value FROM world_counters').raw().all() as [string, number][]
  const memo: SeedingMemo = {
    meta,
    pendingMeta: new Set(),
    counters: new Map(rows),
    pendingCounters: new Set(),
  }
  memos.set(client, memo)
  try {
    const out = fn()
    flushMeta(db, memo)
    flushCounters(db, memo)
    return out
  } finally {
    memos.delete(client)
  }
}

const OVERWRITE_META = 'UPDATE world_meta SET value = ? WHERE key = ?'

/**
 * setMeta while seeding: true when the write waits (a same-size overwrite). Otherwise the waiting writes are done
 * and the caller writes this one as without the memo.
 */
export function seedingDefersMeta(db: Db, memo: SeedingMemo, key: string, value: string): boolean {
  const old = memo.meta.get(key)
  memo.meta.set(key, value)
  if (old !== undefined && Buffer.byteLength(old) === Buffer.byteLength(value)) {
    memo.pendingMeta.add(key)
    return true
  }
  flushMeta(db, memo)
  return false
}

function flushMeta(db: Db, memo: SeedingMemo) {
  if (!memo.pendingMeta.size) return
  const overwrite = db.$client.prepare(OVERWRITE_META)
  for (const key of memo.pendingMeta) overwrite.run(memo.meta.get(key), key)
  memo.pendingMeta.clear()
}

const BUMP =
  'INSERT INTO world_counters (name, value) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1 RETURNING value'
const OVERWRITE_COUNTER = 'UPDATE world_counters SET value = ? WHERE name = ?'

/** nextCounter while seeding: bumps that keep the value's stored size wait (see SeedingMemo). */
export function seedingNextCounter(db: Db, memo: SeedingMemo, family: string): number {
  const current = memo.counters.get(family)
  if (current !== undefined && storedIntSize(current + 1) === storedIntSize(current)) {
    memo.counters.set(family, current + 1)
    memo.pendingCounters.add(family)
    return current + 1
  }
  // A new row or a value of another size: the table is brought up to date, then bumped as without the memo.
  flushCounters(db, memo)
  const value = (db.$client.prepare(BUMP).get(family) as { value: number }).value
  memo.counters.set(family, value)
  return value
}

function flushCounters(db: Db, memo: SeedingMemo) {
  if (!memo.pendingCounters.size) return
  const overwrite = db.$client.prepare(OVERWRITE_COUNTER)
  for (const name of memo.pendingCounters) overwrite.run(memo.counters.get(name), name)
  memo.pendingCounters.clear()
}

/**
 * Bytes of an integer in an SQLite record (serial types 8/9 hold 0 and 1 in none). Only equality matters: two values
 * of one class take the same room; telling classes apart more finely than SQLite does would only cost speed.
 */
function storedIntSize(v: number): number {
  if (v === 0 || v === 1) return 0
  const a = v < 0 ? -v - 1 : v
  if (a <= 0x7f) return 1
  if (a <= 0x7fff) return 2
  if (a <= 0x7fffff) return 3
  if (a <= 0x7fffffff) return 4
  if (a <= 0x7fffffffffff) return 6
  return 8
}
