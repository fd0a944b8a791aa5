import { describe, expect, test, vi } from 'vitest'
import Database from 'better-sqlite3'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { blob, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { eq } from 'drizzle-orm'
import { World } from '../../envs/core/world.ts'
import { nowMs, setClock, setMeta } from '../../envs/core/clock.ts'
import { calendarEventId, driveId, gmailId, slackId, slackTs } from '../../envs/core/ids.ts'
import { WorldManager } from '../../server/worlds.ts'
import { createAgentApp } from '../../server/app.ts'
import type { Snapshot } from '../../envs/core/world.ts'
import { harness } from '../../envs/core/testing/harness.ts'

const things = sqliteTable('test_things', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  data: blob('data', { mode: 'buffer' }),
})

function worldWithRows() {
  const world = World.create([things])
  world.tx((db) => {
    setMeta(db, 'id_salt', 'salt')
    setClock(db, Date.parse('2026-03-02T09:00:00Z'))
    for (let i = 1; i <= 50; i++)
      db.insert(things)
        .values({ id: i, name: `thing ${i} ✓`, data: Buffer.from([i, 0, 255, i]) })
        .run()
  })
  return world
}

describe('world snapshot and restore', () => {
  test('restore brings back every row, column and blob after changes', () => {
    const world = worldWithRows()
    const snap = world.snapshot()
    const before = world.db.select().from(things).all()
    world.tx((db) => {
      db.delete(things).where(eq(things.id, 3)).run()
      db.update(things)
        .set({ name: 'changed', data: Buffer.from('x') })
        .where(eq(things.id, 4))
        .run()
      db.insert(things).values({ id: 99, name: 'new' }).run()
    })
    expect(world.db.select().from(things).all()).not.toEqual(before)
    world.restore(snap)
    expect(world.db.select().from(things).all()).toEqual(before)
    expect(world.db.select().from(things).where(eq(things.id, 7)).get()?.data).toEqual(Buffer.from([7, 0, 255, 7]))
  })

  test('restore rewinds id counters and the clock, so the next id repeats', () => {
    const world = worldWithRows()
    const snap = world.snapshot()
    const first = world.tx((db) => [gmailId(db), driveId(db), nowMs(db)])
    world.restore(snap)
    const again = world.tx((db) => [gmailId(db), driveId(db), nowMs(db)])
    expect(again).toEqual(first)
  })

  test('a fork is independent of its source', () => {
    const world = worldWithRows()
    const copy = world.fork()
    copy.tx((db) => db.delete(things).run())
    expect(world.db.select().from(things).all()).toHaveLength(50)
    expect(copy.db.select().from(things).all()).toHaveLength(0)
  })

  test('snapshots of equal worlds are byte-identical', () => {
    expect(worldWithRows().snapshot().bytes.equals(worldWithRows().snapshot().bytes)).toBe(true)
  })

  test('a file-backed world survives reopening and restores losslessly', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wsgym-'))
    const file = join(dir, 'w.sqlite')
    const world = World.create([things], file)
    world.tx((db) =>
      db
        .insert(things)
        .values({ id: 1, name: 'kept', data: Buffer.from([1, 2]) })
        .run(),
    )
    const snap = world.snapshot()
    world.tx((db) => db.insert(things).values({ id: 2, name: 'later' }).run())
    world.close()
    const reopened = World.open(file)
    expect(reopened.db.select().from(things).all()).toHaveLength(2)
    reopened.restore(snap)
    expect(
      reopened.db
        .select()
        .from(things)
        .all()
        .map((r) => r.name),
    ).toEqual(['kept'])
    reopened.close()
    expect(
      World.open(file)
        .db.select()
        .from(things)
        .all()
        .map((r) => r.name),
    ).toEqual(['kept'])
  })
})

describe('deterministic ids', () => {
  test("ids have the real services' shapes", () => {
    const world = worldWithRows()
    world.tx((db) => {
      expect(gmailId(db)).toMatch(/^[0-9a-f]{16}$/)
      expect(driveId(db)).toMatch(/^1[A-Za-z0-9_-]{32}$/)
      expect(calendarEventId(db)).toMatch(/^[0-9a-v]{26}$/)
      expect(slackId(db, 'C')).toMatch(/^C[A-Z0-9]{10}$/)
    })
  })

  test('slack ts values are unique and increasing within one clock reading', () => {
    const world = worldWithRows()
    const list = world.tx((db) => Array.from({ length: 5 }, () => slackTs(db)))
    expect(new Set(list).size).toBe(5)
    expect([...list].sort()).toEqual(list)
    expect(list[0]).toMatch(/^\d{10}\.\d{6}$/)
  })

  test('different seed values give different ids', () => {
    const a = new WorldManager().create({ seed: 'empty', seedValue: 1 })
    const b = new WorldManager().create({ seed: 'empty', seedValue: 2 })
    expect(a.world.tx((db) => driveId(db))).not.toEqual(b.world.tx((db) => driveId(db)))
  })
})

