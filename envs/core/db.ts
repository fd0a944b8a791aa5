import type Database from 'better-sqlite3'
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'
import { getTableColumns, getTableName, is, SQL } from 'drizzle-orm'
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core'

/**
 * The drizzle handle every store function takes, with the raw connection as `$client` for the few
 * hot paths that use prepared statements. Synchronous: never `await` inside a transaction.
 */
export type Db = BetterSQLite3Database<Record<string, never>> & { $client: Database.Database }

const MAX_STATEMENTS = 1000
const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>()
const prepareOnce = (client: Database.Database, sql: string) =>
  (Object.getPrototypeOf(client) as Database.Database).prepare.call(client, sql)

/**
 * A prepared statement for this connection, compiled once. Preparing costs far more than running,
 * so per-request paths (auth, clock, ids, action log) go through here. The cache dies with the
 * connection (restore swaps connections), so it never outlives the world's bytes. A statement comes
 * back in its default mode (objects, not raw rows or plucked values), whatever its last user chose.
 */
export function stmt(db: Db, sql: string): Database.Statement {
  return cachedPrepare(db.$client, sql)
}

function cachedPrepare(client: Database.Database, sql: string): Database.Statement {
  let cache = statements.get(client)
  if (!cache) statements.set(client, (cache = new Map()))
  let s = cache.get(sql)
  if (!s) {
    // Search paths prepare one statement per query shape; a caller inventing shapes must not grow this forever.
    if (cache.size >= MAX_STATEMENTS) cache.clear()
    cache.set(sql, (s = prepareOnce(client, sql)))
  } else if (s.reader) {
    s.raw(false).pluck(false).expand(false)
  }
  return s
}

/**
 * Makes `client.prepare` (which drizzle calls for every query it runs) return this connection's cached
 * statement for the same SQL text, so a repeated query shape is compiled once per connection, not per call.
 */
export function cacheStatements(client: Database.Database): Database.Database {
  client.prepare = ((sql: string) => cachedPrepare(client, sql)) as Database.Database['prepare']
  return client
}

type Shape = { sql: string; columns: SQLiteColumn[]; keys: string[]; defaults: (() => unknown)[] }
const shapes = new WeakMap<SQLiteTable, Map<string, Shape | null>>()

/**
 * `db.insert(table).values(row).run()` without drizzle's per-call query building: the INSERT text is built once
 * per table and set of given keys, then runs through this connection's cached statement. Values go through each
 * column's own driver mapping (JSON, boolean modes) and absent columns get the same defaults drizzle would give.
 * Tables whose defaults are SQL expressions take drizzle's path.
 */
export function insertRow<T extends SQLiteTable>(db: Db, table: T, row: T['$inferInsert']): Database.RunResult {
  const values = row as Record<string, unknown>
  const given = Object.keys(values).filter((k) => values[k] !== undefined)
  const key = given.join('\0')
  let byKeys = shapes.get(table)
  if (!byKeys) shapes.set(table, (byKeys = new Map()))
  let shape = byKeys.get(key)
  if (shape === undefined) byKeys.set(key, (shape = shapeOf(table, given)))
  if (!shape) return db.insert(table).values(row).run() as Database.RunResult
  const params: unknown[] = []
  for (let i = 0; i < shape.keys.length; i++) {
    const v = values[shape.keys[i]!]
    if (isSql(v)) return db.insert(table).values(row).run() as Database.RunResult
    params.push(v === null ? null : shape.columns[i]!.mapToDriverValue(v))
  }
  for (let i = 0; i < shape.defaults.length; i++) {
    const v = shape.defaults[i]!()
    params.push(v === null ? null : shape.columns[shape.keys.length + i]!.mapToDriverValue(v))
  }
  return stmt(db, shape.sql).run(...params)
}

const isSql = (v: unknown) =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) && is(v, SQL)

function shapeOf(table: SQLiteTable, given: string[]): Shape | null {
  const all = getTableColumns(table) as Record<string, SQLiteColumn>
  if (given.some((k) => !all[k])) return null
  const columns = given.map((k) => all[k]!)
  const defaults: (() => unknown)[] = []
  for (const [k, col] of Object.entries(all)) {
    if (given.includes(k)) continue
    if (col.default !== undefined && col.default !== null) {
      if (is(col.default, SQL)) return null
      const value = col.default
      defaults.push(() => value)
    } else if (col.defaultFn) {
      const fn = col.defaultFn
      if (is(fn(), SQL)) return null
      defaults.push(fn)
    } else if (col.onUpdateFn) {
      return null
    } else continue
    columns.push(col)
  }
  const names = columns.map((c) => `"${c.name}"`).join(', ')
  const sql = `INSERT INTO "${getTableName(table)}" (${names}) VALUES (${columns.map(() => '?').join(', ')})`
  return { sql, columns, keys: given, defaults }
}
