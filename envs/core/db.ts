import type Database from 'better-sqlite3'
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'
import { and, eq, getTableColumns, getTableName, is, SQL } from 'drizzle-orm'
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

/** Connections whose INSERTs and UPDATEs are compiled `OR FAIL` (failFastWrites). */
const failFast = new WeakSet<Database.Database>()

/**
 * From now on, this connection's INSERT and UPDATE statements without a conflict clause of their own are compiled
 * `OR FAIL` instead of SQLite's default `OR ABORT`, and the statements compiled so far are compiled again as they
 * are next asked for. For a held world (World.hold), whose every write runs inside its open transaction and a
 * request's savepoint, rolled back whole when a statement fails: the one thing ABORT adds, undoing the failing
 * statement's own earlier rows, is then done by that rollback. What ABORT costs there: a statement that fires a
 * trigger (every write of a held world fires a note trigger, held-notes.ts) and may abort keeps a statement journal,
 * and ending one truncates SQLite's in-memory sub-journal by walking its 1 KiB chunks from the head, so each write
 * cost grew with everything the savepoints below it had journaled: ~58 µs a counter bump in validation, 2.5 µs on a
 * fresh world (docs/decisions/0414). Nothing in the services catches a failed write and goes on writing.
 */
export function failFastWrites(client: Database.Database): void {
  failFast.add(client)
  statements.get(client)?.clear()
}

/** `sql` with `OR FAIL` after a leading INSERT or UPDATE that names no conflict clause (comments kept). */
export function orFail(sql: string): string {
  return sql.replace(/^((?:\s|\/\*[^]*?\*\/)*)(insert|update)(\s+)(?!or\b)/i, '$1$2 OR FAIL$3')
}

/**
 * A prepared statement for this connection, compiled once. Preparing costs far more than running,
 * so per-request paths (auth, clock, ids, action log) go through here. The cache dies with the
 * connection (restore swaps connections), so it never outlives the world's bytes. A statement comes
 * back in its default mode (objects, not raw rows or plucked values), whatever its last user chose.
 */
/**
 * `n` as SQL text for a LIMIT or OFFSET: only a non-negative safe integer. Row counts are written into the SQL rather
 * than bound: SQLite recompiles a statement on every run when its LIMIT is a bound parameter (docs/decisions/0302).
 */
