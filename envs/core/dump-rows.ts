import type Database from 'better-sqlite3'
import { getTableColumns, getTableName } from 'drizzle-orm'
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core'
import { noteRead, stmt } from './db.ts'
import { keptValue } from './dump-memo.ts'
import type { Json } from './service.ts'
import { CHANGED_ROWIDS_SQL, type World } from './world.ts'

/**
 * Whole-table reads of the dumps, kept per held world (docs/decisions/0309). The gym's validation dumps one held
 * connection after every episode (World.hold); an episode writes a few rows, the dumps read every row of the tables
 * they read. A read made while its table is as it was at hold() is kept with the rowid of each row; later, on the
 * same held contents (World.heldWrites: the same `base`):
 * - a table written by no statement since hold() gives the kept rows back (the same array and row objects, so the
 *   entity memo, envs/core/dump-memo.ts, finds them with `Object.is` and reads no blob again);
 * - a written table gives its rows in the read's order from SQLite (`SELECT rowid … ORDER BY`), each row that was
 *   written since hold() (the triggers note its rowid) read again, every other one the kept row of that rowid.
 * The rows that remain come from the table, never from the notes alone (a row deleted by REPLACE is not noted).
 * Anything unexpected (a rowid neither written nor kept) reads the whole table again. A world that is not held,
 * or whose schema changed, is read as a plain SELECT. Rows are frozen: callers must never change them.
 */
export type TableRead<T> = {
  readonly table: string
  /** `SELECT <columns> FROM <table> ORDER BY <order>` (rowid last: one total order on every path). */
  readonly sql: string
  readonly withRowid: string
  readonly rowids: string
  readonly written: string
  /** Rows in rowid order only: kept and written rows merge by rowid, checked against the table's row count. */
  readonly count?: string
  readonly map: (values: unknown[]) => T
}

const IDENT = /^[a-z_][a-z0-9_]*$/
const quote = (name: string) => {
  if (!IDENT.test(name)) throw new Error(`tableRead: not a plain name: ${name}`)
  return name === 'rowid' ? name : `"${name}"`
}

/**
 * A read of every row of one table: the given columns (plain names, so the statement reads that table only), in
 * the given order with rowid breaking ties, each row mapped once (by a pure function of its values) when read.
 */
export function tableRead<T = readonly unknown[]>(
  table: string,
  columns: readonly string[],
  order: readonly string[],
  map: (values: unknown[]) => T = (v) => v as T,
): TableRead<T> {
  const from = `FROM ${quote(table)}`
  const terms = [...order.filter((o) => o !== 'rowid'), 'rowid'].map(quote).join(', ')
  const list = columns.map(quote).join(', ')
  return {
    table,
    sql: `/* dump rows */ SELECT ${list} ${from} ORDER BY ${terms}`,
    withRowid: `/* dump rows */ SELECT rowid, ${list} ${from} ORDER BY ${terms}`,
    rowids: `/* dump rows */ SELECT rowid ${from} ORDER BY ${terms}`,
    written: `/* dump rows */ SELECT rowid, ${list} ${from} WHERE rowid IN (${CHANGED_ROWIDS_SQL}) ORDER BY rowid`,
    ...(terms === 'rowid' ? { count: `/* dump rows */ SELECT count(*) ${from}` } : {}),
    map,
  }
}

/** The SQL names of a drizzle table's columns, in table order (what `SELECT *` reads). */
export function columnNames(table: SQLiteTable): string[] {
  return Object.values(getTableColumns(table) as Record<string, SQLiteColumn>).map((c) => c.name)
}

/**
 * A read of every column of a drizzle table, rows mapped as drizzle's `select().from(table)` maps them (keys are
 * the field names, values through each column's driver mapping).
 */
export function drizzleRead<T extends SQLiteTable>(table: T, order: readonly string[]): TableRead<T['$inferSelect']> {
  const fields = Object.entries(getTableColumns(table) as Record<string, SQLiteColumn>)
  const byKey = new Map(fields)
  const names = order.map((k) => (k === 'rowid' ? k : (byKey.get(k)?.name ?? k)))
  return tableRead(getTableName(table), fields.map(([, c]) => c.name), names, (values) => {
    const out: Record<string, unknown> = {}
    for (let i = 0; i < fields.length; i++) {
      const v = values[i]
      out[fields[i]![0]] = v === null ? null : fields[i]![1].mapFromDriverValue(v)
    }
    return out as T['$inferSelect']
  })
}

