import { describe, expect, test } from 'vitest'
import { blob, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { and, asc, desc, eq, ne, sql } from 'drizzle-orm'
import { World } from '../../envs/core/world.ts'
import { insertRow, selectRows, stmt, upsertRow } from '../../envs/core/db.ts'

const items = sqliteTable('test_items', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  note: text('note').notNull().default(''),
  done: integer('done', { mode: 'boolean' }).notNull().default(false),
  tags: text('tags', { mode: 'json' }).$type<string[]>(),
  stamp: text('stamp').$defaultFn(() => 'made'),
  data: blob('data', { mode: 'buffer' }),
})

const rows = [
  { id: 1, name: 'plain' },
  { id: 2, name: 'all given', note: 'n', done: true, tags: ['a', 'b'], stamp: 's', data: Buffer.from([0, 255]) },
  { id: 3, name: 'nulls', tags: null, data: null, stamp: undefined },
  { name: 'auto id', done: false, note: undefined },
]

describe('prepared statements cached per connection', () => {
  test('insertRow stores exactly what drizzle insert stores (defaults, JSON and boolean modes, nulls)', () => {
    const viaDrizzle = World.create([items])
    const viaInsertRow = World.create([items])
    viaDrizzle.tx((db) => {
      for (const r of rows) db.insert(items).values(r).run()
    })
    viaInsertRow.tx((db) => {
      for (const r of rows) insertRow(db, items, r)
    })
    const read = (w: World) => w.db.select().from(items).orderBy(items.id).all()
    expect(read(viaInsertRow)).toEqual(read(viaDrizzle))
    expect(read(viaInsertRow)[1]).toMatchObject({ done: true, tags: ['a', 'b'], stamp: 's' })
    expect(read(viaInsertRow)[0]).toMatchObject({ note: '', done: false, tags: null, stamp: 'made' })
    expect(Buffer.compare(viaInsertRow.snapshot().bytes, viaDrizzle.snapshot().bytes)).toBe(0)
  })

  test('upsertRow inserts, then replaces the given columns of a conflicting row, exactly like drizzle', () => {
    const viaDrizzle = World.create([items])
    const viaUpsert = World.create([items])
    const writes = [
      ...rows.slice(0, 3),
      { id: 2, name: 'replaced', done: false, tags: ['c'] },
      { id: 1, name: 'x', note: 'y' },
    ]
    viaDrizzle.tx((db) => {
      for (const r of writes) {
        const { id, ...set } = r as typeof r & { id?: number }
        db.insert(items).values(r).onConflictDoUpdate({ target: items.id, set }).run()
      }
    })
    viaUpsert.tx((db) => {
      for (const r of writes) upsertRow(db, items, r, ['id'])
    })
    const read = (w: World) => w.db.select().from(items).orderBy(items.id).all()
    expect(read(viaUpsert)).toEqual(read(viaDrizzle))
    expect(read(viaUpsert)[1]).toMatchObject({ name: 'replaced', note: 'n', done: false, tags: ['c'], stamp: 's' })
    expect(Buffer.compare(viaUpsert.snapshot().bytes, viaDrizzle.snapshot().bytes)).toBe(0)
  })

  test('consecutive writes of a table each take their own columns (order, absent keys, upsert or insert)', () => {
    // writeRow reuses a table's last shape when a row has the same keys: every change of keys must be seen.
    type Write = { row: Record<string, unknown>; target?: 'id' }
    const writes: Write[] = [
      { row: { id: 1, name: 'a', note: 'n' } },
      { row: { name: 'b', id: 2, note: 'n' } },
      { row: { id: 3, name: 'c', note: undefined } },
      { row: { id: 1, name: 'a2', note: 'm' }, target: 'id' },
      { row: { id: 4, name: 'd', note: 'x' } },
      { row: { id: 2, name: 'b2', note: undefined, done: true }, target: 'id' },
      { row: { id: 5, name: 'e', tags: ['t'] } },
      { row: { id: 6, name: 'f', tags: ['u'], stamp: 's' } },
      { row: { id: 7, name: 'g', tags: undefined } },
      { row: Object.assign(Object.create({ note: 'inherited' }), { id: 8, name: 'h' }) },
    ]
    const viaDrizzle = World.create([items])
    const viaRows = World.create([items])
    viaDrizzle.tx((db) => {
      for (const { row, target } of writes) {
        const values = { ...row } as typeof items.$inferInsert
        if (!target) db.insert(items).values(values).run()
        else {
          const { id, ...set } = values
          db.insert(items).values(values).onConflictDoUpdate({ target: items.id, set }).run()
        }
      }
    })
    viaRows.tx((db) => {
      for (const { row, target } of writes) {
        if (target) upsertRow(db, items, row as typeof items.$inferInsert, [target])
        else insertRow(db, items, row as typeof items.$inferInsert)
      }
    })
    const read = (w: World) => w.db.select().from(items).orderBy(items.id).all()
    expect(read(viaRows)).toEqual(read(viaDrizzle))
    expect(read(viaRows).map((r) => r.note)).toEqual(['m', 'n', '', 'x', '', '', '', ''])
    expect(Buffer.compare(viaRows.snapshot().bytes, viaDrizzle.snapshot().bytes)).toBe(0)
  })

  test('selectRows returns what the same drizzle select returns (decoded columns, filters, order)', () => {
    const world = World.create([items])
    world.tx((db) => {
      for (const r of rows) insertRow(db, items, r)
      insertRow(db, items, { id: 9, name: 'plain', done: true, tags: ['z'] })
    })
    const db = world.db
    expect(selectRows(db, items, {}, { orderBy: ['rowid'] })).toEqual(
      db
        .select()
        .from(items)
        .orderBy(sql`rowid`)
        .all(),
    )
    expect(selectRows(db, items, { name: 'plain' })).toEqual(
      db.select().from(items).where(eq(items.name, 'plain')).all(),
    )
    expect(selectRows(db, items, { done: true }, { orderBy: ['name', 'id'] })).toEqual(
      db.select().from(items).where(eq(items.done, true)).orderBy(asc(items.name), asc(items.id)).all(),
    )
    const drizzleNot = db
      .select()
      .from(items)
      .where(and(eq(items.done, false), ne(items.id, 1)))
      .orderBy(items.id)
      .all()
    expect(selectRows(db, items, { done: false }, { not: { id: 1 }, orderBy: ['id'] })).toEqual(drizzleNot)
    expect(drizzleNot.map((r) => r.id)).toEqual([3, 4])
    expect(selectRows(db, items, { id: 2 })[0]).toMatchObject({
      done: true,
      tags: ['a', 'b'],
      data: Buffer.from([0, 255]),
    })
    expect(selectRows(db, items, { id: 99 })).toEqual([])
    expect(db.select().from(items).orderBy(desc(items.id)).all()[0]!.id).toBe(9)
  })

  test('insertRow falls back to drizzle for SQL values and reports constraint errors like drizzle', () => {
    const world = World.create([items])
    world.tx((db) => insertRow(db, items, { id: 7, name: sql`upper('x')` as unknown as string }))
    expect(world.db.select().from(items).where(eq(items.id, 7)).get()?.name).toBe('X')
    expect(() => world.tx((db) => insertRow(db, items, { id: 7, name: 'again' }))).toThrow(/UNIQUE/)
  })

  test('a repeated query is compiled once, and a cached statement comes back in its default mode', () => {
    const world = World.create([items])
    world.tx((db) => insertRow(db, items, { id: 1, name: 'one' }))
    const q = 'SELECT id, name FROM test_items WHERE id = ?'
    const first = world.sqlite.prepare(q)
    expect(world.sqlite.prepare(q)).toBe(first)
    expect(stmt(world.db, q)).toBe(first)
    expect(first.pluck().get(1)).toBe(1)
    expect(world.sqlite.prepare(q).get(1)).toEqual({ id: 1, name: 'one' })
    expect(stmt(world.db, q).raw().get(1)).toEqual([1, 'one'])
    expect(world.db.select().from(items).get()).toEqual(expect.objectContaining({ id: 1, name: 'one' }))
    expect(world.sqlite.prepare(q).get(1)).toEqual({ id: 1, name: 'one' })
  })

  test('restore swaps the connection: statements of the old one are not reused', () => {
    const world = World.create([items])
    world.tx((db) => insertRow(db, items, { id: 1, name: 'before' }))
    const snap = world.snapshot()
    const q = 'SELECT name FROM test_items WHERE id = ?'
    const old = world.sqlite.prepare(q)
    world.tx((db) => db.update(items).set({ name: 'after' }).where(eq(items.id, 1)).run())
    world.restore(snap)
    expect(world.sqlite.prepare(q)).not.toBe(old)
    expect(world.db.select().from(items).get()?.name).toBe('before')
    world.tx((db) => insertRow(db, items, { id: 2, name: 'new' }))
    expect(
      world.db
        .select()
        .from(items)
        .all()
        .map((r) => r.name),
    ).toEqual(['before', 'new'])
  })
})

