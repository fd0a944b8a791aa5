import { describe, expect, test } from 'vitest'
import Database from 'better-sqlite3'
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { World } from '../../envs/core/world.ts'
import { readTable, tableRead, type TableRead } from '../../envs/core/dump-rows.ts'
import { noteTriggerStatements, rowsNoted } from '../../envs/core/held-notes.ts'
import { allServiceTables } from '../../server/registry.ts'

// A rowid table with a text primary key: INSERT OR REPLACE on the key deletes a row of another rowid (no trigger).
const pairs = sqliteTable('test_pairs', { k: text('k').primaryKey(), v: text('v').notNull(), n: integer('n') })
const byN = tableRead('test_pairs', ['k', 'v', 'n'], ['n', 'k'])
const byRowid = tableRead('test_pairs', ['k', 'v'], ['rowid'])

function world() {
  const w = World.create([pairs])
  const insert = w.sqlite.prepare('INSERT INTO test_pairs (k, v, n) VALUES (?, ?, ?)')
  w.tx(() => {
    for (let i = 1; i <= 40; i++) insert.run(`k${i}`, `v${i}`, i % 7)
  })
  return w
}

/** What the statement gives on the connection now (it sees the open transaction): never a kept row. */
const plain = (w: World, read: TableRead<readonly unknown[]>) => w.sqlite.prepare(read.sql).raw().all()
const check = (w: World) => {
  for (const read of [byN, byRowid]) expect(readTable(w, read)).toEqual(plain(w, read))
}