type Kept = { base: object; rows: readonly unknown[]; rowids: readonly number[]; byRowid: Map<number, unknown> }
const kept = new WeakMap<Database.Database, Map<TableRead<unknown>, Kept>>()

/** Every row of the read's table (see above): kept rows where the table was not written since hold(). */
export function readTable<T>(world: World, read: TableRead<T>): readonly T[] {
  const client = world.sqlite
  const written = world.heldWrites()
  if (!written) return Object.freeze(mapRows(stmt(world.db, read.sql).raw().all() as unknown[][], read.map))
  let reads = kept.get(client)
  if (!reads) kept.set(client, (reads = new Map()))
  const dirty = written.tables.has(read.table)
  const found = reads.get(read as TableRead<unknown>)
  if (found?.base === written.base) {
    if (!dirty) {
      // Served without running it: statementsDuring (server/state-since.ts) must still learn the table is read.
      noteRead(client, read.withRowid)
      return found.rows as readonly T[]
    }
    const merged = mergeWritten(world, read, found)
    if (merged) return merged
  }
  const byRowid = new Map<number, T>()
  const rows: T[] = []
  const rowids: number[] = []
  for (const r of stmt(world.db, read.withRowid).raw().all() as unknown[][]) {
    const row = Object.freeze(read.map(r.slice(1)))
    byRowid.set(r[0] as number, row)
    rows.push(row)
    rowids.push(r[0] as number)
  }
  Object.freeze(rows)
  if (!dirty) reads.set(read as TableRead<unknown>, { base: written.base, rows, rowids, byRowid })
  return rows
}

/** The rows now: in order from SQLite, written ones read again, the others kept. Undefined when one is neither. */
function mergeWritten<T>(world: World, read: TableRead<T>, found: Kept): readonly T[] | undefined {
  const written = stmt(world.db, read.written).raw().all(read.table) as unknown[][]
  if (read.count) {
    const merged = mergeByRowid(world, read, found, written)
    if (merged) return merged
  }
  const fresh = new Map<number, T>()
  for (const r of written) fresh.set(r[0] as number, Object.freeze(read.map(r.slice(1))))
  const order = stmt(world.db, read.rowids).pluck().all() as number[]
  const rows: T[] = new Array(order.length)
  for (let i = 0; i < order.length; i++) {
    const row = fresh.get(order[i]!) ?? (found.byRowid.get(order[i]!) as T | undefined)
    if (row === undefined) return undefined
    rows[i] = row
  }
  return Object.freeze(rows)
}

/**
 * Rowid order without reading every rowid: the kept rows whose rowid was not written, and the written rows that
 * exist, merged by rowid. Every row of the table is among them (a row never written is as kept); they are exactly
 * the table's rows when as many as it counts (a kept row deleted by REPLACE, unnoted, makes one too many: undefined).
 */
function mergeByRowid<T>(
  world: World, read: TableRead<T>, found: Kept, written: unknown[][],
): readonly T[] | undefined {
  const noted = new Set(stmt(world.db, CHANGED_ROWIDS_SQL).pluck().all(read.table) as number[])
  const rows: T[] = []
  const fresh = (r: unknown[]) => Object.freeze(read.map(r.slice(1)))
  const { rows: kept, rowids } = found
  let j = 0
  for (let i = 0; i < kept.length; i++) {
    const rowid = rowids[i]!
    for (; j < written.length && (written[j]![0] as number) < rowid; j++) rows.push(fresh(written[j]!))
    if (!noted.has(rowid)) rows.push(kept[i] as T)
  }
  for (; j < written.length; j++) rows.push(fresh(written[j]!))
  const count = stmt(world.db, read.count!).pluck().get() as number
  return rows.length === count ? Object.freeze(rows) : undefined
}

function mapRows<T>(raw: unknown[][], map: (values: unknown[]) => T): T[] {
  const out: T[] = new Array(raw.length)
  for (let i = 0; i < raw.length; i++) out[i] = Object.freeze(map(raw[i]!))
  return out
}

/**
 * A dumped collection built row by row from one whole-table read and kept under `name` (keptValue): the same object
 * again while its rows and `inputs` (other values the build reads, such as a map of emails) are the very ones kept.
 */
export function keptCollection<T>(
  world: World,
  name: string,
  read: TableRead<T>,
  inputs: readonly unknown[],
  build: (row: T, into: Record<string, Json>) => void,
): Record<string, Json> {
  const rows = readTable(world, read)
  return keptValue(world.db, name, [rows, ...inputs], () => {
    const into: Record<string, Json> = {}
    for (const row of rows) build(row, into)
    return into
  })
}