export function sqlRowCount(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a row count: ${n}`)
  return String(n)
}

export function stmt(db: Db, sql: string): Database.Statement {
  return cachedPrepare(db.$client, sql)
}

/**
 * A raw row (`.raw(true)`) as a plain object keyed by `keys`, the statement's columns in order: what `.get()` gives,
 * built here. better-sqlite3 names every column of every row it makes an object of, into a dictionary-mode object:
 * about 3 µs more than this for a 17-column row (decisions 0300, 0384). Undefined for no row.
 */
export function keyedRow<T>(keys: readonly string[], values: unknown): T | undefined {
  if (values === undefined) return undefined
  const row: Record<string, unknown> = {}
  for (let i = 0; i < keys.length; i++) row[keys[i]!] = (values as unknown[])[i]
  return row as T
}

/**
 * A text as SQLite stores and returns it: better-sqlite3 writes a lone surrogate (JSON `"\ud800"`) as bytes that
 * read back as replacement characters, so a text with one is put through SQLite to see what it becomes.
 */
export function storedText(db: Db, text: string): string {
  return /\p{Cs}/u.test(text)
    ? (stmt(db, '/* stored text */ SELECT CAST(? AS TEXT)').pluck().get(text) as string)
    : text
}

/** What a connection read while statementsDuring watched it. */
type Watch = { sql: string[]; meta: string[] }
const observers = new WeakMap<Database.Database, Watch>()

/**
 * Runs `fn` and returns, with its result, the SQL text of every statement the connection handed out meanwhile
 * (drizzle's queries and `stmt()` alike: both come through the statement cache) and the `world_meta` keys read
 * through `getMeta`. The gym uses it to learn what a service's dump reads (server/state-since.ts).
 */
export function statementsDuring<T>(client: Database.Database, fn: () => T): { result: T } & Watch {
  const watch: Watch = { sql: [], meta: [] }
  const outer = observers.get(client)
  observers.set(client, watch)
  try {
    return { result: fn(), ...watch }
  } finally {
    if (outer) {
      observers.set(client, outer)
      for (const q of watch.sql) outer.sql.push(q)
      for (const k of watch.meta) outer.meta.push(k)
    } else observers.delete(client)
  }
}

/** Notes a statement whose rows were served without running it (envs/core/dump-rows.ts) for statementsDuring. */
export function noteRead(client: Database.Database, sql: string): void {
  observers.get(client)?.sql.push(sql)
}

/** Notes a `world_meta` key read (envs/core/clock.ts getMeta) for statementsDuring. */
export function noteMetaRead(db: Db, key: string): void {
  observers.get(db.$client)?.meta.push(key)
}

function cachedPrepare(client: Database.Database, sql: string): Database.Statement {
  observers.get(client)?.sql.push(sql)
  let cache = statements.get(client)
  if (!cache) statements.set(client, (cache = new Map()))
  let s = cache.get(sql)
  if (!s) {
    // Search paths prepare one statement per query shape; a caller inventing shapes must not grow this forever.
    if (cache.size >= MAX_STATEMENTS) cache.clear()
    cache.set(sql, (s = prepareOnce(client, failFast.has(client) ? orFail(sql) : sql)))
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

type Shape = { sql: string; columns: SQLiteColumn[]; keys: string[]; defaults: (() => unknown)[]; target?: string[] }
const shapes = new WeakMap<SQLiteTable, Map<string, Shape | null>>()
const lastShapes = new WeakMap<SQLiteTable, Shape>()

/**
 * `db.insert(table).values(row).run()` without drizzle's per-call query building: the INSERT text is built once
 * per table and set of given keys, then runs through this connection's cached statement. Values go through each
 * column's own driver mapping (JSON, boolean modes) and absent columns get the same defaults drizzle would give.
 * Tables whose defaults are SQL expressions take drizzle's path.
 */
export function insertRow<T extends SQLiteTable>(db: Db, table: T, row: T['$inferInsert']): Database.RunResult {
  return writeRow(db, table, row as Record<string, unknown>)
}

/**
 * `db.insert(table).values(row).onConflictDoUpdate({ target, set: <row's other given columns> }).run()`, built once
 * per table, key set and conflict target like `insertRow`: a conflicting row gets every other given column.
 */
export function upsertRow<T extends SQLiteTable>(
  db: Db,
  table: T,
  row: T['$inferInsert'],
  target: (keyof T['$inferInsert'] & string)[],
): Database.RunResult {
  return writeRow(db, table, row as Record<string, unknown>, target)
}

function writeRow(db: Db, table: SQLiteTable, row: Record<string, unknown>, target?: string[]): Database.RunResult {
  const values = row
  // Rows of a table mostly come with one set of keys: the last shape used, when it fits, saves building the key.
  let shape: Shape | null | undefined = lastShapes.get(table)
  if (!shape || !fits(shape, values, target)) {
    const given = Object.keys(values).filter((k) => values[k] !== undefined)
    const key = `${given.join('\0')}${target ? `\n${target.join('\0')}` : ''}`
    let byKeys = shapes.get(table)
    if (!byKeys) shapes.set(table, (byKeys = new Map()))
    shape = byKeys.get(key)
    if (shape === undefined) byKeys.set(key, (shape = shapeOf(table, given, target)))
    if (!shape) return drizzleWrite(db, table, row, given, target)
    lastShapes.set(table, shape)
  }
  // Sized once: a row's dozen or more values pushed one by one grew the array's store three or four times.
  const n = shape.keys.length
  const params: unknown[] = new Array(n + shape.defaults.length)
  for (let i = 0; i < n; i++) {
    const v = values[shape.keys[i]!]
    if (isSql(v)) return drizzleWrite(db, table, row, shape.keys, target)
    params[i] = v === null ? null : shape.columns[i]!.mapToDriverValue(v)
  }
  for (let i = 0; i < shape.defaults.length; i++) {
    const v = shape.defaults[i]!()
    params[n + i] = v === null ? null : shape.columns[n + i]!.mapToDriverValue(v)
  }
  return stmt(db, shape.sql).run(...params)
}

/**
 * Whether `shape` is the one `writeRow` would look up for these values and conflict target: the same defined keys
 * in the same order (of a plain object, whose `for…in` keys are its own keys).
 */
function fits(shape: Shape, values: Record<string, unknown>, target: string[] | undefined): boolean {
  if (Object.getPrototypeOf(values) !== Object.prototype) return false
  const keys = shape.keys
  let i = 0
  for (const k in values) {
    if (values[k] === undefined) continue
    if (keys[i] !== k) return false
    i++
  }
  if (i !== keys.length) return false
  if (shape.target === target) return true
  if (!shape.target || !target || shape.target.length !== target.length) return false
  for (let j = 0; j < target.length; j++) if (shape.target[j] !== target[j]) return false
  return true
}

const isSql = (v: unknown) =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) && is(v, SQL)

function drizzleWrite(db: Db, table: SQLiteTable, row: Record<string, unknown>, given: string[], target?: string[]) {
  const insert = db.insert(table).values(row)
  if (!target) return insert.run() as Database.RunResult
  const all = getTableColumns(table) as Record<string, SQLiteColumn>
  const set = Object.fromEntries(given.filter((k) => !target.includes(k)).map((k) => [k, row[k]]))
  return insert.onConflictDoUpdate({ target: target.map((k) => all[k]!), set }).run() as Database.RunResult
}

function shapeOf(table: SQLiteTable, given: string[], target?: string[]): Shape | null {
  const all = getTableColumns(table) as Record<string, SQLiteColumn>
  if (given.some((k) => !all[k]) || target?.some((k) => !all[k])) return null
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
  let sql = `INSERT INTO "${getTableName(table)}" (${names}) VALUES (${columns.map(() => '?').join(', ')})`
  if (target) {
    const set = given.filter((k) => !target.includes(k)).map((k) => `"${all[k]!.name}" = excluded."${all[k]!.name}"`)
    if (!set.length) return null
    sql += ` ON CONFLICT (${target.map((k) => `"${all[k]!.name}"`).join(', ')}) DO UPDATE SET ${set.join(', ')}`
  }
  return { sql, columns, keys: given, defaults, target: target && [...target] }
}

type Filter<T extends SQLiteTable> = Partial<T['$inferSelect']>
type SelectShape = { sql: string; fields: [string, SQLiteColumn][]; params: [string, SQLiteColumn][] }
const selects = new WeakMap<SQLiteTable, Map<string, SelectShape>>()

/**
 * `db.select().from(table).where(and(eq(col, v)…, ne(col, v)…)).orderBy(…).all()` without drizzle's per-call
 * query building: equality (`where`) and inequality (`not`) on columns, order by columns (or `rowid`), built once
 * per shape. Rows come back as drizzle returns them: every column, in table order, through its driver mapping.
 */
export function selectRows<T extends SQLiteTable>(
  db: Db,
  table: T,
  where: Filter<T>,
  opts: { not?: Filter<T>; orderBy?: (keyof T['$inferSelect'] & string)[] | ['rowid'] } = {},
): T['$inferSelect'][] {
  const w = where as Record<string, unknown>
  const n = (opts.not ?? {}) as Record<string, unknown>
  const key = `${Object.keys(w).join(',')}|${Object.keys(n).join(',')}|${(opts.orderBy ?? []).join(',')}`
  let byKey = selects.get(table)
  if (!byKey) selects.set(table, (byKey = new Map()))
  let shape = byKey.get(key)
  if (!shape) byKey.set(key, (shape = selectShape(table, Object.keys(w), Object.keys(n), opts.orderBy ?? [])))
  const params = shape.params.map(([k, col], i) => {
    const v = i < Object.keys(w).length ? w[k] : n[k]
    return v === null || v === undefined ? null : col.mapToDriverValue(v)
  })
  const raw = stmt(db, shape.sql)
    .raw()
    .all(...params) as unknown[][]
  return raw.map((values) => {
    const out: Record<string, unknown> = {}
    for (let i = 0; i < shape.fields.length; i++) {
      const v = values[i]
      out[shape.fields[i]![0]] = v === null ? null : shape.fields[i]![1].mapFromDriverValue(v)
    }
    return out as T['$inferSelect']
  })
}

function selectShape(table: SQLiteTable, where: string[], not: string[], orderBy: string[]): SelectShape {
  const all = getTableColumns(table) as Record<string, SQLiteColumn>
  const col = (k: string) => {
    if (!all[k]) throw new Error(`selectRows: ${getTableName(table)} has no column ${k}`)
    return all[k]
  }
  const fields = Object.entries(all)
  const conds = [...where.map((k) => `"${col(k).name}" = ?`), ...not.map((k) => `"${col(k).name}" <> ?`)]
  const order = orderBy.map((k) => (k === 'rowid' ? 'rowid' : `"${col(k).name}"`))
  const sql =
    `SELECT ${fields.map(([, c]) => `"${c.name}"`).join(', ')} FROM "${getTableName(table)}"` +
    (conds.length ? ` WHERE ${conds.join(' AND ')}` : '') +
    (order.length ? ` ORDER BY ${order.join(', ')}` : '')
  const params = [...where, ...not].map((k) => [k, col(k)] as [string, SQLiteColumn])
  return { sql, fields, params }
}

type UpdateShape = { sql: string; set: [string, SQLiteColumn][]; where: [string, SQLiteColumn][] }
const updates = new WeakMap<SQLiteTable, Map<string, UpdateShape | null>>()

/**
 * `db.update(table).set(set).where(and(eq(col, v)…)).run()` without drizzle's per-call query building, built once
 * per table, set keys and where keys. As drizzle does, undefined values are left out and values go through their
 * column's driver mapping. An SQL value, an empty set or a table with `$onUpdate` columns goes through drizzle.
 */
export function updateRows<T extends SQLiteTable>(
  db: Db,
  table: T,
  set: Partial<T['$inferInsert']>,
  where: Filter<T>,
): Database.RunResult {
  const s = set as Record<string, unknown>
  const w = where as Record<string, unknown>
  const given = Object.keys(s).filter((k) => s[k] !== undefined)
  const key = `${given.join(',')}|${Object.keys(w).join(',')}`
  let byKey = updates.get(table)
  if (!byKey) updates.set(table, (byKey = new Map()))
  let shape = byKey.get(key)
  if (shape === undefined) byKey.set(key, (shape = updateShape(table, given, Object.keys(w))))
  if (!shape || given.some((k) => isSql(s[k]))) return drizzleUpdate(db, table, s, w)
  const params: unknown[] = []
  for (const [k, col] of shape.set) params.push(s[k] === null ? null : col.mapToDriverValue(s[k]))
  for (const [k, col] of shape.where) {
    if (w[k] === null || w[k] === undefined) throw new Error(`updateRows: ${k} is ${w[k]}`)
    params.push(col.mapToDriverValue(w[k]))
  }
  return stmt(db, shape.sql).run(...params)
}

function updateShape(table: SQLiteTable, given: string[], where: string[]): UpdateShape | null {
  const all = getTableColumns(table) as Record<string, SQLiteColumn>
  if (!given.length || Object.values(all).some((c) => c.onUpdateFn)) return null
  if ([...given, ...where].some((k) => !all[k])) return null
  // Table order, as drizzle writes the SET list.
  const set = Object.entries(all).filter(([k]) => given.includes(k))
  const conds = where.map((k) => [k, all[k]!] as [string, SQLiteColumn])
  const sql =
    `UPDATE "${getTableName(table)}" SET ${set.map(([, c]) => `"${c.name}" = ?`).join(', ')}` +
    (conds.length ? ` WHERE ${conds.map(([, c]) => `"${c.name}" = ?`).join(' AND ')}` : '')
  return { sql, set, where: conds }
}

function drizzleUpdate(db: Db, table: SQLiteTable, set: Record<string, unknown>, where: Record<string, unknown>) {
  const all = getTableColumns(table) as Record<string, SQLiteColumn>
  const conds = Object.keys(where).map((k) => eq(all[k]!, where[k]))
  return db
    .update(table)
    .set(set)
    .where(and(...conds))
    .run() as Database.RunResult
}
