import { describe, expect, test } from 'vitest'
import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createTableSql } from '../../envs/core/ddl.ts'
import { World } from '../../envs/core/world.ts'

describe('createTableSql', () => {
  test('writes index terms given as sql: expressions and descending columns, with bare column names', () => {
    const columns = { id: text('id').primaryKey(), kind: text('kind').notNull(), atMs: integer('at_ms').notNull() }
    const t = sqliteTable('ddl_t', columns, (c) => [
      index('ddl_t_order').on(sql`(${c.kind} != 'x')`, sql`${c.atMs} DESC`, c.id),
    ])
    const ddl = `CREATE INDEX IF NOT EXISTS "ddl_t_order" ON "ddl_t" (("kind" != 'x'), "at_ms" DESC, "id")`
    expect(createTableSql(t)[1]).toBe(ddl)
    // SQLite reads the index in that order: no sort step for a query ordered the same way.
    const world = World.create([t])
    const query = "EXPLAIN QUERY PLAN SELECT id FROM ddl_t ORDER BY (kind != 'x'), at_ms DESC, id"
    const plan = world.sqlite.prepare(query).all() as { detail: string }[]
    expect(plan.map((p) => p.detail)).toEqual(['SCAN ddl_t USING COVERING INDEX ddl_t_order'])
    world.close()
  })

  test('writes a partial index: rows outside its WHERE get no entry, and queries that imply it still use it', () => {
    const columns = { id: text('id').primaryKey(), series: text('series') }
    const t = sqliteTable('ddl_p', columns, (c) => [
      index('ddl_p_series')
        .on(c.series)
        .where(sql`${c.series} IS NOT NULL`),
    ])
    const ddl = `CREATE INDEX IF NOT EXISTS "ddl_p_series" ON "ddl_p" ("series") WHERE "series" IS NOT NULL`
    expect(createTableSql(t)[1]).toBe(ddl)
    const world = World.create([t])
    const insert = world.sqlite.prepare('INSERT INTO ddl_p (id, series) VALUES (?, ?)')
    insert.run('a', null)
    insert.run('b', 'x')
    insert.run('c', null)
    // The world holds the index as partial (SQLite skips it for a row outside the WHERE).
    const stored = world.sqlite.prepare("SELECT sql FROM sqlite_master WHERE name = 'ddl_p_series'").pluck().get()
    expect(stored).toBe(ddl.replace(' IF NOT EXISTS', ''))
    expect(world.sqlite.prepare("SELECT id FROM ddl_p WHERE series = 'x'").pluck().all()).toEqual(['b'])
    for (const where of ['series IS NOT NULL', "series = 'x'"]) {
      const plan = world.sqlite.prepare(`EXPLAIN QUERY PLAN SELECT id FROM ddl_p WHERE ${where}`).all()
      expect((plan as { detail: string }[]).map((p) => p.detail).join()).toMatch(/USING (COVERING )?INDEX ddl_p_series/)
    }
    world.close()
  })
})
