import Database from 'better-sqlite3'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import type { SQLiteTable } from 'drizzle-orm/sqlite-core'
import { coreTables } from './world-tables.ts'
import { createTableSql } from './ddl.ts'
import { cacheStatements, type Db } from './db.ts'
import { trackSnapshotImage } from './snapshot-memory.ts'

/** The bytes of a whole world database: every service's rows, counters, clock and action log. */
export type Snapshot = { readonly bytes: Buffer }

/**
 * One simulated workspace: every service's state in one SQLite database (in memory unless a file
 * path is given). Read `db` on each use: `restore()` swaps the connection underneath.
 */
export class World {
  #sqlite!: Database.Database
  #db!: Db
  #run!: <T>(fn: (db: Db) => T) => T
  readonly #file: string | undefined
  /**
   * The image this connection's contents equal, with the connection's change stamp when they last did: a world
   * not written since its last snapshot or in-memory restore snapshots to that image again without serializing.
   * Held weakly: the world does not keep an image alive that no snapshot, template or baseline holds.
   */
  #image: { bytes: WeakRef<Buffer>; stamp: string } | undefined

  private constructor(sqlite: Database.Database, file?: string, image?: Buffer) {
    this.#file = file
    this.#attach(configure(sqlite, file))
    if (image) this.#image = { bytes: new WeakRef(image), stamp: this.#stamp() }
  }

  /**
   * What changes when the database does: rows written by this connection (inserts, updates, deletes, triggers
   * included, even when rolled back), the schema cookie (DDL), the user version, and commits by any other
   * connection to a world's file (data_version). A new connection counts from zero, so the stamp is only compared
   * on one connection.
   */
  #stamp(): string {
    const sql = `/* change stamp */ SELECT total_changes(), (SELECT schema_version FROM pragma_schema_version),
      (SELECT user_version FROM pragma_user_version), (SELECT data_version FROM pragma_data_version)`
    return (this.#sqlite.prepare(sql).raw().get() as number[]).join(',')
  }

  /** Binds the drizzle handle and the (once-compiled) transaction runner to a connection. */
  #attach(sqlite: Database.Database) {
    this.#sqlite = cacheStatements(sqlite)
    this.#db = drizzle({ client: sqlite }) as unknown as Db
    const runner = sqlite.transaction((fn: (db: Db) => unknown) => fn(this.#db))
    this.#run = runner as unknown as <T>(fn: (db: Db) => T) => T
  }

  /** A new, empty world with the core tables and the given service tables created. */
  static create(tables: readonly SQLiteTable[], file?: string): World {
    const world = new World(new Database(file ?? ':memory:'), file)
    const ddl = [...coreTables, ...tables].flatMap((t) => createTableSql(t))
    world.#sqlite.transaction(() => {
      for (const statement of ddl) world.#sqlite.exec(statement)
    })()
    return world
  }

  /** An independent in-memory world holding exactly the snapshot's contents. */
  static from(snapshot: Snapshot): World {
    return new World(new Database(snapshot.bytes), undefined, snapshot.bytes)
  }

  /** Reopens a file-backed world written by an earlier process. */
  static open(file: string): World {
    return new World(new Database(file), file)
  }

  get db(): Db {
    return this.#db
  }

  /** The raw better-sqlite3 connection, for core code that needs prepared statements or pragmas. */
  get sqlite(): Database.Database {
    return this.#sqlite
  }

  get file(): string | undefined {
    return this.#file
  }

  /** Runs `fn` in one SQLite transaction (nested calls become savepoints). `fn` must not await. */
  tx<T>(fn: (db: Db) => T): T {
    return this.#run(fn)
  }

  /**
   * The world's bytes. Unchanged since the last snapshot or in-memory restore, it is that image again (shared, not
   * copied: snapshot images are never written to); otherwise the database is serialized.
   */
  snapshot(): Snapshot {
    const stamp = this.#stamp()
    const same = this.#image?.stamp === stamp ? this.#image.bytes.deref() : undefined
    if (same) return { bytes: same }
    const bytes = this.#sqlite.serialize()
    // A WAL-mode image says so in its header (bytes 18-19 = 2); an in-memory database cannot open
    // that, so snapshots always carry the rollback-journal marker.
    if (bytes[18] === 2) bytes[18] = bytes[19] = 1
    trackSnapshotImage(bytes)
    this.#image = { bytes: new WeakRef(bytes), stamp }
    return { bytes }
  }

  /** Replaces every table of this world with the snapshot's contents, losslessly. */
  restore(snapshot: Snapshot): void {
    const next = this.#file ? reopenFileFrom(this.#sqlite, this.#file, snapshot) : new Database(snapshot.bytes)
    if (!this.#file) this.#sqlite.close()
    this.#attach(configure(next, this.#file))
    // A file-backed world is rebuilt row by row (its bytes differ from the image); an in-memory one is the image.
    this.#image = this.#file ? undefined : { bytes: new WeakRef(snapshot.bytes), stamp: this.#stamp() }
  }

  /** An independent in-memory copy. */
  fork(): World {
    return World.from(this.snapshot())
  }

  close(): void {
    if (this.#sqlite.open) this.#sqlite.close()
  }
}

function configure(sqlite: Database.Database, file?: string): Database.Database {
  if (file) {
    sqlite.pragma('journal_mode = WAL')
    // FULL: a write acknowledged to a client survives a crash of the process or the machine.
    sqlite.pragma('synchronous = FULL')
  }
  return sqlite
}

/** File-backed restore: copy the snapshot into the file through SQLite itself, inside one transaction. */
function reopenFileFrom(current: Database.Database, file: string, snapshot: Snapshot): Database.Database {
  const source = new Database(snapshot.bytes)
  const tables = (db: Database.Database) =>
    db.prepare("SELECT name, sql FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'").all() as {
      name: string
      sql: string
    }[]
  const indexes = source
    .prepare("SELECT sql FROM sqlite_master WHERE type='index' AND sql IS NOT NULL")
    .all() as { sql: string }[]
  current.transaction(() => {
    for (const t of tables(current)) current.exec(`DROP TABLE "${t.name}"`)
    for (const t of tables(source)) {
      current.exec(t.sql)
      const rows = source.prepare(`SELECT * FROM "${t.name}"`).raw().all() as unknown[][]
      if (rows.length === 0) continue
      const width = rows[0]!.length
      const insert = current.prepare(`INSERT INTO "${t.name}" VALUES (${Array(width).fill('?').join(',')})`)
      for (const row of rows) insert.run(...row)
    }
    for (const i of indexes) current.exec(i.sql)
  })()
  source.close()
  void file
  return current
}
