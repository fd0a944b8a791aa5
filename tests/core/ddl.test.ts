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
})
