import { describe, expect, test } from 'vitest'
import { join } from 'node:path'
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { World } from '../../envs/core/world.ts'
import { keptWhileAllUnwritten, keptWhileUnwritten } from '../../envs/core/write-epoch.ts'
import { tempDirs } from '../support/tmp-dirs.ts'

// Values kept per connection while their table is unwritten (docs/decisions/0319): any write, a rollback of a
// write, or a table made again must make the next read run; nothing read inside a transaction is kept.
const pairs = sqliteTable('test_pairs', { k: text('k').primaryKey(), v: text('v').notNull(), n: integer('n') })
const other = sqliteTable('test_other', { k: text('k').primaryKey() })
const tmp = tempDirs()

function world(file?: string) {
  const w = file ? World.create([pairs, other], file) : World.create([pairs, other])
  const insert = w.sqlite.prepare('INSERT INTO test_pairs (k, v, n) VALUES (?, ?, ?)')
  w.tx(() => {
    for (let i = 1; i <= 10; i++) insert.run(`k${i}`, `v${i}`, i)
  })
  return w
}

/** A kept read of the whole table, and how many times the statement ran. */
function reader(w: World, key = 'all') {
  let runs = 0
  const read = () =>
    keptWhileUnwritten(w.sqlite, 'test_pairs', key, () => {
      runs++
      return w.sqlite.prepare('SELECT k, v, n FROM test_pairs ORDER BY k').raw().all()
    })
  const fresh = () => w.sqlite.prepare('SELECT k, v, n FROM test_pairs ORDER BY k').raw().all()
  return { read, fresh, runs: () => runs }
}

describe('keptWhileUnwritten', () => {
  test('gives the kept value while the table is unwritten, and reads again after every kind of write', () => {
    const w = world()
    const r = reader(w)
    const first = r.read()
    expect(r.read()).toBe(first)
    expect(r.runs()).toBe(1)
    // Writes elsewhere (another table, the clock) keep it.
    w.sqlite.exec("INSERT INTO test_other (k) VALUES ('x')")
    expect(r.read()).toBe(first)
    const writes = [
      "UPDATE test_pairs SET v = 'changed' WHERE k = 'k3'",
      "INSERT OR REPLACE INTO test_pairs (k, v, n) VALUES ('k5', 'replaced', 100)",
      "INSERT INTO test_pairs (k, v, n) VALUES ('k4', 'x', 1) ON CONFLICT (k) DO UPDATE SET n = 40",
      "UPDATE test_pairs SET rowid = rowid + 1000 WHERE k = 'k7'",
      "DELETE FROM test_pairs WHERE k = 'k1'",
      "INSERT INTO test_pairs (k, v, n) VALUES ('k0', 'new', 0)",
      'DELETE FROM test_pairs',
    ]
    for (const sql of writes) {
      const before = r.runs()
      w.sqlite.exec(sql)
      expect(r.read(), sql).toEqual(r.fresh())
      expect(r.runs(), sql).toBe(before + 1)
      expect(r.read(), sql).toEqual(r.fresh())
      expect(r.runs(), sql).toBe(before + 1)
    }
  })

  test('reads again after a write that was rolled back, and keeps nothing read inside a transaction', () => {
    const w = world()
    const r = reader(w)
    r.read()
    w.sqlite.exec('BEGIN')
    w.sqlite.exec("UPDATE test_pairs SET v = 'inside' WHERE k = 'k2'")
    expect(r.read()).toEqual(r.fresh())
    expect(r.read()).toEqual(r.fresh())
    expect(r.runs()).toBe(3)
    w.sqlite.exec('ROLLBACK')
    // The value read inside was not kept: the rolled-back row is not served.
    expect(r.read()).toEqual(r.fresh())
    expect((r.read() as string[][]).find((row) => row[0] === 'k2')![1]).toBe('v2')
    expect(r.runs()).toBe(4)
    // A savepoint rolled back after its write, inside an outer transaction kept open.
    w.sqlite.exec('BEGIN')
    w.sqlite.exec('SAVEPOINT s')
    w.sqlite.exec("UPDATE test_pairs SET v = 'sp' WHERE k = 'k2'")
    expect(r.read()).toEqual(r.fresh())
    w.sqlite.exec('ROLLBACK TO s')
    expect(r.read()).toEqual(r.fresh())
    w.sqlite.exec('COMMIT')
    expect(r.read()).toEqual(r.fresh())
  })

  test('a value kept before a transaction is given inside it until the transaction writes', () => {
    const w = world()
    const r = reader(w)
    const kept = r.read()
    w.tx(() => {
      expect(r.read()).toBe(kept)
      w.sqlite.exec("UPDATE test_pairs SET n = 99 WHERE k = 'k9'")
      expect(r.read()).toEqual(r.fresh())
    })
    expect(r.read()).toEqual(r.fresh())
  })

  test('held worlds (an open transaction before the first read) never keep, and rewinding leaves nothing stale', () => {
    const w = world()
    w.hold()
    const r = reader(w)
    r.read()
    r.read()
    expect(r.runs()).toBe(2)
    w.sqlite.exec("UPDATE test_pairs SET v = 'held' WHERE k = 'k1'")
    expect(r.read()).toEqual(r.fresh())
    // No DDL ran while held: no triggers of this module, and the held world's notes are still trusted.
    const triggers = "SELECT count(*) FROM sqlite_temp_master WHERE type = 'trigger' AND name LIKE 'wsgym_count_%'"
    expect(w.sqlite.prepare(triggers).pluck().get()).toBe(0)
    expect(w.heldWrites()?.tables).toEqual(new Set(['test_pairs']))
    w.rewind()
    expect(r.read()).toEqual(r.fresh())
    expect(w.heldWrites()).toBeUndefined()
  })

  test('seals a value only when it is kept', () => {
    const w = world()
    const sealed: unknown[] = []
    const read = () =>
      keptWhileUnwritten(
        w.sqlite,
        'test_pairs',
        'sealed',
        () => ({ at: Math.random() }),
        (v) => {
          sealed.push(v)
        },
      )
    w.sqlite.exec('BEGIN')
    read()
    expect(sealed).toHaveLength(0)
    w.sqlite.exec('COMMIT')
    const kept = read()
    expect(sealed).toEqual([kept])
    expect(read()).toBe(kept)
    expect(sealed).toHaveLength(1)
  })

  test('a table dropped and made again (its triggers gone) is read again, and its writes still count', () => {
    const w = world()
    const r = reader(w)
    const first = r.read()
    w.sqlite.exec('DROP TABLE test_pairs')
    w.sqlite.exec('CREATE TABLE test_pairs (k TEXT PRIMARY KEY, v TEXT NOT NULL, n INTEGER)')
    w.sqlite.exec("INSERT INTO test_pairs VALUES ('a', 'b', 1)")
    expect(r.read()).not.toBe(first)
    expect(r.read()).toEqual([['a', 'b', 1]])
    w.sqlite.exec("INSERT INTO test_pairs VALUES ('c', 'd', 2)")
    expect(r.read()).toEqual(r.fresh())
    expect(r.read()).toHaveLength(2)
  })

  test('keys are separate, and a restored world starts with nothing kept', () => {
    const w = world()
    const a = reader(w, 'a')
    const b = reader(w, 'b')
    a.read()
    b.read()
    a.read()
    expect([a.runs(), b.runs()]).toEqual([1, 1])
    const snap = w.snapshot()
    w.sqlite.exec("UPDATE test_pairs SET v = 'later' WHERE k = 'k1'")
    a.read()
    w.restore(snap)
    const c = reader(w, 'a')
    expect(c.read()).toEqual(c.fresh())
    expect(c.runs()).toBe(1)
  })

  test('file-backed worlds read every time (another connection may write the file)', () => {
    const w = world(join(tmp('write-epoch-'), 'w.sqlite'))
    const r = reader(w)
    r.read()
    r.read()
    expect(r.runs()).toBe(2)
    w.close()
  })

  test('leaves the world bytes as a world without it has them', () => {
    const [plain, kept] = [world(), world()]
    reader(kept).read()
    for (const w of [plain, kept]) w.sqlite.exec("UPDATE test_pairs SET v = 'w' WHERE k = 'k1'")
    reader(kept).read()
    expect(Buffer.compare(kept.sqlite.serialize(), plain.sqlite.serialize())).toBe(0)
  })
})

