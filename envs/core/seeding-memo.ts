import type Database from 'better-sqlite3'
import type { Db } from './db.ts'

/**
 * What building a world keeps in JS while it seeds (server/seeding.ts, docs/decisions/0310): the `world_meta` rows,
 * read once, and the integer columns bumped by one (id counters, Gmail history ids), written through this memo on
 * that one connection and only inside the seeding transaction. Nothing else writes these meanwhile.
 *
 * Writes that only overwrite a row with a value of the same stored size are deferred: SQLite overwrites such a cell
 * in place, leaving no other trace in the page, so only the last one matters. Every write that can change a page's
 * layout (a new row, a value of another size) first flushes the pending ones of its table and then runs as before,
 * so every page goes through the same layouts and the world's bytes are the same as without the memo.
 */
export type SeedingMemo = {
  meta: Map<string, string>
  pendingMeta: Set<string>
  /** Integer columns bumped by one (id counters, Gmail history ids), by table. */
  bumped: Map<string, Bumped>
}

/**
 * One table's bumped values (by row key) as the seed sees them, and the keys whose value is not written yet. With
 * `complete`, `values` holds every row of the table, so a key it lacks has no row.
 */
type Bumped = { values: Map<string, number>; pending: Set<string>; overwrite: string; complete: boolean }

/**
 * A bumped column: its table and the statement that overwrites the value (`UPDATE t SET col = ? WHERE key = ?`).
 * `rows` (`SELECT key, col FROM t`) and `insert` (`INSERT INTO t (key, col) VALUES (?, 1)`), when given, let a key
 * with no row be inserted by a plain INSERT: what the bumping upsert does for it, without the conflict check and
 * RETURNING.
 */
export type BumpedColumn = { table: string; overwrite: string; rows?: string; insert?: string }

const memos = new WeakMap<Database.Database, SeedingMemo>()

export function seedingMemo(db: Db): SeedingMemo | undefined {
  return memos.get(db.$client)
}

/** Runs `fn` (a world's seeding, inside its transaction) with the memo on, and writes what is pending after it. */
export function withSeedingMemo<T>(db: Db, fn: () => T): T {
  const client = db.$client
  if (memos.has(client)) return fn()
  const meta = new Map(client.prepare('SELECT key, value FROM world_meta').raw().all() as [string, string][])
  const memo: SeedingMemo = { meta, pendingMeta: new Set(), bumped: new Map() }
  memos.set(client, memo)
  try {
    const out = fn()
    flushMeta(db, memo)
    for (const table of memo.bumped.keys()) flushBumped(db, memo, table)
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

/**
 * A bump by one of an integer column while seeding: when the row's value is known and keeps its stored size, the new
 * value waits; otherwise the table's waiting values are written and `write` (the statement used without the memo,
 * returning the new value) runs.
 */
export function seedingBump(db: Db, memo: SeedingMemo, column: BumpedColumn, key: string, write: () => number): number {
  let t = memo.bumped.get(column.table)
  if (!t) memo.bumped.set(column.table, (t = bumpedTable(db, column)))
  const current = t.values.get(key)
  if (current !== undefined && storedIntSize(current + 1) === storedIntSize(current)) {
    t.values.set(key, current + 1)
    t.pending.add(key)
    return current + 1
  }
  // Waiting values go first even where this write is elsewhere in the table: SQLite leaves the bytes of moved and
  // freed cells behind in a page's unused space, so a value written later would leave an older copy there.
  flushBumped(db, memo, column.table)
  if (current === undefined && t.complete) {
    db.$client.prepare(column.insert!).run(key)
    t.values.set(key, 1)
    return 1
  }
  const value = write()
  t.values.set(key, value)
  return value
}

function bumpedTable(db: Db, column: BumpedColumn): Bumped {
  const complete = column.rows !== undefined && column.insert !== undefined
  const values = new Map(complete ? (db.$client.prepare(column.rows!).raw().all() as [string, number][]) : [])
  return { values, pending: new Set(), overwrite: column.overwrite, complete }
}

/** The value a seed sees for a bumped row (undefined when it was not bumped under the memo). */
export function seedingBumpedValue(memo: SeedingMemo, table: string, key: string): number | undefined {
  return memo.bumped.get(table)?.values.get(key)
}

/** Writes a table's waiting values: before any other write that may change the table's pages, and at the end. */
export function flushBumped(db: Db, memo: SeedingMemo, table: string): void {
  const t = memo.bumped.get(table)
  if (!t?.pending.size) return
  const overwrite = db.$client.prepare(t.overwrite)
  for (const key of t.pending) overwrite.run(t.values.get(key), key)
  t.pending.clear()
}

/**
 * Bytes of an integer in an SQLite record (serial types 8/9 hold 0 and 1 in none). Only equality matters: two values
 * of one class take the same room; telling classes apart more finely than SQLite does would only cost speed.
 */
export function storedIntSize(v: number): number {
  if (v === 0 || v === 1) return 0
  const a = v < 0 ? -v - 1 : v
  if (a <= 0x7f) return 1
  if (a <= 0x7fff) return 2
  if (a <= 0x7fffff) return 3
  if (a <= 0x7fffffff) return 4
  if (a <= 0x7fffffffffff) return 6
  return 8
}
