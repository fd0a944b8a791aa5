import { describe, expect, test } from 'vitest'
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { World } from '../../envs/core/world.ts'
import { orFail, stmt } from '../../envs/core/db.ts'

// A held world compiles its INSERTs and UPDATEs `OR FAIL` (envs/core/db.ts failFastWrites, docs/decisions/0414):
// no statement journal per write, while a failing write inside a transaction still leaves nothing behind.
const items = sqliteTable('test_items', {
  k: text('k').primaryKey(),
  v: text('v').notNull(),
  n: integer('n').notNull(),
})

function world() {
  const w = World.create([items])
  w.tx(() => {
    const insert = w.sqlite.prepare('INSERT INTO test_items (k, v, n) VALUES (?, ?, ?)')
    for (let i = 1; i <= 5; i++) insert.run(`k${i}`, `v${i}`, i)
  })
  return w
}
const rows = (w: World) => w.sqlite.prepare('SELECT k, v, n FROM test_items ORDER BY k').raw().all()

describe('OR FAIL writes of held worlds', () => {
  test('orFail: only a leading INSERT or UPDATE without a conflict clause of its own', () => {
    expect(orFail('INSERT INTO t (a) VALUES (?)')).toBe('INSERT OR FAIL INTO t (a) VALUES (?)')
    expect(orFail('insert into "t" ("a") values (?)')).toBe('insert OR FAIL into "t" ("a") values (?)')
    expect(orFail('/* new file */ INSERT INTO t VALUES (1)')).toBe('/* new file */ INSERT OR FAIL INTO t VALUES (1)')
    expect(orFail('update "t" set "a" = ? where "k" = ?')).toBe('update OR FAIL "t" set "a" = ? where "k" = ?')
    expect(orFail('UPDATE ordering SET x = 1')).toBe('UPDATE OR FAIL ordering SET x = 1')
    for (const kept of [
      'INSERT OR REPLACE INTO t VALUES (1)',
      'insert or ignore into t values (1)',
      'UPDATE OR ROLLBACK t SET a = 1',
      'REPLACE INTO t VALUES (1)',
      'SELECT 1 FROM t',
      'DELETE FROM t WHERE a = 1',
      'WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x',
      "SELECT 'INSERT INTO t'",
    ])
      expect(orFail(kept)).toBe(kept)
  })

  test('statements are compiled OR FAIL from hold() on, also those cached before it', () => {
    const w = world()
    const sql = 'UPDATE test_items SET v = ? WHERE k = ?'
    expect(stmt(w.db, sql).source).toBe(sql)
    w.hold()
    expect(stmt(w.db, sql).source).toBe('UPDATE OR FAIL test_items SET v = ? WHERE k = ?')
    expect(stmt(w.db, 'SELECT v FROM test_items WHERE k = ?').source).toBe('SELECT v FROM test_items WHERE k = ?')
    // Drizzle's queries come through the same cache.
    stmt(w.db, 'INSERT INTO test_items (k, v, n) VALUES (?, ?, ?)').run('k9', 'v9', 9)
    expect(rows(w)).toContainEqual(['k9', 'v9', 9])
    expect(w.rewind()).toBe(true)
    w.close()
  })

  test('a write failing half-way inside a transaction leaves nothing of it, as ABORT did', () => {
    const w = world()
    w.hold()
    const before = rows(w)
    w.savepoint('request')
    // The second row breaks the primary key: OR FAIL keeps the first row until the transaction is rolled back.
    const twoRows = "INSERT INTO test_items (k, v, n) VALUES ('new', 'x', 10), ('k1', 'dup', 11)"
    expect(() => w.tx(() => stmt(w.db, twoRows).run())).toThrow(/UNIQUE constraint failed/)
    expect(rows(w)).toEqual(before)
    // Also an UPDATE of many rows that fails on its last one (NOT NULL).
    const many = "UPDATE test_items SET v = CASE WHEN k = 'k5' THEN NULL ELSE 'changed' END"
    expect(() => w.tx(() => stmt(w.db, many).run())).toThrow(/NOT NULL constraint failed/)
    expect(rows(w)).toEqual(before)
    w.rollbackTo('request')
    expect(rows(w)).toEqual(before)
    expect(w.rewind()).toBe(true)
    w.close()
  })
})