describe('keptWhileAllUnwritten', () => {
  const both = ['test_pairs', 'test_other']
  function allReader(w: World) {
    let runs = 0
    const read = () =>
      keptWhileAllUnwritten(w.sqlite, both, 'both', () => {
        runs++
        return w.sqlite
          .prepare('SELECT (SELECT count(*) FROM test_pairs), (SELECT count(*) FROM test_other)')
          .raw()
          .get()
      })
    return { read, runs: () => runs }
  }

  test('keeps a value while every table is unwritten, and reads again after a write to any of them', () => {
    const w = world()
    const r = allReader(w)
    const first = r.read()
    expect(r.read()).toBe(first)
    for (const sql of [
      "INSERT INTO test_other (k) VALUES ('a')",
      "UPDATE test_pairs SET v = 'x' WHERE k = 'k1'",
      "INSERT INTO test_other (k) VALUES ('b')",
      "DELETE FROM test_other WHERE k = 'a'",
    ]) {
      const before = r.runs()
      w.sqlite.exec(sql)
      r.read()
      r.read()
      expect(r.runs(), sql).toBe(before + 1)
    }
    expect(r.read()).toEqual([10, 1])
  })

  test('is undefined where nothing can be kept (a held world, a file), without reading', () => {
    const held = world()
    held.hold()
    let runs = 0
    const read = (w: World) => keptWhileAllUnwritten(w.sqlite, both, 'k', () => ++runs)
    expect(read(held)).toBeUndefined()
    const file = world(join(tmp('write-epoch-all-'), 'w.sqlite'))
    expect(read(file)).toBeUndefined()
    expect(runs).toBe(0)
    file.close()
    // Set up before the transaction: read inside it, never kept from it.
    const w = world()
    expect(read(w)).toBe(1)
    w.sqlite.exec('BEGIN')
    w.sqlite.exec("INSERT INTO test_other (k) VALUES ('in')")
    expect([read(w), read(w)]).toEqual([2, 3])
    w.sqlite.exec('ROLLBACK')
    expect([read(w), read(w)]).toEqual([4, 4])
  })

  test('never answers with a one-table value of the same key, nor the other way round', () => {
    const w = world()
    expect(keptWhileUnwritten(w.sqlite, 'test_pairs', 'k', () => 'one')).toBe('one')
    expect(keptWhileAllUnwritten(w.sqlite, ['test_pairs'], 'k', () => 'all')).toBe('all')
    expect(keptWhileUnwritten(w.sqlite, 'test_pairs', 'k', () => 'again')).toBe('one')
    expect(keptWhileAllUnwritten(w.sqlite, both, 'k', () => 'both')).toBe('both')
    expect(keptWhileAllUnwritten(w.sqlite, ['test_pairs'], 'k', () => 'again')).toBe('all')
  })
})
