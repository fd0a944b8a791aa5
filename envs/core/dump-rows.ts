import type Database from 'better-sqlite3'
import { getTableColumns, getTableName } from 'drizzle-orm'
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core'
import { noteRead, stmt, type Db } from './db.ts'
import { keptValue, sameValue } from './dump-memo.ts'
import type { Json } from './service.ts'
import { noteChangedIds } from './diff.ts'
import { CHANGED_ROWIDS_SQL, rowsNoted } from './held-notes.ts'
import type { World } from './world.ts'

/**
 * Whole-table reads of the dumps, kept per held world (docs/decisions/0309). The gym's validation dumps one held
 * connection after every episode (World.hold); an episode writes a few rows, the dumps read every row of the tables
 * they read. A read made while its table is as it was at hold() is kept with the rowid of each row; later, on the
 * same held contents (World.heldWrites: the same `base`):
 * - a table written by no statement since hold() gives the kept rows back (the same array and row objects, so the
 *   entity memo, envs/core/dump-memo.ts, finds them with `Object.is` and reads no blob again);
 * - a written table gives its rows in the read's order, each row that was written since hold() (the triggers note
 *   its rowid) read again, every other one the kept row of that rowid. The order comes from SQLite (`SELECT rowid …
 *   ORDER BY`), or, where the order's values are all read and compare in JS as in SQLite, from merging the written
 *   rows into the kept ones in JS (docs/decisions/0334), checked against the table's row count.
 * The rows that remain come from the table, never from the notes alone (a row deleted by REPLACE is not noted).
 * Anything unexpected (a rowid neither written nor kept) reads the whole table again. A world that is not held,
 * or whose schema changed, is read as a plain SELECT. Rows are frozen: callers must never change them.
 * Where the written rows are known exactly (readRows: `since`), grouped lookups (keptGroups) and collections
 * (keptCollection) redo only what those rows touch.
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
  /**
   * Other orders whose terms are all among the columns: where each term is in `columns` (the rows are then put
   * in order in JS, checked against the table's row count: mergeSorted).
   */
  readonly sorted?: { readonly at: readonly number[]; readonly count: string }
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
  const at = order.filter((o) => o !== 'rowid').map((o) => columns.indexOf(o))
  const count = `/* dump rows */ SELECT count(*) ${from}`
  const list = columns.map(quote).join(', ')
  return {
    table,
    sql: `/* dump rows */ SELECT ${list} ${from} ORDER BY ${terms}`,
    withRowid: `/* dump rows */ SELECT rowid, ${list} ${from} ORDER BY ${terms}`,
    rowids: `/* dump rows */ SELECT rowid ${from} ORDER BY ${terms}`,
    written: `/* dump rows */ SELECT rowid, ${list} ${from} WHERE rowid IN (${CHANGED_ROWIDS_SQL}) ORDER BY rowid`,
    ...(terms === 'rowid' ? { count } : at.every((i) => i >= 0) ? { sorted: { at, count } } : {}),
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
  return tableRead(
    getTableName(table),
    fields.map(([, c]) => c.name),
    names,
    (values) => {
      const out: Record<string, unknown> = {}
      for (let i = 0; i < fields.length; i++) {
        const v = values[i]
        out[fields[i]![0]] = v === null ? null : fields[i]![1].mapFromDriverValue(v)
      }
      return out as T['$inferSelect']
    },
  )
}

type Kept = {
  base: object
  rows: readonly unknown[]
  rowids: readonly number[]
  byRowid: Map<number, unknown>
  /** The rows as read (`[rowid, …columns]`), until their order values are taken (reads with TableRead.sorted). */
  raw?: readonly unknown[][]
  /** Their order values, flat (row i's at i * terms), taken when first needed; null: some do not compare in JS. */
  keys?: readonly unknown[] | null
  /** Values derived from these rows alone (sinceKept), built once per kept read. */
  derived: Map<string, unknown>
}
const kept = new WeakMap<Database.Database, Map<TableRead<unknown>, Kept>>()

