import Database from 'better-sqlite3'

/**
 * Values read from one table, kept per connection while the table is not written (docs/decisions/0319).
 *
 * On first use a connection gets TEMP triggers (outside the world's bytes, like World.hold's notes) that call a
 * function counting every row a statement inserts, updates or deletes in the table; the count never goes back, not
 * even when a transaction rolls the rows back. A value is kept with the count it was read at and is given back only
 * while the count is the same. It is kept only when read outside any transaction, so it holds committed rows: what a
 * later rollback can undo was written after it, and counted; or at a batched world's top level (keepInTransaction,
 * docs/decisions/0419), whose earlier writes only the loss of the whole transaction can undo (forgetKept). The
 * schema cookie is compared too (a table dropped and made again has lost its triggers). Only in-memory connections:
 * nothing else writes to them. A restored world has a new connection, and so nothing kept.
 */
type Tracked = { schema: number; writes: Map<string, number>; kept: Map<string, { writes: number; value: unknown }> }

const tracked = new WeakMap<Database.Database, Tracked>()
/**
 * Connections that keep values read inside a transaction while `test()` says so: a batched world's open transaction
 * at its top level (World.batchWrites), where every earlier write is a finished request's and only the whole
 * transaction's loss could undo it (forgetKept then runs).
 */
const keepable = new WeakMap<Database.Database, () => boolean>()

/** Lets `client` keep values read inside a transaction while `test()` is true (see `keepable`). */
export function keepInTransaction(client: Database.Database, test: () => boolean): void {
  keepable.set(client, test)
}

/**
 * Forgets every value kept on `client` and its write counts (its triggers are set up again on next use): for a
 * transaction rolled back whole, which undid rows counted before the values were read.
 */
export function forgetKept(client: Database.Database): void {
  tracked.delete(client)
}

/** In a transaction where nothing read may be kept (any but a batched world's top level). */
function unkeepable(client: Database.Database): boolean {
  return client.inTransaction && keepable.get(client)?.() !== true
}
const COUNT_FN = 'wsgym_count_write'
const SCHEMA_SQL = 'PRAGMA main.schema_version'
/** Kept values per connection (listing windows: a handful in use at a time); cleared when full. */
const MAX_KEPT = 64

function triggersSql(table: string): string {
  const name = `'${table.replace(/'/g, "''")}'`
  return ['INSERT', 'UPDATE', 'DELETE']
    .map((op) => {
      const trigger = `"wsgym_count_${op[0]!.toLowerCase()}_${table}"`
      return (
        `DROP TRIGGER IF EXISTS temp.${trigger}; CREATE TEMP TRIGGER ${trigger} AFTER ${op} ON main."${table}" ` +
        `BEGIN SELECT ${COUNT_FN}(${name}); END;`
      )
    })
    .join('\n')
}

/**
 * The tables' write counts on this connection, summed (each count only grows, so an equal sum means no table was
 * written), setting up their triggers when needed; undefined when it cannot be vouched for (a file-backed
 * connection, or a table's triggers are missing and a transaction is open, where DDL would change what a held world
 * compares).
 */
function writeCount(client: Database.Database, tables: readonly string[]): number | undefined {
  if (!client.memory) return undefined
  let t = tracked.get(client)
  // Not set up, and no DDL may run now: answered without reading the schema cookie (held worlds, every call).
  if (unkeepable(client) && !setUp(t, tables)) return undefined
  const schema = schemaProbe(client).get() as number
  let sum = 0
  for (const table of tables) {
    const count = t?.schema === schema ? t.writes.get(table) : undefined
    if (count !== undefined) {
      sum += count
      continue
    }
    if (unkeepable(client)) return undefined
    if (!t) {
      const state: Tracked = (t = { schema, writes: new Map(), kept: new Map() })
      client.function(COUNT_FN, { deterministic: false }, (name: unknown) => {
        const n = state.writes.get(name as string)
        if (n !== undefined) state.writes.set(name as string, n + 1)
        return null
      })
      tracked.set(client, t)
    } else if (t.schema !== schema) {
      // Triggers may be gone with a dropped table: nothing kept so far is trusted, every table is set up again.
      t.kept.clear()
      t.writes.clear()
      t.schema = schema
    }
    // Temp DDL: the main schema cookie stays as read. Nothing of this table is kept yet, so counting starts at 0.
    client.exec(triggersSql(table))
    t.writes.set(table, 0)
  }
  return sum
}

/**
 * The schema cookie's statement, compiled once per connection outside the statement cache (whose every hand-out
 * resets the statement's modes): read on every kept value's use.
 */
const probes = new WeakMap<Database.Database, Database.Statement>()
function schemaProbe(client: Database.Database): Database.Statement {
  let probe = probes.get(client)
  if (!probe) probes.set(client, (probe = Database.prototype.prepare.call(client, SCHEMA_SQL).pluck()))
  return probe
}

function setUp(t: Tracked | undefined, tables: readonly string[]): boolean {
  if (!t) return false
  for (const table of tables) if (!t.writes.has(table)) return false
  return true
}

/** A seal for kept rows: each row and the list frozen, so that no caller can change what the next one reads. */
export function freezeRows(rows: readonly object[]): void {
  for (const row of rows) Object.freeze(row)
  Object.freeze(rows)
}

/**
 * `read()`, or the value it gave when last called with this key while `table` was unwritten since. `read` must be a
 * pure read of `table` (and of nothing else that can change) and its result must not be modified by callers;
 * `seal` (Object.freeze, say) runs on a value before it is kept, and only then.
 */
export function keptWhileUnwritten<T>(
  client: Database.Database,
  table: string,
  key: string,
  read: () => T,
  seal?: (value: T) => void,
): T {
  const writes = writeCount(client, [table])
  if (writes === undefined) return read()
  return keptAt(client, writes, `${table}\u0000${key}`, read, seal)
}

/**
 * `keptWhileUnwritten` over several tables (one schema cookie read for all): `read()`'s value, kept while none of
 * `tables` is written. Undefined, without calling `read`, where nothing could be kept (a file-backed connection; a
 * held world, whose triggers are never set up), so that the caller reads its own way. `read` never gives undefined.
 */
export function keptWhileAllUnwritten<T>(
  client: Database.Database,
  tables: readonly string[],
  key: string,
  read: () => T,
  seal?: (value: T) => void,
): T | undefined {
  const writes = writeCount(client, tables)
  if (writes === undefined) return undefined
  // Led by U+0001, which no table name starts with: never the key of a one-table value.
  return keptAt(client, writes, `\u0001${tables.join('\u0000')}\u0001${key}`, read, seal)
}

function keptAt<T>(
  client: Database.Database,
  writes: number,
  key: string,
  read: () => T,
  seal: ((value: T) => void) | undefined,
): T {
  const t = tracked.get(client)!
  const kept = t.kept.get(key)
  if (kept && kept.writes === writes) return kept.value as T
  const value = read()
  if (!unkeepable(client)) {
    seal?.(value)
    if (!kept && t.kept.size >= MAX_KEPT) t.kept.clear()
    t.kept.set(key, { writes, value })
  }
  return value
}