describe('determinism across whole worlds', () => {
  test('the same seed and the same requests give byte-identical worlds and responses', async () => {
    const run = async () => {
      const h = harness('demo', 7)
      const bodies: string[] = []
      for (const path of [
        '/gmail/v1/users/me/profile',
        '/gmail/v1/users/me/labels',
        '/drive/v3/files',
        '/calendar/v3/users/me/calendarList',
      ]) {
        bodies.push((await h.call('GET', path)).text)
      }
      bodies.push((await h.call('POST', '/api/auth.test', { form: {} })).text)
      return { bodies, bytes: h.entry.world.snapshot().bytes }
    }
    const a = await run()
    const b = await run()
    expect(a.bodies).toEqual(b.bodies)
    expect(a.bytes.equals(b.bytes)).toBe(true)
  })

  test('the clock moves by the tick on each agent request', async () => {
    const h = harness('empty')
    const t0 = nowMs(h.entry.world.db)
    await h.call('GET', '/gmail/v1/users/me/profile')
    await h.call('GET', '/gmail/v1/users/me/profile')
    expect(nowMs(h.entry.world.db) - t0).toBe(2000)
  })
})

describe('held worlds (World.hold, reused by the gym validation)', () => {
  test('rewind brings back the exact bytes, on the same connection, and notes the tables written', () => {
    const world = worldWithRows()
    const bytes = world.snapshot().bytes
    const connection = world.sqlite
    world.hold()
    expect(world.held).toBe(true)
    expect([...world.changedTables()!]).toEqual([])
    world.tx((db) => {
      db.update(things).set({ name: 'changed' }).where(eq(things.id, 4)).run()
      setMeta(db, 'note', 'x')
    })
    world.db.delete(things).where(eq(things.id, 5)).run()
    expect([...world.changedTables()!].sort()).toEqual(['test_things', 'world_meta'])
    expect(world.rewind()).toBe(true)
    expect(world.held).toBe(false)
    expect(world.sqlite).toBe(connection)
    expect(world.snapshot().bytes.equals(bytes)).toBe(true)
    world.hold()
    expect([...world.changedTables()!]).toEqual([])
    expect(world.rewind()).toBe(true)
    world.close()
  })

  test('rollbackTo returns to a savepoint as often as asked, keeps it and outer ones, notes no undone write', () => {
    const world = worldWithRows()
    const bytes = world.snapshot().bytes
    const name = (id: number) => world.db.select().from(things).where(eq(things.id, id)).get()?.name
    world.hold()
    world.savepoint('outer')
    world.db.update(things).set({ name: 'one' }).where(eq(things.id, 1)).run()
    world.savepoint('inner')
    for (const round of [1, 2, 3]) {
      world.db
        .update(things)
        .set({ name: `two ${round}` })
        .where(eq(things.id, 2))
        .run()
      world.tx((db) => setMeta(db, 'note', String(round)))
      world.rollbackTo('inner')
      expect([name(1), name(2)]).toEqual(['one', 'thing 2 ✓'])
      expect([...world.changedTables()!]).toEqual(['test_things'])
    }
    world.db.delete(things).where(eq(things.id, 3)).run()
    world.rollbackTo('outer')
    expect([name(1), name(3)]).toEqual(['thing 1 ✓', 'thing 3 ✓'])
    expect([...world.changedTables()!]).toEqual([])
    // The outer savepoint stays after a rollback to it: later writes are undone by the next one too.
    world.db.delete(things).where(eq(things.id, 4)).run()
    world.rollbackTo('outer')
    expect(name(4)).toBe('thing 4 ✓')
    expect(() => world.rollbackTo('inner')).toThrow(/no such savepoint/)
    expect(world.rewind()).toBe(true)
    expect(world.snapshot().bytes.equals(bytes)).toBe(true)
    world.close()
  })

  test('held and rewound unwritten, a world snapshots to the image it was opened on (hold writes no world row)', () => {
    const snap = worldWithRows().snapshot()
    const world = World.from(snap)
    world.hold()
    expect(world.rewind()).toBe(true)
    expect(world.snapshot().bytes).toBe(snap.bytes)
    world.hold()
    world.db.update(things).set({ name: 'changed' }).where(eq(things.id, 4)).run()
    expect(world.rewind()).toBe(true)
    const again = world.snapshot().bytes
    expect(again).not.toBe(snap.bytes)
    expect(again.equals(snap.bytes)).toBe(true)
    world.close()
  })

  test('savepoints run statements compiled once per name and connection, none from SQL text', () => {
    const world = worldWithRows()
    const snap = world.snapshot()
    const name = () => world.db.select().from(things).where(eq(things.id, 1)).get()?.name
    const prepared = vi.spyOn(Database.prototype, 'prepare')
    const exec = vi.spyOn(Database.prototype, 'exec')
    const savepointSql = () =>
      prepared.mock.calls.map(([sql]) => sql).filter((sql) => /SAVEPOINT|ROLLBACK|RELEASE/.test(sql))
    try {
      world.hold()
      exec.mockClear()
      const before = world.changeCount()
      for (const round of [1, 2, 3]) {
        world.savepoint('shared_0')
        world.db
          .update(things)
          .set({ name: `round ${round}` })
          .where(eq(things.id, 1))
          .run()
        expect(name()).toBe(`round ${round}`)
        world.rollbackTo('shared_0')
        expect(name()).toBe('thing 1 ✓')
      }
      // Counted even when rolled back: an update a round (and the note its trigger wrote).
      expect(world.changeCount()).toBeGreaterThanOrEqual(before + 3)
      expect(savepointSql()).toEqual(['SAVEPOINT "shared_0"', 'ROLLBACK TO "shared_0"', 'RELEASE "shared_0"'])
      expect(exec).not.toHaveBeenCalled()
      world.rewind()
      // A new connection (restore) compiles them again for itself.
      world.restore(snap)
      world.hold()
      world.savepoint('shared_0')
      world.db.update(things).set({ name: 'again' }).where(eq(things.id, 1)).run()
      world.rollbackTo('shared_0')
      expect(name()).toBe('thing 1 ✓')
      expect(savepointSql()).toHaveLength(6)
      world.rewind()
    } finally {
      prepared.mockRestore()
      exec.mockRestore()
      world.close()
    }
  })

  test('a held world refuses snapshots and restores (its writes are not committed)', () => {
    const world = worldWithRows()
    const snap = world.snapshot()
    world.hold()
    expect(() => world.snapshot()).toThrow(/held/)
    expect(() => world.restore(snap)).toThrow(/held/)
    world.rewind()
    world.close()
  })

  test('a held world whose open transaction was lost says so instead of judging', () => {
    const world = worldWithRows()
    world.hold()
    world.db.delete(things).where(eq(things.id, 5)).run()
    world.sqlite.exec('ROLLBACK')
    expect(() => world.changedTables()).toThrow(/lost its open transaction/)
    expect(world.rewind()).toBe(false)
    world.close()
  })
})

