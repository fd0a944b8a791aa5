import Database from 'better-sqlite3'

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
 * The triggers noting each row a statement writes in `table`: an insert its new rowid, a delete its old one, an
 * update both (a rowid can change). A row a REPLACE deletes fires no trigger (recursive_triggers is off): readers
 * learn the rows that remain from the table itself, never from the notes alone. Each as the schema row that
 * `CREATE TEMP TRIGGER <rest>` leaves in `temp.sqlite_master`: its `sql` is `CREATE TRIGGER <rest>`.
 */
function noteTriggers(table: string): TriggerRow[] {
  // Noted in lower case, as SQL names the table whatever its case (readers look it up so).
  const name = `'${table.toLowerCase().replace(/'/g, "''")}'`
  const note = (rid: string) => `INSERT INTO wsgym_changed VALUES (${name}, ${rid});`
  const trigger = (op: string, body: string): TriggerRow => {
    const trigger = `wsgym_${op[0]}_${table}`
    return [trigger, table, `CREATE TRIGGER ${ident(trigger)} AFTER ${op} ON main.${ident(table)} BEGIN ${body} END`]
  }
  return [
    trigger('INSERT', note('NEW.rowid')),
    trigger('UPDATE', `${note('OLD.rowid')} ${note('NEW.rowid')}`),
    trigger('DELETE', note('OLD.rowid')),
  ]
}

/** The note triggers of every table, as `CREATE TEMP TRIGGER` statements (what installNotes is equivalent to). */
export function noteTriggerStatements(tables: readonly string[]): string[] {
  return tables.flatMap(noteTriggers).map(([, , sql]) => `${sql.replace(/^CREATE TRIGGER/, 'CREATE TEMP TRIGGER')};`)
}

/**
 * The trigger rows of a table set as one JSON array, by the tables' names (all it depends on). Bounded: the
 * server and the gym use one table set; tests a few.
 */
const rowsByTables = new Map<string, string>()
function triggerRowsJson(tables: readonly string[]): string {
  const key = tables.join('\0')
  let json = rowsByTables.get(key)
  if (json) return json
  json = JSON.stringify(tables.flatMap(noteTriggers))
  if (rowsByTables.size >= 8) rowsByTables.delete(rowsByTables.keys().next().value!)
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
 * which SQLite counts as changes (total_changes) where the DDL's own writes are not counted.
 */
export function installNotes(sqlite: Database.Database): number {
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
  if (after !== before + tables.length * 3) throw new Error('held world: the note triggers were not all installed')
  return changes
}
