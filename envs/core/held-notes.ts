import Database from 'better-sqlite3'
import { BoundedMap } from './bounded-map.ts'

/**
 * The notes of a held world (World.hold): one row per row a statement wrote (table and rowid), written by TEMP
 * triggers (outside the world's bytes). No constraint, so a conflict policy of the statement that fires the trigger
 * (`INSERT OR …`, an upsert) can never make a note fail or be skipped, and no index or duplicate check: a row written
 * twice is noted twice (readers ask for distinct names, and for rowids through IN or a Set; 0323).
 */
const CHANGED_DDL = 'CREATE TEMP TABLE wsgym_changed (name TEXT, rid INTEGER)'
export const CHANGED_TABLES_SQL = 'SELECT DISTINCT name FROM temp.wsgym_changed'
/** The rowids written in one table since hold() (the table's name as a parameter); see World.heldWrites. */
export const CHANGED_ROWIDS_SQL = 'SELECT rid FROM temp.wsgym_changed WHERE name = ?'

/** The temp schema's rows of one note trigger: name, table, and the text SQLite keeps for it. */
type TriggerRow = readonly [name: string, table: string, sql: string]

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`

/**
 * Tables every agent request writes (the clock's upsert, the action log's insert), whose writes no trigger notes:
 * a statement that fires a trigger runs with a statement journal, which copies each page it writes and then walks
 * the connection's whole sub-journal (every page copy an open savepoint holds), so with the validation chain's
 * savepoints these two statements cost about twice as much as without (docs/decisions/0346). Their writes are told
 * from their contents instead (World.heldWrites): `contents` is an SQL expression of a table's contents that differs
 * whenever a write left out (`unnoted`) changed them. world_meta: every row (rowid, key, value), quoted; the action
 * log: its row count (its updates and deletes are still noted, so only inserts change it unseen). Their rowids are
 * never noted: readers must not take the notes for their rows (rowsNoted).
 */
const UNNOTED: Readonly<Record<string, { unnoted: readonly string[]; contents: string }>> = {
  world_meta: {
    unnoted: ['INSERT', 'UPDATE', 'DELETE'],
    contents:
      "(SELECT group_concat(quote(rowid) || ',' || quote(key) || ',' || quote(value), ';' ORDER BY rowid) " +
      'FROM world_meta)',
  },
  world_action_log: { unnoted: ['INSERT'], contents: '(SELECT count(*) FROM world_action_log)' },
}

/** False for a table some of whose written rows no trigger notes (their rowids must not be read from the notes). */
export function rowsNoted(table: string): boolean {
  return !Object.hasOwn(UNNOTED, table.toLowerCase())
}

/**
 * The triggers noting each row a statement writes in `table`: an insert its new rowid, a delete its old one, an
 * update both (a rowid can change); none for the writes UNNOTED leaves out. A row a REPLACE deletes fires no trigger
 * (recursive_triggers is off): readers learn the rows that remain from the table itself, never from the notes alone.
 * Each as the schema row that `CREATE TEMP TRIGGER <rest>` leaves in `temp.sqlite_master`: its `sql` is
 * `CREATE TRIGGER <rest>`.
 */
function noteTriggers(table: string): TriggerRow[] {
  // Noted in lower case, as SQL names the table whatever its case (readers look it up so).
  const name = `'${table.toLowerCase().replace(/'/g, "''")}'`
  const note = (rid: string) => `INSERT INTO wsgym_changed VALUES (${name}, ${rid});`
  const trigger = (op: string, body: string): TriggerRow => {
    const trigger = `wsgym_${op[0]}_${table}`
    return [trigger, table, `CREATE TRIGGER ${ident(trigger)} AFTER ${op} ON main.${ident(table)} BEGIN ${body} END`]
  }
  const bodies = {
    INSERT: note('NEW.rowid'),
    UPDATE: `${note('OLD.rowid')} ${note('NEW.rowid')}`,
    DELETE: note('OLD.rowid'),
  }
  const unnoted = Object.hasOwn(UNNOTED, table) ? UNNOTED[table]!.unnoted : []
  return OPS.filter((op) => !unnoted.includes(op)).map((op) => trigger(op, bodies[op]))
}

const OPS = ['INSERT', 'UPDATE', 'DELETE'] as const

/**
 * What tells the writes no trigger notes (UNNOTED) among `tables`: one statement whose row has, per such table, a
 * value that changes whenever those writes change the table's contents; undefined when no such table exists.
 */