describe('statements around an agent call', () => {
  test('getProfile runs the kept token row check and the clock read, two for the tick (its write an update), its own four and the log insert', async () => {
    const { harness } = await import('../../envs/core/testing/harness.ts')
    const h = harness('demo')
    const token = h.google()
    await h.call('GET', '/gmail/v1/users/me/profile', { token })
    const proto = Object.getPrototypeOf(h.entry.world.sqlite.prepare('SELECT 1')) as Record<string, unknown>
    const originals = Object.fromEntries(['run', 'get', 'all', 'iterate'].map((m) => [m, proto[m]]))
    const ran: string[] = []
    for (const [m, fn] of Object.entries(originals)) {
      proto[m] = function (this: { source: string }, ...args: unknown[]) {
        ran.push(this.source.split(' ').slice(0, 3).join(' '))
        return (fn as (...a: unknown[]) => unknown).apply(this, args)
      }
    }
    try {
      expect((await h.call('GET', '/gmail/v1/users/me/profile', { token })).status).toBe(200)
    } finally {
      Object.assign(proto, originals)
      h.worlds.close()
    }
    // The token's row was kept by the first call (0356): the schema cookie is its check, the clock keys are read.
    // No BEGIN/COMMIT: nothing was due, so the clock write stands alone.
    expect(ran).toEqual([
      'PRAGMA main.schema_version',
      'SELECT (SELECT value',
      'SELECT EXISTS (SELECT',
      'UPDATE world_meta SET',
      'SELECT 1 FROM',
      'SELECT count(*) AS',
      'SELECT count(DISTINCT thread_id)',
      'SELECT history_id AS',
      'INSERT INTO world_action_log',
    ])
  })
})
