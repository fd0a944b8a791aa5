import Database from 'better-sqlite3'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import { getTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core'
import { coreTables } from './world-tables.ts'
import { createTableSql } from './ddl.ts'
import { cacheStatements, failFastWrites, type Db } from './db.ts'
import { CHANGED_TABLES_SQL, installNotes, type UnnotedProbe } from './held-notes.ts'
import { trackSnapshotImage } from './snapshot-memory.ts'
import { BoundedMap } from './bounded-map.ts'
import { forgetKept, keepInTransaction } from './write-epoch.ts'

/** The bytes of a whole world database: every service's rows, counters, clock and action log. */
export type Snapshot = { readonly bytes: Buffer }

/**
 * A batched world (World.batchWrites) whose open transaction SQLite rolled back whole (SQLITE_FULL, NOMEM, IOERR):
 * the writes of requests already answered are gone, so the world refuses every use until it is restored.
 */
export class WorldLostWrites extends Error {
  override readonly name = 'WorldLostWrites'
}

/**
 * Batched worlds up to this size only (page count times page size, uncommitted pages included): an in-memory
 * database refuses to grow past 1 GiB (SQLite's memdb default), and the error rolls the whole open transaction back.
 * A world this far from the cap commits before each request instead, as an unbatched one does.
 */
export const BATCH_MAX_BYTES = 512 * 1024 * 1024

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
  /** Held open for reuse (hold()): every write since is in one open transaction that rewind() undoes. */
  #held = false
  /** Held for an agent's episode (hold(true)): risky requests release the hold first, a lost transaction refuses. */
  #guarded = false
  #tracking = false
  /** Rows this connection wrote that are no world's rows (the note triggers' schema rows): left out of the stamp. */
  #uncounted = 0
  /**
   * The contents the world was held at, as an identity (heldWrites): a new object at each hold() unless the world
   * was rewound to exactly the contents of the last one and nothing has been written since (the change stamp then).
   */
  #holdBase: { base: object; rewound?: string } | undefined
  /** Both schema cookies (main, temp) at hold(): DDL since (a table dropped and made again) voids the notes. */
  #holdSchema = ''
  /** The tables written since hold(), at the connection's change count they were read at. */
  #written: { changes: number; tables: ReadonlySet<string> } | undefined
  /** heldWrites' probes, compiled once per connection (outside the statement cache: their modes never change). */
  #probes: { changes: Database.Statement; main: Database.Statement; temp: Database.Statement } | undefined
  /**
   * The writes no trigger notes (held-notes.ts UNNOTED: the clock's and the action log's): the probe of their tables'
   * contents, compiled once per connection, and what it read at hold().
   */
  #unnoted: Unnoted | undefined
  /** Called before any use of the database while set (gym/shared-prefix.ts: a replayed episode catches up first). */
  #beforeUse: (() => void) | undefined
  /** The statements of each savepoint name used, compiled once per connection (savepoint(), rollbackTo()). */
  #savepoints = new Map<string, SavepointStatements>()
  /** Requests' writes batched into one open transaction (batchWrites()); undefined when every write commits. */
  #batch: Batch | undefined
  /** The page size and count statements of a guarded hold (#guardHold), compiled on its first request. */
  #sizes: BatchStatements | undefined
  /** tx() calls running (a batched world keeps values read at its transaction's top level only, write-epoch.ts). */
  #txDepth = 0
  /** Why a batched world lost the writes of answered requests (WorldLostWrites); cleared by restore(). */
  #lost: string | undefined

  private constructor(sqlite: Database.Database, file?: string, image?: Buffer) {
    this.#file = file
    this.#attach(configure(sqlite, file))
    if (image) this.#image = { bytes: new WeakRef(image), stamp: this.#openedStamp(image) }
  }

  /**
   * What changes when the database does: rows written by this connection (inserts, updates, deletes, triggers
   * included, even when rolled back), the schema cookie (DDL), the user version, and commits by any other
   * connection to a world's file (data_version; an in-memory world has no other connection). A new connection
   * counts from zero, so the stamp is only compared on one connection. Installing the notes (hold) is no change.
   */
  #stamp(): string {
    const sql = this.#file ? FILE_STAMP_SQL : MEMORY_STAMP_SQL
    const stamp = this.#sqlite.prepare(sql).raw().get() as number[]
    stamp[0]! -= this.#uncounted
    return stamp.join(',')
  }

  /**
   * The stamp of an in-memory connection just opened on `image`, read from the image's header instead of a query:
   * nothing has run on the connection (no change counted), and the schema cookie (offset 40) and user version (60)
   * are what the pragmas would read. Preparing any statement would load the whole schema (176 objects, about a
   * millisecond), which a restored world otherwise only pays on its first request.
   */
  #openedStamp(image: Buffer): string {
    if (this.#file || image.length < 100) return this.#stamp()
    return `0,${image.readInt32BE(40)},${image.readInt32BE(60)}`
  }

  /** Binds the drizzle handle and the (once-compiled) transaction runner to a connection. */
  #attach(sqlite: Database.Database) {
    // A new connection has no notes table or triggers yet (they are TEMP: per connection).
    this.#holdBase = this.#written = this.#probes = this.#unnoted = undefined
    this.#tracking = false
    this.#uncounted = 0
    this.#savepoints = new Map()
    this.#txDepth = 0
    this.#lost = undefined
    this.#sizes = undefined
    this.#sqlite = cacheStatements(sqlite)
    if (this.#batch) {
      this.#batch = { limit: this.#batch.limit, open: false, requests: 0, risky: this.#batch.risky }
      keepInTransaction(sqlite, this.#keepable)
    }
    this.#db = drizzle({ client: sqlite }) as unknown as Db
    const runner = sqlite.transaction((fn: (db: Db) => unknown) => fn(this.#db))
    this.#run = runner as unknown as <T>(fn: (db: Db) => T) => T
  }

  /**
   * A new, empty world with the core tables and the given service tables created. In memory, it opens a copy of the
   * empty-schema image of those tables (made once per process and table set) instead of running the DDL again.
   */
  static create(tables: readonly SQLiteTable[], file?: string): World {
    const ddl = [...coreTables, ...tables].flatMap(tableDdl)
    if (!file) return new World(new Database(emptySchemaImage(ddl)))
    const world = new World(new Database(file), file)
    runDdl(world.#sqlite, ddl)
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

  /**
   * Columns the given tables' current definitions (and the core tables') have that this database lacks, as
   * `table.column`: a world file written by an older build can lack a column added since, and every query naming
   * it would fail. Empty when the file matches this build.
   */
  missingColumns(tables: readonly SQLiteTable[]): string[] {
    const columnsOf = this.#sqlite.prepare('SELECT name FROM pragma_table_info(?)').pluck()
    return [...coreTables, ...tables].flatMap((table) => {
      const cfg = getTableConfig(table)
      const have = new Set(columnsOf.all(cfg.name) as string[])
      return cfg.columns.filter((c) => !have.has(c.name)).map((c) => `${cfg.name}.${c.name}`)
    })
  }

  get db(): Db {
    this.#beforeUse?.()
    return this.#db
  }

  /** The raw better-sqlite3 connection, for core code that needs prepared statements or pragmas. */
  get sqlite(): Database.Database {
    this.#beforeUse?.()
    return this.#sqlite
  }

  get file(): string | undefined {
    return this.#file
  }

  /** Runs `fn` in one SQLite transaction (nested calls become savepoints). `fn` must not await. */
  tx<T>(fn: (db: Db) => T): T {
    this.#beforeUse?.()
    if (!this.#batch) return this.#run(fn)
    this.#txDepth++
    try {
      return this.#run(fn)
    } finally {
      this.#txDepth--
    }
  }

  /**
   * Batches the writes of agent requests (requestStarted/requestEnded): up to `limit` requests run in one open
   * transaction, each one's own transactions savepoints inside it, and COMMIT runs once for them, or before anything
   * reads the world's bytes (snapshot, imageSize, fork, hold) and before a risky request. In-memory worlds only:
   * nothing else reads them, so no write is less durable than before (docs/decisions/0419).
   */
  batchWrites(limit: number): void {
    if (this.#file) throw new Error('only in-memory worlds batch their writes')
    this.#batch = { limit, open: false, requests: 0, risky: 0 }
    keepInTransaction(this.#sqlite, this.#keepable)
  }

  /** Batched (batchWrites) and not held: its agent requests go through requestStarted/requestEnded. */
  get batching(): boolean {
    return this.#batch !== undefined && !this.#held
  }

  /** Whether a request's riskiness matters to this world: batched, or held for an agent (hold(true)). */
  get watchesRisk(): boolean {
    return this.#held ? this.#guarded : this.#batch !== undefined
  }

  /**
   * A request of a world held for an agent: a risky one (an upload, a large body) or any writing request of a world
   * near memdb's cap ends the hold first (release()), as a batched world commits, so that no failure SQLite answers
   * by rolling the whole transaction back can take the episode's earlier writes (and their action log) with it.
   */
  #guardHold(risky: boolean, read: boolean): void {
    if (!this.#guarded) return
    if (!this.#sqlite.inTransaction) this.#lose('its open transaction was rolled back')
    const sizes = (this.#sizes ??= batchStatements(this.#sqlite))
    if (risky || (!read && (sizes.pageCount.get() as number) * sizes.pageSize > BATCH_MAX_BYTES)) this.release()
  }

  /** A batched world may keep values read inside its open transaction only outside every tx() (write-epoch.ts). */
  readonly #keepable = () => this.#batch?.open === true && this.#txDepth === 0 && !this.#held

  /**
   * An agent request begins: a batched world opens (or goes on in) its batch transaction, unless the request is
   * `risky` (an upload, a batch of calls, a large body: it may grow the world by more than a batch can afford to
   * lose) or the world is near memdb's cap, when it commits first and the request runs as in an unbatched world.
   * A `read` (GET, HEAD) writes only the clock's and the action log's rows: the world's size is not read for it.
   * Throws WorldLostWrites once the batch was lost.
   */
  requestStarted(risky: boolean, read = false): void {
    this.#checkLost()
    if (this.#held) return this.#guardHold(risky, read)
    const batch = this.#batch
    if (!batch) return
    if (batch.open && !this.#sqlite.inTransaction) this.#lose('its open transaction was rolled back')
    const statements = (batch.statements ??= batchStatements(this.#sqlite))
    const large = !read && (statements.pageCount.get() as number) * statements.pageSize > BATCH_MAX_BYTES
    // While a risky request is under way (it awaits its body), no request opens a batch its writes would join.
    if (risky || batch.risky > 0 || large) {
      this.commitWrites()
      if (risky) batch.risky++
      return
    }
    if (batch.open) return
    statements.begin.run()
    batch.open = true
  }

  /**
   * An agent request ended (answered; `risky` as it started): every `limit` requests the batch commits. Never throws;
   * see lostWrites.
   */
  requestEnded(risky: boolean): void {
    if (this.#held && this.#guarded && !this.#lost && !this.#sqlite.inTransaction)
      return void this.#markLost('its open transaction was rolled back')
    const batch = this.#batch
    if (batch && risky && batch.risky > 0) batch.risky--
    if (!batch?.open || this.#lost) return
    if (!this.#sqlite.inTransaction) return void this.#markLost('its open transaction was rolled back')
    if (++batch.requests < batch.limit) return
    try {
      this.commitWrites()
    } catch {
      // Recorded in lostWrites: the request's answer is replaced by the caller.
    }
  }

  /** Why this batched world lost answered requests' writes (it then refuses every use until restored). */
  get lostWrites(): string | undefined {
    return this.#lost
  }

  /** Commits a batched world's open transaction now (before its bytes are read). Throws WorldLostWrites. */
  commitWrites(): void {
    this.#checkLost()
    const batch = this.#batch
    if (!batch?.open) return
    if (!this.#sqlite.inTransaction) this.#lose('its open transaction was rolled back')
    try {
      batch.statements!.commit.run()
    } catch (err) {
      if (this.#sqlite.inTransaction) this.#sqlite.exec('ROLLBACK')
      this.#lose(`its commit failed (${(err as Error).message})`)
    }
    batch.open = false
    batch.requests = 0
  }

  #checkLost(): void {
    if (this.#lost) throw new WorldLostWrites(this.#lost)
  }

  #lose(why: string): never {
    throw new WorldLostWrites(this.#markLost(why))
  }

  /** Marks the batch (or the hold) lost: values kept from its rows are forgotten, and every later use refuses. */
  #markLost(why: string): string {
    const batch = this.#batch
    const lost = this.#held
      ? 'every write since it was held'
      : `the writes of up to ${batch!.requests + 1} answered requests`
    const message = `this world lost ${lost}: ${why}. Restore a snapshot (or its baseline) or delete it.`
    if (batch) {
      batch.open = false
      batch.requests = 0
    }
    forgetKept(this.#sqlite)
    this.#lost = message
    return message
  }

  /**
   * Runs `hook` before every later use of the database (`db`, `sqlite`, `tx`, the held-write notes) until it is
   * replaced or cleared; the hook itself reaches the database through `raw`, which never calls it.
   */
  setBeforeUse(hook: (() => void) | undefined): void {
    this.#beforeUse = hook
  }

  /** The connection without the before-use hook (for the hook itself and for code that installed it). */
  get raw(): Database.Database {
    return this.#sqlite
  }

  /**
   * Marks the current contents of a held world under `name` (an SQLite savepoint inside the held transaction), so
   * that `rollbackTo(name)` can return to them; rewind() still returns to the contents at hold().
   */
  savepoint(name: string): void {
    if (!this.#held || !this.#sqlite.inTransaction) throw new Error('only a held world takes savepoints')
    this.#savepointStatements(name).take.run()
  }

  /**
   * Undoes every write since `savepoint(name)` (the savepoint stays, later ones are gone). The savepoint is then
   * released and taken again at the same contents: SQLite's ROLLBACK TO keeps every page copy in the in-memory
   * sub-journal (1 KiB chunks in a list), including those only later savepoints needed, and every statement that
   * fires a note trigger truncates that list by walking it from its head. A RELEASE drops the copies taken since the
   * savepoint whenever no outer savepoint still needs them (always for the outermost), so the list stays as long as
   * one episode's writes instead of growing with every episode rolled back (docs/decisions/0336).
   */
  rollbackTo(name: string): void {
    if (!this.#held || !this.#sqlite.inTransaction) throw new Error('only a held world rolls back to a savepoint')
    const statements = this.#savepointStatements(name)
    // Most savepoints are only taken (an episode rolls back to few of them): these two are compiled on first use.
    statements.rollback ??= this.#prepareRaw(`ROLLBACK TO ${statements.quoted}`)
    statements.release ??= this.#prepareRaw(`RELEASE ${statements.quoted}`)
    statements.rollback.run()
    statements.release.run()
    statements.take.run()
    // The change count never goes down, so the tables noted at the current count may include undone writes.
    this.#written = undefined
  }

  /**
   * Holds the world open for reuse (the gym's validation runs many episodes of one template on one connection,
   * so statements are compiled once): from now on every write goes into one open transaction, and each row
   * written is noted (TEMP triggers, outside the world's bytes: table and rowid; the clock's and the action log's
   * writes are told from their contents instead, held-notes.ts UNNOTED) for `changedTables` and `heldWrites`.
   * `rewind()` undoes it all, notes included. A held world cannot be snapshotted or restored (its bytes are not
   * committed).
   */
  hold(guarded = false): void {
    if (this.#held) throw new Error('world is already held')
    if (this.#file) throw new Error('only in-memory worlds can be held')
    this.commitWrites()
    if (!this.#tracking) {
      failFastWrites(this.#sqlite)
      const notes = installNotes(this.#sqlite)
      this.#uncounted += notes.changes
      this.#unnoted = notes.probe && this.#unnotedOf(notes.probe)
      this.#tracking = true
    }
    if (this.#unnoted) this.#unnoted.atHold = this.#unnoted.probe.get() as unknown[]
    const stamp = this.#stamp()
    if (this.#holdBase?.rewound !== stamp) this.#holdBase = { base: {} }
    this.#holdSchema = this.#schemaCookies()
    this.#written = undefined
    this.#sqlite.exec('BEGIN')
    this.#held = true
    this.#guarded = guarded
  }

  /**
   * Ends a hold and keeps what was written since: the open transaction commits, and the world goes on as an ordinary
   * one that can be snapshotted, forked and restored (rewind() then has nothing to undo, so its manager closes it
   * rather than reusing it). Its note triggers stay (TEMP, outside its bytes). A guarded hold whose transaction SQLite
   * rolled back is lost instead (WorldLostWrites): committing would keep a world without the episode's writes.
   */
  release(): void {
    if (!this.#held) return
    if (!this.#sqlite.inTransaction) {
      if (this.#guarded && !this.#lost) this.#lose('its open transaction was rolled back')
    } else this.#sqlite.exec('COMMIT')
    this.#held = this.#guarded = false
    this.#written = this.#holdBase = undefined
  }

  /** True while held (between hold() and rewind()). */
  get held(): boolean {
    return this.#held
  }

  /**
   * The tables written since hold(), in lower case (undefined when not held, or when the schema changed since, so
   * that nothing about which tables changed can be known). Throws when the open transaction is gone (SQLite rolled
   * it back on an error): the writes since hold() were lost, so nothing about this world can be trusted.
   */
  changedTables(): Set<string> | undefined {
    if (!this.#held) return undefined
    if (!this.#sqlite.inTransaction) throw new Error('a held world lost its open transaction')
    const written = this.heldWrites()
    return written && new Set(written.tables)
  }

  /**
   * While held with its open transaction and schema intact: `base`, an identity of the contents at hold() (the
   * same object again after rewind() and a new hold() of the same contents), and the tables written since; the
   * rowids written in a table are `SELECT rid FROM temp.wsgym_changed WHERE name = ?` (CHANGED_ROWIDS_SQL,
   * envs/core/held-notes.ts; a rowid written twice comes twice). Undefined otherwise: readers must then read
   * everything.
   */
  heldWrites(): { base: object; tables: ReadonlySet<string> } | undefined {
    this.#beforeUse?.()
    const sqlite = this.#sqlite
    if (!this.#held || !sqlite.inTransaction || this.#schemaCookies() !== this.#holdSchema) return undefined
    const changes = this.#probe().changes.get() as number
    if (this.#written?.changes !== changes) {
      const tables = new Set(sqlite.prepare(CHANGED_TABLES_SQL).pluck().all() as string[])
      const unnoted = this.#unnoted
      if (unnoted) {
        const now = unnoted.probe.get() as unknown[]
        for (let i = 0; i < now.length; i++) if (now[i] !== unnoted.atHold[i]) tables.add(unnoted.tables[i]!)
      }
      this.#written = { changes, tables }
    }
    return { base: this.#holdBase!.base, tables: this.#written.tables }
  }

  /**
   * The connection's count of rows written (inserts, updates, deletes, triggers included, even when rolled back):
   * SQLite's total_changes(), through a statement compiled once per connection.
   */
  changeCount(): number {
    return this.#probe().changes.get() as number
  }

  /**
   * SAVEPOINT of one name, prepared on first use (names recur: shared_0, shared_1…), with its ROLLBACK TO and
   * RELEASE once rollbackTo() needs them.
   */
  #savepointStatements(name: string): SavepointStatements {
    let statements = this.#savepoints.get(name)
    if (!statements) {
      const quoted = `"${name.replace(/"/g, '""')}"`
      // A caller inventing names must not grow this forever (the statements are cheap to compile again).
      if (this.#savepoints.size >= MAX_SAVEPOINT_NAMES) this.#savepoints.clear()
      statements = { quoted, take: this.#prepareRaw(`SAVEPOINT ${quoted}`) }
      this.#savepoints.set(name, statements)
    }
    return statements
  }

  /** A statement outside the statement cache (and the before-use hook). */
  #prepareRaw(sql: string): Database.Statement {
    return Database.prototype.prepare.call(this.#sqlite, sql)
  }

  #unnotedOf(probe: UnnotedProbe): Unnoted {
    const statement = Database.prototype.prepare.call(this.#sqlite, probe.sql).raw()
    return { probe: statement, tables: probe.tables.map((t) => t.toLowerCase()), atHold: [] }
  }

  #schemaCookies(): string {
    const probes = this.#probe()
    return `${probes.main.get() as number},${probes.temp.get() as number}`
  }

  #probe() {
    const prepare = (sql: string) => Database.prototype.prepare.call(this.#sqlite, sql).pluck()
    return (this.#probes ??= {
      changes: prepare(TOTAL_CHANGES_SQL),
      main: prepare('PRAGMA main.schema_version'),
      temp: prepare('PRAGMA temp.schema_version'),
    })
  }

  /** Undoes every write since hold(); true when the world is back exactly at that state (and may be held again). */
  rewind(): boolean {
    if (!this.#held) return false
    this.#held = this.#guarded = false
    this.#written = undefined
    if (!this.#sqlite.inTransaction) {
      this.#holdBase = undefined
      return false
    }
    this.#sqlite.exec('ROLLBACK')
    // Back at the held contents: a hold() before any other write holds the same contents again.
    if (this.#holdBase) this.#holdBase.rewound = this.#stamp()
    return true
  }

  /**
   * The world's bytes. Unchanged since the last snapshot or in-memory restore, it is that image again (shared, not
   * copied: snapshot images are never written to); otherwise the database is serialized.
   */
  snapshot(): Snapshot {
    if (this.#held) throw new Error('a held world has no committed bytes to snapshot')
    this.commitWrites()
    const stamp = this.#stamp()
    const same = this.#image?.stamp === stamp ? this.#image.bytes.deref() : undefined
    if (same) return { bytes: same }
    const bytes = this.serialize()
    // A WAL-mode image says so in its header (bytes 18-19 = 2); an in-memory database cannot open
    // that, so snapshots always carry the rollback-journal marker.
    if (bytes[18] === 2) bytes[18] = bytes[19] = 1
    trackSnapshotImage(bytes)
    this.#image = { bytes: new WeakRef(bytes), stamp }
    return { bytes }
  }

  /**
   * The committed bytes of the database (a batched world commits first), with the header's change counter
   * (offsets 24 and 92: how many transactions committed, which batching changes) set to one value: the same
   * requests give the same bytes however their writes were committed.
   */
  serialize(): Buffer {
    this.commitWrites()
    const bytes = this.#sqlite.serialize()
    if (bytes.length >= 100) {
      bytes.writeUInt32BE(IMAGE_CHANGE_COUNTER, 24)
      bytes.writeUInt32BE(IMAGE_CHANGE_COUNTER, 92)
    }
    return bytes
  }

  /** The length `snapshot()` would give (page count times page size), without serializing. */
  imageSize(): number {
    this.commitWrites()
    const sqlite = this.#sqlite
    return (
      (sqlite.pragma('page_count', { simple: true }) as number) *
      (sqlite.pragma('page_size', { simple: true }) as number)
    )
  }

  /** Replaces every table of this world with the snapshot's contents, losslessly. */
  restore(snapshot: Snapshot): void {
    if (this.#held) throw new Error('a held world cannot be restored')
    const next = this.#file ? reopenFileFrom(this.#sqlite, this.#file, snapshot) : new Database(snapshot.bytes)
    if (!this.#file) this.#sqlite.close()
    this.#attach(configure(next, this.#file))
    // A file-backed world is rebuilt row by row (its bytes differ from the image); an in-memory one is the image.
    const image = snapshot.bytes
    this.#image = this.#file ? undefined : { bytes: new WeakRef(image), stamp: this.#openedStamp(image) }
  }

  /** An independent in-memory copy. */
  fork(): World {
    return World.from(this.snapshot())
  }

  close(): void {
    if (this.#sqlite.open) this.#sqlite.close()
  }
}

const TOTAL_CHANGES_SQL = 'SELECT total_changes()'
/** What a world image's change counter reads (World.serialize). */
const IMAGE_CHANGE_COUNTER = 1
type Batch = {
  limit: number
  /** The batch transaction is open (BEGIN ran, COMMIT has not). */
  open: boolean
  /** Requests ended since it opened. */
  requests: number
  /** Risky requests under way (requestStarted): none opens a batch meanwhile. */
  risky: number
  /** Compiled on the first request (a restored world opens without compiling anything). */
  statements?: BatchStatements
}
type BatchStatements = {
  pageSize: number
  begin: Database.Statement
  commit: Database.Statement
  pageCount: Database.Statement
}

/** A batch's statements on one connection, outside the statement cache (and the before-use hook). */
function batchStatements(sqlite: Database.Database): BatchStatements {
  const prepare = (sql: string) => Database.prototype.prepare.call(sqlite, sql)
  return {
    pageSize: prepare('PRAGMA page_size').pluck().get() as number,
    begin: prepare('BEGIN'),
    commit: prepare('COMMIT'),
    pageCount: prepare('PRAGMA page_count').pluck(),
  }
}
type Unnoted = { probe: Database.Statement; tables: readonly string[]; atHold: readonly unknown[] }
type SavepointStatements = {
  quoted: string
  take: Database.Statement
  rollback?: Database.Statement
  release?: Database.Statement
}
const MAX_SAVEPOINT_NAMES = 1000

const MEMORY_STAMP_SQL = `/* change stamp */ SELECT total_changes(),
  (SELECT schema_version FROM pragma_schema_version), (SELECT user_version FROM pragma_user_version)`
const FILE_STAMP_SQL = `/* change stamp */ SELECT total_changes(), (SELECT schema_version FROM pragma_schema_version),
  (SELECT user_version FROM pragma_user_version), (SELECT data_version FROM pragma_data_version)`

/** The DDL of one table: a pure function of its (immutable) definition, so computed once per table. */
const ddlOf = new WeakMap<SQLiteTable, string[]>()
function tableDdl(table: SQLiteTable): string[] {
  let ddl = ddlOf.get(table)
  if (!ddl) ddlOf.set(table, (ddl = createTableSql(table)))
  return ddl
}

function runDdl(sqlite: Database.Database, ddl: readonly string[]) {
  sqlite.transaction(() => {
    for (const statement of ddl) sqlite.exec(statement)
  })()
}

/**
 * The serialized bytes of an in-memory database with only this DDL run, by the DDL's text (all it depends on). Never
 * written to: `new Database(bytes)` opens a copy. Bounded: the server and the gym use one table set; tests a few.
 */
const emptyImages = new BoundedMap<string, Buffer>(8)
function emptySchemaImage(ddl: readonly string[]): Buffer {
  const key = ddl.join(';\n')
  let image = emptyImages.get(key)
  if (image) return image
  const sqlite = new Database(':memory:')
  runDdl(sqlite, ddl)
  image = sqlite.serialize()
  sqlite.close()
  emptyImages.set(key, image)
  return image
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
  const indexes = source.prepare("SELECT sql FROM sqlite_master WHERE type='index' AND sql IS NOT NULL").all() as {
    sql: string
  }[]
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
