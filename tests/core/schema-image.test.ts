import { describe, expect, test } from 'vitest'
import { join } from 'node:path'
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { World } from '../../envs/core/world.ts'
import { buildWorld } from '../../server/seeding.ts'
import { loadSample } from '../../gym/corpus.ts'
import { worldTemplate } from '../../gym/world.ts'
import { tempDirs } from '../support/tmp-dirs.ts'

const tmp = tempDirs()

/** Every table's rows (`SELECT *`, in rowid/key order as stored) and the schema, as text. */
function contents(world: World): Record<string, string> {
  const sqlite = world.sqlite
  const out: Record<string, string> = {}
  out.schema = JSON.stringify(sqlite.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name').all())
  const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all()
  for (const t of tables as string[]) {
    const rows = sqlite.prepare(`SELECT * FROM "${t}"`).raw().all()
    out[t] = JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v))
  }
  return out
}

describe('World.create on an empty-schema image', () => {
  // Volume worlds of four apps: the in-memory build opens the cached schema image, the file-backed one runs the DDL.
  const tasks = loadSample(1, ['gmail-reply-po', 'calendar-reschedule-instance', 'slack-pin-final', 'drive-organize'])

  test.each(tasks.map((t) => [t.id, t] as const))('builds %s with the same rows as running the DDL', (_id, task) => {
    const doc = worldTemplate(task)?.build() ?? (task.seed as Record<string, unknown>)
    const fromImage = buildWorld(doc, task.seedValue ?? 1)
    const fromDdl = buildWorld(doc, task.seedValue ?? 1, join(tmp('wsgym-schema-'), 'w.sqlite'))
    try {
      const a = contents(fromImage)
      const b = contents(fromDdl)
      expect(Object.keys(a).length).toBeGreaterThan(50)
      expect(a).toEqual(b)
    } finally {
      fromImage.close()
      fromDdl.close()
    }
  })

  test('gives every world its own copy of the image', () => {
    const items = sqliteTable('test_image_items', { id: integer('id').primaryKey(), name: text('name').notNull() })
    const a = World.create([items])
    const b = World.create([items])
    a.sqlite.prepare("INSERT INTO test_image_items VALUES (1, 'only in a')").run()
    expect(a.sqlite.prepare('SELECT count(*) FROM test_image_items').pluck().get()).toBe(1)
    expect(b.sqlite.prepare('SELECT count(*) FROM test_image_items').pluck().get()).toBe(0)
    const c = World.create([items])
    expect(c.sqlite.prepare('SELECT count(*) FROM test_image_items').pluck().get()).toBe(0)
    for (const w of [a, b, c]) w.close()
  })
})