export type UnnotedProbe = { sql: string; tables: readonly string[] }
function unnotedProbe(tables: readonly string[]): UnnotedProbe | undefined {
  const present = tables.filter((t) => Object.hasOwn(UNNOTED, t))
  if (present.length === 0) return undefined
  return { sql: `SELECT ${present.map((t) => UNNOTED[t]!.contents).join(', ')}`, tables: present }
}

/** The note triggers of every table, as `CREATE TEMP TRIGGER` statements (what installNotes is equivalent to). */
export function noteTriggerStatements(tables: readonly string[]): string[] {
  return tables.flatMap(noteTriggers).map(([, , sql]) => `${sql.replace(/^CREATE TRIGGER/, 'CREATE TEMP TRIGGER')};`)
}

/**
 * The trigger rows of a table set as one JSON array, by the tables' names (all it depends on). Bounded: the
 * server and the gym use one table set; tests a few.
 */
const rowsByTables = new BoundedMap<string, string>(8)
function triggerRowsJson(tables: readonly string[]): string {
  const key = tables.join('\0')
  let json = rowsByTables.get(key)
  if (json) return json
  json = JSON.stringify(tables.flatMap(noteTriggers))
  rowsByTables.set(key, json)
  return json
}

const TABLES_SQL = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
const INSERT_ROWS_SQL = `INSERT INTO temp.sqlite_master (type, name, tbl_name, rootpage, sql)
  SELECT 'trigger', value ->> 0, value ->> 1, 0, value ->> 2 FROM json_each(?)`
const TEMP_VERSION_SQL = 'PRAGMA temp.schema_version'
const TEMP_TRIGGERS_SQL = "SELECT count(*) FROM temp.sqlite_master WHERE type = 'trigger'"

/**
 * Creates the notes table and the note triggers of every table of the main database on this connection
 * (docs/decisions/0340). The same temp schema as running noteTriggerStatements, at a fifth of the cost: each
 * `CREATE TEMP TRIGGER` compiles its statement, a nested insert into the schema table, a query finding the new row
 * (a scan) and the trigger's text again, in a transaction of its own. Instead the rows go into `temp.sqlite_master`
 * in one statement (PRAGMA writable_schema, which needs better-sqlite3's unsafe mode: SQLite's defensive flag off,
 * for this call only) and the temp schema's version moves on, as DDL moves it, so that SQLite reads that schema
 * again, parsing each trigger once. The statement after the move reads the temp schema: its version check is what
 * makes SQLite read it again before any other statement compiles (a statement on main tables alone does not check
 * temp's version, and would compile without the triggers). Moving the version also expires every statement compiled
 * before, as DDL does, so that none writes without the triggers. Returns the rows written to the schema table,
 * which SQLite counts as changes (total_changes) where the DDL's own writes are not counted, and the probe of the
 * writes no trigger notes (UNNOTED).
 */
export function installNotes(sqlite: Database.Database): { changes: number; probe: UnnotedProbe | undefined } {
  const prepare = (sql: string) => Database.prototype.prepare.call(sqlite, sql)
  const tables = prepare(TABLES_SQL).pluck().all() as string[]
  const rows = triggerRowsJson(tables)
  sqlite.exec(CHANGED_DDL)
  const before = prepare(TEMP_TRIGGERS_SQL).pluck().get() as number
  const version = prepare(TEMP_VERSION_SQL).pluck().get() as number
  let changes = 0
  sqlite.unsafeMode(true)
  try {
    sqlite.exec('PRAGMA writable_schema = ON')
    changes = prepare(INSERT_ROWS_SQL).run(rows).changes
    sqlite.exec(`PRAGMA temp.schema_version = ${version + 1}`)
  } finally {
    try {
      sqlite.exec('PRAGMA writable_schema = OFF')
    } finally {
      sqlite.unsafeMode(false)
    }
  }
  const after = prepare(TEMP_TRIGGERS_SQL).pluck().get() as number
  if (after !== before + triggerCount(tables)) throw new Error('held world: the note triggers were not all installed')
  return { changes, probe: unnotedProbe(tables) }
}

const triggerCount = (tables: readonly string[]) =>
  tables.reduce((n, t) => n + 3 - (Object.hasOwn(UNNOTED, t) ? UNNOTED[t]!.unnoted.length : 0), 0)