/**
 * A read's rows and, when known exactly, how they differ from the rows kept at hold() (`since`): `old` are the kept
 * rows whose rowid a trigger noted (updated or deleted since), `fresh` the rows now at noted rowids; every other
 * row is the very kept row object. Absent when the table was read whole (not held, no kept read, or a kept row went
 * without a note).
 */
export type Rows<T> = {
  readonly rows: readonly T[]
  readonly since?: {
    readonly kept: readonly T[]
    readonly old: readonly T[]
    readonly fresh: readonly T[]
    readonly derived: Map<string, unknown>
  }
}

/** Every row of the read's table (see above): kept rows where the table was not written since hold(). */
export function readTable<T>(world: World, read: TableRead<T>): readonly T[] {
  return readRows(world, read).rows
}

/** readTable, with how the rows differ from the kept ones where that is known (see Rows). */
export function readRows<T>(world: World, read: TableRead<T>): Rows<T> {
  const client = world.sqlite
  // A table whose written rowids are not all noted (held-notes.ts UNNOTED) is read whole every time.
  const written = rowsNoted(read.table) ? world.heldWrites() : undefined
  if (!written) return { rows: Object.freeze(mapRows(stmt(world.db, read.sql).raw().all() as unknown[][], read.map)) }
  let reads = kept.get(client)
  if (!reads) kept.set(client, (reads = new Map()))
  const dirty = written.tables.has(read.table)
  const found = reads.get(read as TableRead<unknown>)
  if (found?.base === written.base) {
    const keptRows = found.rows as readonly T[]
    if (!dirty) {
      // Served without running it: statementsDuring (server/state-since.ts) must still learn the table is read.
      noteRead(client, read.withRowid)
      return { rows: keptRows, since: { kept: keptRows, old: NONE, fresh: NONE, derived: found.derived } }
    }
    const merged = mergeWritten(world, read, found)
    if (merged) return merged
  }
  const byRowid = new Map<number, T>()
  const rows: T[] = []
  const rowids: number[] = []
  const raw = stmt(world.db, read.withRowid).raw().all() as unknown[][]
  for (const r of raw) {
    const row = Object.freeze(read.map(r.slice(1)))
    byRowid.set(r[0] as number, row)
    rows.push(row)
    rowids.push(r[0] as number)
  }
  Object.freeze(rows)
  if (dirty) return { rows }
  const derived = new Map<string, unknown>()
  const entry: Kept = { base: written.base, rows, rowids, byRowid, derived, ...(read.sorted ? { raw } : {}) }
  reads.set(read as TableRead<unknown>, entry)
  return { rows, since: { kept: rows, old: NONE, fresh: NONE, derived } }
}

const NONE: readonly never[] = Object.freeze([])

/** The count of the read's table (TableRead.count's SQL, which reads in other orders have too). */
const countOf = (read: TableRead<unknown>) => `/* dump rows */ SELECT count(*) FROM ${quote(read.table)}`

/**
 * A value built from the kept rows alone, kept with them (once per kept read): what `since.derived` holds under
 * `name`. `build` must read nothing but the rows.
 */
function sinceKept<T, V>(since: NonNullable<Rows<T>['since']>, name: string, build: (rows: readonly T[]) => V): V {
  let value = since.derived.get(name) as V | undefined
  if (value === undefined) since.derived.set(name, (value = build(since.kept)))
  return value
}

/**
 * The rows now: in order from SQLite, written ones read again, the others kept. Undefined when one is neither.
 * `since` is given when every kept row whose rowid no trigger noted is among them (else a row went unnoted).
 */