describe('WorldManager reuse', () => {
  test('a reused world starts from the template on the connection the last one used', () => {
    const worlds = new WorldManager()
    try {
      const a = worlds.create({ seed: 'demo', reuse: true })
      const connection = a.world.sqlite
      const template = a.baseline.bytes
      a.world.sqlite.exec("UPDATE world_users SET name = 'Changed' WHERE id = 'bob'")
      worlds.delete(a.id)
      const b = worlds.create({ seed: 'demo', reuse: true })
      expect(b.world.sqlite).toBe(connection)
      expect(b.world.held).toBe(true)
      // A second live world of the same template gets its own connection.
      const c = worlds.create({ seed: 'demo', reuse: true })
      expect(c.world.sqlite).not.toBe(connection)
      worlds.delete(b.id)
      worlds.delete(c.id)
      const d = worlds.create({ seed: 'demo', reuse: true })
      d.world.rewind()
      expect(d.world.snapshot().bytes.equals(template)).toBe(true)
      worlds.delete(d.id)
    } finally {
      worlds.close()
    }
  })

  test("a new template's first reused world is the connection that built it, and acts as one from bytes", async () => {
    // Two managers with one template map and one server secret: the first builds the template and keeps the
    // connection that built it; the second opens the template's bytes. Same world id, so the same tokens.
    const templates = new Map<string, Snapshot>()
    const serverSecret = Buffer.alloc(32, 7)
    const built = new WorldManager({ templates, serverSecret })
    const opened = new WorldManager({ templates, serverSecret })
    const changes = (w: World) => w.raw.prepare('SELECT total_changes()').pluck().get() as number
    try {
      const a = built.create({ id: 'w1', seed: 'demo', reuse: true })
      const b = opened.create({ id: 'w1', seed: 'demo', reuse: true })
      expect(b.baseline).toBe(a.baseline)
      // The building connection counted the seed's rows; a connection just opened on the bytes counted none but
      // the schema rows of the note triggers hold() installs (3 per table; none for world_meta, no insert trigger
      // for the action log: held-notes.ts UNNOTED).
      const tables = b.world.raw.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get()
      expect(changes(a.world)).toBeGreaterThan(changes(b.world))
      expect(changes(b.world)).toBe(3 * (tables as number) - 4)
      const answers = async (worlds: WorldManager) => {
        const app = createAgentApp(worlds)
        const { googleToken, slackUserToken } = worlds.credentials('w1', 'bob')[0]!
        const out: string[] = []
        const call = async (method: string, path: string, body?: unknown) => {
          const token = path.startsWith('/api/') ? slackUserToken : googleToken
          const headers: Record<string, string> = { authorization: `Bearer ${token}` }
          if (body !== undefined) headers['content-type'] = 'application/json'
          const text = body === undefined ? undefined : JSON.stringify(body)
          const res = await app.request(path, { method, headers, body: text })
          out.push(`${res.status} ${await res.text()}`)
        }
        const mail = 'From: bob@northwind.test\r\nTo: alice@northwind.test\r\nSubject: s\r\n\r\nhi'
        const raw = Buffer.from(mail).toString('base64url')
        await call('POST', '/gmail/v1/users/me/messages/send', { raw })
        await call('GET', '/gmail/v1/users/me/messages?maxResults=3')
        await call('POST', '/drive/v3/files', { name: 'notes', mimeType: 'application/vnd.google-apps.folder' })
        await call('GET', '/drive/v3/files?pageSize=3')
        const day = { start: { dateTime: '2026-03-02T10:00:00Z' }, end: { dateTime: '2026-03-02T11:00:00Z' } }
        await call('POST', '/calendar/v3/calendars/primary/events', { summary: 'Sync', ...day })
        await call('POST', '/api/chat.postMessage', { channel: 'general', text: 'hello' })
        await call('GET', '/api/conversations.list')
        return out
      }
      const fromBuild = await answers(built)
      expect(fromBuild.filter((a) => a.startsWith('200 ')).length).toBeGreaterThan(5)
      expect(await answers(opened)).toEqual(fromBuild)
      expect(a.world.raw.serialize().equals(b.world.raw.serialize())).toBe(true)
      // Deleted, the building connection is rewound to the template's bytes and kept for the next world.
      const connection = a.world.raw
      built.delete('w1')
      const next = built.create({ id: 'w2', seed: 'demo', reuse: true })
      expect(next.world.raw).toBe(connection)
      next.world.rewind()
      expect(next.world.snapshot().bytes.equals(a.baseline.bytes)).toBe(true)
    } finally {
      built.close()
      opened.close()
    }
  })

  test("a reused template's bytes are serialized when first read, and are its build's bytes", async () => {
    const serialize = vi.spyOn(Database.prototype, 'serialize')
    const eager = new WorldManager()
    const held = new WorldManager()
    const idle = new WorldManager()
    try {
      const expected = eager.template('demo', 1).bytes
      const calls = serialize.mock.calls.length
      const a = held.create({ seed: 'demo', reuse: true })
      const b = idle.create({ seed: 'demo', reuse: true })
      // Built, held and answering, and nothing serialized yet; the cache counts the image's size unread.
      const app = createAgentApp(held)
      const { googleToken } = held.credentials(a.id, 'bob')[0]!
      const res = await app.request('/gmail/v1/users/me/labels', {
        headers: { authorization: `Bearer ${googleToken}` },
      })
      expect(res.status).toBe(200)
      expect(serialize.mock.calls.length).toBe(calls)
      expect(held.templateStats().bytes).toBe(expected.length)
      // Read while its connection is held (here after a write): the template is built again, to the same bytes.
      a.world.sqlite.exec("UPDATE world_users SET name = 'Changed' WHERE id = 'bob'")
      expect(a.baseline.bytes.equals(expected)).toBe(true)
      expect(a.baseline.bytes).toBe(a.baseline.bytes)
      // Read while its connection is idle (rewound): that connection is serialized.
      const connection = b.world.raw
      idle.delete(b.id)
      const before = serialize.mock.calls.length
      expect(b.baseline.bytes.equals(expected)).toBe(true)
      expect(serialize.mock.instances.slice(before)).toEqual([connection])
      expect(idle.create({ seed: 'demo', reuse: true }).world.raw).toBe(connection)
    } finally {
      serialize.mockRestore()
      eager.close()
      held.close()
      idle.close()
    }
  })

  test('a world that lost its open transaction is closed, not reused', () => {
    const worlds = new WorldManager()
    try {
      const a = worlds.create({ seed: 'demo', reuse: true })
      const connection = a.world.sqlite
      a.world.sqlite.exec('ROLLBACK')
      worlds.delete(a.id)
      expect(connection.open).toBe(false)
      const b = worlds.create({ seed: 'demo', reuse: true })
      expect(b.world.sqlite).not.toBe(connection)
    } finally {
      worlds.close()
    }
  })
})