describe('readTable on held worlds (kept rows, envs/core/dump-rows.ts)', () => {
  test('a table written through raw SQL is read again: updates, REPLACE, rowid changes, deletes, inserts', () => {
    const w = world()
    w.hold()
    const kept = readTable(w, byN)
    expect(readTable(w, byN)).toBe(kept)
    w.sqlite.exec("UPDATE test_pairs SET v = 'changed' WHERE k = 'k3'")
    check(w)
    const after = readTable(w, byN)
    // Rows not written are the kept objects; the written one is read again.
    expect(after.filter((r) => kept.includes(r)).length).toBe(39)
    w.sqlite.exec("INSERT OR REPLACE INTO test_pairs (k, v, n) VALUES ('k5', 'replaced', 100)")
    check(w)
    w.sqlite.exec("UPDATE test_pairs SET rowid = rowid + 1000 WHERE k = 'k7'")
    check(w)
    w.sqlite.exec("DELETE FROM test_pairs WHERE n = 2; INSERT INTO test_pairs (k, v, n) VALUES ('new', 'x', -1)")
    check(w)
    w.sqlite.exec('DELETE FROM test_pairs')
    check(w)
    expect(readTable(w, byN)).toEqual([])
    expect(w.rewind()).toBe(true)
    w.close()
  })

  test('every write is noted whatever conflict policy it states, upserts included (0323)', () => {
    const w = world()
    w.hold()
    const kept = readTable(w, byRowid)
    const noted = () => [
      ...new Set(w.sqlite.prepare("SELECT rid FROM temp.wsgym_changed WHERE name = 'test_pairs'").pluck().all()),
    ]
    const value = (k: string) => w.sqlite.prepare('SELECT v FROM test_pairs WHERE k = ?').pluck().get(k)
    const rowid = (k: string) => w.sqlite.prepare('SELECT rowid FROM test_pairs WHERE k = ?').pluck().get(k)
    for (let i = 0; i < 3; i++) w.sqlite.exec(`UPDATE test_pairs SET v = 'again ${i}' WHERE k = 'k1'`)
    w.sqlite.exec("INSERT OR IGNORE INTO test_pairs (k, v, n) VALUES ('k1', 'ignored', 0)")
    w.sqlite.exec("UPDATE OR REPLACE test_pairs SET v = 'replaced' WHERE k = 'k1'")
    w.sqlite.exec("UPDATE OR IGNORE test_pairs SET v = 'last' WHERE k = 'k1'")
    expect(value('k1')).toBe('last')
    expect(noted()).toEqual([rowid('k1')])
    check(w)
    // An upsert that updates a row written before, and one that updates a row never written.
    w.sqlite.exec("INSERT INTO test_pairs (k, v, n) VALUES ('k1', 'x', 0) ON CONFLICT (k) DO UPDATE SET v = 'up 1'")
    w.sqlite.exec("INSERT INTO test_pairs (k, v, n) VALUES ('k2', 'x', 0) ON CONFLICT (k) DO UPDATE SET v = 'up 2'")
    w.sqlite.exec("INSERT INTO test_pairs (k, v, n) VALUES ('k2', 'x', 0) ON CONFLICT (k) DO UPDATE SET v = 'up 3'")
    expect([value('k1'), value('k2')]).toEqual(['up 1', 'up 3'])
    expect(noted().sort()).toEqual([rowid('k1'), rowid('k2')].sort())
    check(w)
    expect(readTable(w, byRowid).filter((r) => kept.includes(r)).length).toBe(38)
    expect(w.rewind()).toBe(true)
    expect(value('k1')).toBe('v1')
    w.close()
  })

  test('a rewound world held again serves the kept rows; a write between rewind and hold voids them', () => {
    const w = world()
    w.hold()
    const kept = readTable(w, byRowid)
    w.sqlite.exec("UPDATE test_pairs SET v = 'episode' WHERE k = 'k1'")
    check(w)
    w.rewind()
    w.hold()
    expect(readTable(w, byRowid)).toBe(kept)
    check(w)
    w.rewind()
    w.sqlite.exec("UPDATE test_pairs SET v = 'committed' WHERE k = 'k2'")
    w.hold()
    expect(readTable(w, byRowid)).not.toBe(kept)
    check(w)
    expect(readTable(w, byRowid).find((r) => r[0] === 'k2')![1]).toBe('committed')
    w.rewind()
    w.close()
  })

  test('DDL since hold (a table made again without its triggers, a trigger dropped) reads every row', () => {
    const w = world()
    w.hold()
    readTable(w, byN)
    w.sqlite.exec('DROP TABLE test_pairs; CREATE TABLE test_pairs (k TEXT PRIMARY KEY, v TEXT NOT NULL, n INTEGER)')
    w.sqlite.exec("INSERT INTO test_pairs (k, v, n) VALUES ('k1', 'other', 1)")
    expect(w.heldWrites()).toBeUndefined()
    expect(w.changedTables()).toBeUndefined()
    check(w)
    expect(w.rewind()).toBe(true)
    w.hold()
    readTable(w, byN)
    w.sqlite.exec('DROP TRIGGER temp."wsgym_U_test_pairs"')
    w.sqlite.exec("UPDATE test_pairs SET v = 'unnoted' WHERE k = 'k4'")
    check(w)
    w.rewind()
    w.close()
  })

  test('a held world that lost its transaction, and a restored one, read every row', () => {
    const w = world()
    const snap = w.snapshot()
    w.hold()
    readTable(w, byN)
    w.sqlite.exec('ROLLBACK')
    w.sqlite.exec("UPDATE test_pairs SET v = 'autocommit' WHERE k = 'k6'")
    expect(w.heldWrites()).toBeUndefined()
    check(w)
    expect(w.rewind()).toBe(false)
    w.restore(snap)
    w.hold()
    check(w)
    expect(readTable(w, byN).find((r) => r[0] === 'k6')![1]).toBe('v6')
    w.rewind()
    w.close()
  })

  test('kept rows are frozen', () => {
    const w = world()
    w.hold()
    const rows = readTable(w, byN)
    expect(() => (rows[0] as unknown[]).push(1)).toThrow()
    w.rewind()
    w.close()
  })

  test('hold() makes the temp schema CREATE TEMP TRIGGER statements make, every table noted (0340)', () => {
    const w = World.create(allServiceTables())
    // A name that needs quoting in both kinds of SQL text, and a table in mixed case.
    w.sqlite.exec(`CREATE TABLE "Odd ""quoted"" it's" (a TEXT); CREATE TABLE Mixed (a TEXT)`)
    const tables = w.sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .pluck()
      .all() as string[]
    const reference = new Database(w.snapshot().bytes)
    reference.exec('CREATE TEMP TABLE wsgym_changed (name TEXT, rid INTEGER)')
    reference.exec(noteTriggerStatements(tables).join('\n'))
    w.hold()
    const schema = (db: Database.Database) => db.prepare('SELECT * FROM temp.sqlite_master ORDER BY name').all()
    expect(schema(w.sqlite)).toEqual(schema(reference))
    // 3 triggers per table but world_meta (none) and the action log (no insert trigger): held-notes.ts UNNOTED.
    expect(schema(w.sqlite)).toHaveLength(1 + 3 * tables.length - 4)
    reference.close()
    // Every table's insert, update and delete is noted (rowids alike), under the table's name in lower case; the
    // writes no trigger notes still make the table one of the changed ones while they changed its contents.
    for (const table of tables) {
      const quoted = `"${table.replace(/"/g, '""')}"`
      const columns = w.sqlite.prepare('SELECT name, type FROM pragma_table_info(?)').raw().all(table) as [
        string,
        string,
      ][]
      w.sqlite.exec(`SAVEPOINT probe; DELETE FROM temp.wsgym_changed`)
      const list = columns.map(([c]) => `"${c}"`).join(', ')
      const values = columns.map(([, type], i) => (/INT/i.test(type) ? String(7000 + i) : `'v${i}'`)).join(', ')
      const name = table.toLowerCase()
      expect(w.changedTables()!.has(name), table).toBe(false)
      const rowid = w.sqlite.prepare(`INSERT INTO ${quoted} (${list}) VALUES (${values})`).run().lastInsertRowid
      expect(w.changedTables()!.has(name), table).toBe(true)
      w.sqlite.prepare(`UPDATE ${quoted} SET rowid = rowid + 1000 WHERE rowid = ?`).run(rowid)
      w.sqlite.prepare(`DELETE FROM ${quoted} WHERE rowid = ?`).run(Number(rowid) + 1000)
      const notes = w.sqlite.prepare('SELECT name, rid FROM temp.wsgym_changed').raw().all()
      const at = Number(rowid)
      const expected =
        name === 'world_meta'
          ? []
          : name === 'world_action_log'
            ? [
                [name, at],
                [name, at + 1000],
                [name, at + 1000],
              ]
            : [
                [name, at],
                [name, at],
                [name, at + 1000],
                [name, at + 1000],
              ]
      expect(notes, table).toEqual(expected)
      expect(rowsNoted(table), table).toBe(name !== 'world_meta' && name !== 'world_action_log')
      w.sqlite.exec('ROLLBACK TO probe; RELEASE probe')
    }
    expect(w.rewind()).toBe(true)
    w.close()
  })

  test("the clock's and the action log's writes, which no trigger notes, are told from their contents (0346)", () => {
    const w = World.create([pairs])
    const put = w.sqlite.prepare(
      'INSERT INTO world_meta (key, value) VALUES (?, ?) ' + 'ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    )
    const log = w.sqlite.prepare(
      'INSERT INTO world_action_log (at_ms, method, path, query, status) ' + "VALUES (1, 'GET', '/', '', 200)",
    )
    put.run('clock_ms', '1000')
    log.run()
    w.hold()
    const changed = () => [...w.changedTables()!].sort()
    const notes = () => w.sqlite.prepare('SELECT count(*) FROM temp.wsgym_changed').pluck().get()
    w.savepoint('s0')
    put.run('clock_ms', '2000')
    expect(changed()).toEqual(['world_meta'])
    log.run()
    expect(changed()).toEqual(['world_action_log', 'world_meta'])
    expect(notes()).toBe(0)
    w.rollbackTo('s0')
    expect(changed()).toEqual([])
    // The same value written again leaves the contents as at hold(): nothing changed.
    put.run('clock_ms', '1000')
    expect(changed()).toEqual([])
    // A new key, a key deleted, a row moved to another rowid: all change the contents.
    put.run('tick_ms', '5')
    expect(changed()).toEqual(['world_meta'])
    w.rollbackTo('s0')
    w.sqlite.exec("DELETE FROM world_meta WHERE key = 'clock_ms'")
    expect(changed()).toEqual(['world_meta'])
    w.rollbackTo('s0')
    w.sqlite.exec("UPDATE world_meta SET rowid = rowid + 10 WHERE key = 'clock_ms'")
    expect(changed()).toEqual(['world_meta'])
    w.rollbackTo('s0')
    // The action log's updates and deletes are noted by its triggers (its row count alone would miss an update).
    w.sqlite.exec('UPDATE world_action_log SET status = 500')
    expect(changed()).toEqual(['world_action_log'])
    w.rollbackTo('s0')
    w.sqlite.exec('DELETE FROM world_action_log')
    log.run()
    expect(changed()).toEqual(['world_action_log'])
    w.rollbackTo('s0')
    expect(changed()).toEqual([])
    // Their rows are read whole by the kept reads (no rowid of theirs is noted).
    const meta = tableRead('world_meta', ['key', 'value'], ['rowid'])
    const before = readTable(w, meta)
    put.run('clock_ms', '3000')
    expect(readTable(w, meta)).toEqual(w.sqlite.prepare(meta.sql).raw().all())
    expect(readTable(w, meta)).not.toEqual(before)
    expect(w.rewind()).toBe(true)
    w.hold()
    expect(changed()).toEqual([])
    w.rewind()
    w.close()
  })

  test('statements compiled before hold() note their writes; hold() leaves no unsafe mode behind (0340)', () => {
    const w = world()
    const before = w.sqlite.prepare("UPDATE test_pairs SET v = 'before' WHERE k = ?")
    const main = 'UPDATE test_pairs SET n = n + 1 WHERE k = ?'
    w.hold()
    expect(w.sqlite.pragma('writable_schema', { simple: true })).toBe(0)
    // Safe mode: no write while a query is being read (better-sqlite3's unsafe mode also turns SQLite's defensive
    // flag off, which would allow writing any schema).
    const rows = w.sqlite.prepare('SELECT k FROM test_pairs').pluck().iterate()
    rows.next()
    expect(() => w.sqlite.prepare(main).run('k1')).toThrow(/busy/)
    rows.return?.()
    before.run('k1')
    // A statement on main tables alone, compiled after hold(): it must compile with the triggers.
    w.sqlite.prepare(main).run('k2')
    const noted = w.sqlite.prepare("SELECT rid FROM temp.wsgym_changed WHERE name = 'test_pairs'").pluck().all()
    const rowid = (k: string) => w.sqlite.prepare('SELECT rowid FROM test_pairs WHERE k = ?').pluck().get(k)
    expect(noted).toEqual([rowid('k1'), rowid('k1'), rowid('k2'), rowid('k2')])
    expect([...w.changedTables()!]).toEqual(['test_pairs'])
    check(w)
    expect(w.rewind()).toBe(true)
    w.close()
  })
})