function mergeWritten<T>(world: World, read: TableRead<T>, found: Kept): Rows<T> | undefined {
  const written = stmt(world.db, read.written).raw().all(read.table) as unknown[][]
  const noted = new Set(stmt(world.db, CHANGED_ROWIDS_SQL).pluck().all(read.table) as number[])
  // A row written with the very values kept at its rowid (a column the read leaves out changed, or none did) is
  // the kept row: not among `old` and `fresh`, so whatever is built from it is built as from a row never written.
  const fresh: T[] = new Array(written.length)
  const changed: T[] = []
  const same = new Set<number>()
  for (let i = 0; i < written.length; i++) {
    const rowid = written[i]![0] as number
    const row = Object.freeze(read.map(written[i]!.slice(1)))
    const was = found.byRowid.get(rowid) as T | undefined
    if (was !== undefined && sameValue(was, row)) {
      fresh[i] = was
      same.add(rowid)
    } else changed.push((fresh[i] = row))
  }
  const old: T[] = []
  for (const rowid of noted) {
    const row = found.byRowid.get(rowid) as T | undefined
    if (row !== undefined && !same.has(rowid)) old.push(row)
  }
  const kept = found.rows as readonly T[]
  const since = { kept, old, fresh: changed, derived: found.derived }
  // Every noted row is a kept one with its values: the kept rows, when the table counts as many (none was deleted
  // by REPLACE without a note).
  if (same.size === noted.size && stmt(world.db, countOf(read)).pluck().get() === kept.length) {
    return { rows: kept, since: { kept, old: NONE, fresh: NONE, derived: found.derived } }
  }
  if (read.count) {
    const merged = mergeByRowid(world, read, found, written, fresh, noted)
    if (merged) return { rows: merged, since }
  }
  if (read.sorted && keptKeys(found, read.sorted.at)) {
    const merged = mergeSorted(world, read.sorted, found, written, fresh, noted)
    if (merged) return { rows: merged as readonly T[], since }
  }
  const byRowid = new Map<number, T>()
  for (let i = 0; i < written.length; i++) byRowid.set(written[i]![0] as number, fresh[i]!)
  const order = stmt(world.db, read.rowids).pluck().all() as number[]
  const rows: T[] = new Array(order.length)
  let keptTaken = 0
  for (let i = 0; i < order.length; i++) {
    let row = byRowid.get(order[i]!)
    if (row === undefined) {
      row = found.byRowid.get(order[i]!) as T | undefined
      if (row === undefined) return undefined
      keptTaken++
    }
    rows[i] = row
  }
  Object.freeze(rows)
  // Kept rows taken are never noted ones (those come fresh or are gone); all unnoted kept rows must be there.
  return keptTaken === found.rows.length - old.length ? { rows, since } : { rows }
}

/**
 * Rowid order without reading every rowid: the kept rows whose rowid was not written, and the written rows that
 * exist, merged by rowid. Every row of the table is among them (a row never written is as kept); they are exactly
 * the table's rows when as many as it counts (a kept row deleted by REPLACE, unnoted, makes one too many: undefined).
 */
function mergeByRowid<T>(
  world: World,
  read: TableRead<T>,
  found: Kept,
  written: unknown[][],
  fresh: readonly T[],
  noted: ReadonlySet<number>,
): readonly T[] | undefined {
  const rows: T[] = []
  const { rows: kept, rowids } = found
  let j = 0
  for (let i = 0; i < kept.length; i++) {
    const rowid = rowids[i]!
    for (; j < written.length && (written[j]![0] as number) < rowid; j++) rows.push(fresh[j]!)
    if (!noted.has(rowid)) rows.push(kept[i] as T)
  }
  for (; j < written.length; j++) rows.push(fresh[j]!)
  const count = stmt(world.db, read.count!).pluck().get() as number
  return rows.length === count ? Object.freeze(rows) : undefined
}

/**
 * Rows grouped by key (`add` appends a row's values to its key's list), for lookups by key only: the map's order
 * is not the rows'. Kept as `name` (keptValue). When the rows differ from the kept ones in known rows (Rows.since),
 * only the keys of those rows are grouped again: every other key's list is the very list the kept rows gave, so
 * entities built from it hit the entity memo (envs/core/dump-memo.ts) at once.
 */
export function keptGroups<T, V>(
  db: Db,
  name: string,
  read: Rows<T>,
  keyOf: (row: T) => string,
  add: (list: V[], row: T) => void,
): ReadonlyMap<string, readonly V[]> {
  const group = (rows: readonly T[], only?: ReadonlySet<string>, into = new Map<string, V[]>()) => {
    for (const row of rows) {
      const key = keyOf(row)
      if (only && !only.has(key)) continue
      const list = into.get(key)
      if (list) add(list, row)
      else {
        const first: V[] = []
        add(first, row)
        into.set(key, first)
      }
    }
    return into
  }
  const since = read.since
  return keptValue(db, name, [read.rows], () => {
    if (!since) return group(read.rows)
    const before = sinceKept(since, name, (rows) => group(rows))
    if (read.rows === since.kept) return before
    // A key none of whose rows was written has exactly its kept rows, in the same order (the read's order is total).
    const touched = new Set<string>()
    for (const row of since.old) touched.add(keyOf(row))
    for (const row of since.fresh) touched.add(keyOf(row))
    const now = new Map(before)
    for (const key of touched) now.delete(key)
    return group(read.rows, touched, now)
  })
}

/**
 * Rows of a read in another order (TableRead.sorted) without reading every rowid: the kept rows whose rowid was
 * not written (already in order) merged with the written rows that exist, put in order in JS by the read's terms
 * and rowid. Undefined when a written row's order values do not compare in JS as in SQLite, or when the rows are
 * not as many as the table counts (a kept row deleted by REPLACE, unnoted).
 */
function mergeSorted<T>(
  world: World,
  sorted: NonNullable<TableRead<T>['sorted']>,
  found: Kept,
  written: unknown[][],
  fresh: readonly T[],
  noted: ReadonlySet<number>,
): readonly T[] | undefined {
  const keys = orderKeys(written, sorted.at)
  if (!keys) return undefined
  const terms = sorted.at.length
  const order = fresh.map((_, i) => i)
  const rowidOf = (i: number) => written[i]![0] as number
  order.sort((a, b) => compareKeys(keys, a * terms, keys, b * terms, terms) || rowidOf(a) - rowidOf(b))
  const { rows: kept, rowids } = found
  const keptOrder = found.keys!
  const rows: T[] = []
  let j = 0
  for (let i = 0; i < kept.length; i++) {
    const rowid = rowids[i]!
    if (noted.has(rowid)) continue
    for (; j < order.length; j++) {
      const w = order[j]!
      if ((compareKeys(keys, w * terms, keptOrder, i * terms, terms) || rowidOf(w) - rowid) > 0) break
      rows.push(fresh[w]!)
    }
    rows.push(kept[i] as T)
  }
  for (; j < order.length; j++) rows.push(fresh[order[j]!]!)
  const count = stmt(world.db, sorted.count).pluck().get() as number
  return rows.length === count ? Object.freeze(rows) : undefined
}

/** The kept rows' order values (orderKeys), taken from the rows as read the first time they are needed. */
function keptKeys(found: Kept, at: readonly number[]): readonly unknown[] | undefined {
  if (found.keys === undefined) {
    found.keys = orderKeys(found.raw!, at) ?? null
    found.raw = undefined
  }
  return found.keys ?? undefined
}

/**
 * The order values of raw rows (`[rowid, …columns]`), flat (row i's at i * terms), or undefined when one would not
 * compare in JS as SQLite orders it (BINARY collation; NULL < numbers < text): only NULL, finite numbers (integers
 * exact) and ASCII text.
 */
function orderKeys(raw: readonly unknown[][], at: readonly number[]): unknown[] | undefined {
  const keys: unknown[] = new Array(raw.length * at.length)
  let n = 0
  for (let i = 0; i < raw.length; i++) {
    for (let k = 0; k < at.length; k++) {
      const v = raw[i]![at[k]! + 1]
      if (!comparable(v)) return undefined
      keys[n++] = v
    }
  }
  return keys
}

const ASCII = /^[\x00-\x7f]*$/
const comparable = (v: unknown) =>
  v === null ||
  (typeof v === 'string' && ASCII.test(v)) ||
  (typeof v === 'number' && Number.isFinite(v) && (!Number.isInteger(v) || Number.isSafeInteger(v)))
const rank = (v: unknown) => (v === null ? 0 : typeof v === 'number' ? 1 : 2)

/** SQLite's order of two rows' comparable order values (`terms` of them in `a` from `i`, in `b` from `j`). */
function compareKeys(a: readonly unknown[], i: number, b: readonly unknown[], j: number, terms: number): number {
  for (let k = 0; k < terms; k++) {
    const x = a[i + k]
    const y = b[j + k]
    if (x === y) continue
    const r = rank(x) - rank(y)
    if (r !== 0) return r
    return (x as string | number) < (y as string | number) ? -1 : 1
  }
  return 0
}

function mapRows<T>(raw: unknown[][], map: (values: unknown[]) => T): T[] {
  const out: T[] = new Array(raw.length)
  for (let i = 0; i < raw.length; i++) out[i] = Object.freeze(map(raw[i]!))
  return out
}

/** Per connection and collection: the entry each row gave, while the other inputs are the very same objects. */
type Entries = { inputs: readonly unknown[]; byRow: WeakMap<object, readonly [string, Json] | null> }
const entries = new WeakMap<Database.Database, Map<string, Entries>>()

/**
 * A dumped collection built row by row from one whole-table read and kept under `name` (keptValue): the same object
 * again while its rows and `inputs` (other values the build reads, such as a map of emails) are the very ones kept.
 * `entry` gives a row's key and entity (or none); it must read nothing but the row and `inputs`. A row object read
 * before (a kept row: envs/core/dump-rows.ts), with the very same inputs, gives the entry it gave then without
 * calling `entry` again, so a collection rebuilt because a few rows were written builds only those rows' entries.
 */
export function keptCollection<T>(
  world: World,
  name: string,
  read: TableRead<T>,
  inputs: readonly unknown[],
  entry: (row: T) => readonly [string, Json] | undefined,
): Record<string, Json> {
  const read0 = readRows(world, read)
  const rows = read0.rows
  return keptValue(world.db, name, [rows, ...inputs], () => {
    const client = world.sqlite
    let byName = entries.get(client)
    if (!byName) entries.set(client, (byName = new Map()))
    let kept = byName.get(name)
    if (!kept || !sameObjects(kept.inputs, inputs)) byName.set(name, (kept = { inputs, byRow: new WeakMap() }))
    const into: Record<string, Json> = {}
    for (const row of rows) {
      let found = kept.byRow.get(row as object)
      if (found === undefined) kept.byRow.set(row as object, (found = entry(row) ?? null))
      if (found) into[found[0]] = found[1]
    }
    const byRow = kept.byRow
    // A row's entry, built now if these inputs never built it (an old row, gone from the rows).
    const entryOf = (row: T) => {
      let found = byRow.get(row as object)
      if (found === undefined) byRow.set(row as object, (found = entry(row) ?? null))
      return found
    }
    if (read0.since) noteCollectionBase(read0.since, name, inputs, entryOf, rows, into)
    return into
  })
}

/** A collection built from the kept rows (keptCollection), kept with them: what later ones are told apart from. */
type CollectionBase = { inputs: readonly unknown[]; collection: Record<string, Json> }

/**
 * Built from the kept rows: kept as `name`'s base (in `since.derived`). Built from rows written since, with the
 * very inputs of the base and every written row's entry known: the diff is told that only the keys of the old
 * and fresh rows' entries may differ from the base (envs/core/diff.ts noteChangedIds; docs/decisions/0342). Every
 * other key's entry comes from the very kept row, with the same inputs: the very entity of the base.
 */
function noteCollectionBase<T>(
  since: NonNullable<Rows<T>['since']>,
  name: string,
  inputs: readonly unknown[],
  entryOf: (row: T) => readonly [string, Json] | null,
  rows: readonly T[],
  collection: Record<string, Json>,
): void {
  const slot = `${BASE_PREFIX}${name}`
  const base = since.derived.get(slot) as CollectionBase | undefined
  if (rows === since.kept) {
    if (!base || !sameObjects(base.inputs, inputs)) {
      since.derived.set(slot, { inputs, collection } satisfies CollectionBase)
    }
    return
  }
  if (!base || !sameObjects(base.inputs, inputs)) return
  const keys = new Set<string>()
  for (const row of [...since.old, ...since.fresh]) {
    const found = entryOf(row)
    if (found) keys.add(found[0])
  }
  noteChangedIds(collection, base.collection, keys)
}

const BASE_PREFIX = 'collection base '

const sameObjects = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((x, i) => Object.is(x, b[i]))
