import { describe, expect, test } from 'vitest'
import { createHash } from 'node:crypto'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { join } from 'node:path'
import { World } from '../../envs/core/world.ts'
import { snapshotMemory } from '../../envs/core/snapshot-memory.ts'
import { WorldManager } from '../../server/worlds.ts'
import { createControlApp } from '../../server/control/app.ts'
import { tempDirs } from '../support/tmp-dirs.ts'

const tmp = tempDirs()

/** A world with one table of a few rows. */
function small(file?: string) {
  const world = World.create([], file)
  world.sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)')
  world.sqlite.prepare("INSERT INTO t (v) VALUES ('a'), ('b')").run()
  return world
}

/** The world's bytes as SQLite serializes them now (what a snapshot must equal). */
const fresh = (world: World) => {
  const bytes = world.sqlite.serialize()
  if (bytes[18] === 2) bytes[18] = bytes[19] = 1
  // Snapshots carry one change counter however many commits made them (docs/decisions/0419).
  bytes.writeUInt32BE(1, 24)
  bytes.writeUInt32BE(1, 92)
  return bytes
}

/** Collects until finalizers stop changing the figures (they run after a collection, on a later turn). */
async function settle() {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  let seen = ''
  let steady = 0
  for (let i = 0; i < 100 && steady < 5; i++) {
    gc()
    await new Promise((r) => setTimeout(r, 5))
    const now = JSON.stringify(snapshotMemory())
    steady = now === seen ? steady + 1 : 0
    seen = now
  }
  return snapshotMemory()
}

describe('World.snapshot', () => {
  test('shares the image of a world not written since, and serializes again after any kind of write', () => {
    const world = small()
    const first = world.snapshot()
    expect(world.snapshot().bytes).toBe(first.bytes)
    const writes: [string, () => void][] = [
      ['insert', () => world.sqlite.prepare("INSERT INTO t (v) VALUES ('c')").run()],
      ['update', () => world.sqlite.prepare("UPDATE t SET v = 'z' WHERE id = 1").run()],
      ['delete all', () => world.sqlite.exec('DELETE FROM t')],
      ['index (schema only)', () => world.sqlite.exec('CREATE INDEX t_v ON t (v)')],
      ['user version', () => world.sqlite.pragma('user_version = 7')],
      [
        'rolled back',
        () => {
          try {
            world.tx((db) => {
              db.$client.prepare("INSERT INTO t (v) VALUES ('gone')").run()
              throw new Error('roll back')
            })
          } catch {
            /* expected */
          }
        },
      ],
    ]
    let last = first.bytes
    for (const [name, write] of writes) {
      write()
      const next = world.snapshot().bytes
      expect(next, name).not.toBe(last)
      expect(Buffer.compare(next, fresh(world)), name).toBe(0)
      expect(world.snapshot().bytes, `${name}, again`).toBe(next)
      last = next
    }
    world.close()
  })

  test('a restored or forked in-memory world is its image until written; a file-backed restore is not', () => {
    const world = small()
    const snap = world.snapshot()
    world.sqlite.prepare("INSERT INTO t (v) VALUES ('c')").run()
    world.restore(snap)
    expect(world.snapshot().bytes).toBe(snap.bytes)
    const fork = world.fork()
    expect(fork.snapshot().bytes).toBe(snap.bytes)
    fork.sqlite.prepare("INSERT INTO t (v) VALUES ('d')").run()
    expect(fork.snapshot().bytes).not.toBe(snap.bytes)
    expect(world.snapshot().bytes).toBe(snap.bytes)
    fork.close()
    world.close()

    const onDisk = small(join(tmp('snapshot-sharing'), 'w.sqlite'))
    const before = onDisk.snapshot()
    onDisk.restore(before)
    const after = onDisk.snapshot()
    expect(after.bytes).not.toBe(before.bytes)
    expect(Buffer.compare(after.bytes, fresh(onDisk))).toBe(0)
    onDisk.close()
  })

  test('a world opened on an image shares it whatever the header holds (negative user version, schema cookie)', () => {
    const world = small()
    world.sqlite.pragma('user_version = -5')
    for (let i = 0; i < 3; i++) world.sqlite.exec(`CREATE TABLE extra${i} (x)`)
    const snap = world.snapshot()
    expect(snap.bytes.readInt32BE(60)).toBe(-5)
    expect(snap.bytes.readInt32BE(40)).toBeGreaterThan(3)
    const restored = small()
    restored.restore(snap)
    expect(restored.snapshot().bytes).toBe(snap.bytes)
    const opened = World.from(snap)
    expect(opened.snapshot().bytes).toBe(snap.bytes)
    opened.sqlite.prepare("INSERT INTO t (v) VALUES ('c')").run()
    const written = opened.snapshot().bytes
    expect(written).not.toBe(snap.bytes)
    expect(Buffer.compare(written, fresh(opened))).toBe(0)
    for (const w of [world, restored, opened]) w.close()
  })

  test('counts each serialized image once while it lives, and not after it is collected', async () => {
    const base = await settle()
    const world = small()
    let snap: { bytes: Buffer } | undefined = world.snapshot()
    world.snapshot()
    expect(snapshotMemory()).toEqual({ bytes: base.bytes + snap.bytes.length, images: base.images + 1 })
    world.sqlite.prepare("INSERT INTO t (v) VALUES ('c')").run()
    world.snapshot()
    expect(snapshotMemory().images).toBe(base.images + 2)
    world.close()
    snap = undefined
    expect(await settle()).toEqual(base)
  })
})

describe('World.fork after a write', () => {
  const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

  test("holds exactly the source's bytes, shares one image with it, and neither sees the other's later writes", () => {
    const world = small()
    const before = world.snapshot()
    world.sqlite.prepare("INSERT INTO t (v) VALUES ('written before the fork')").run()
    const fork = world.fork()
    const atFork = sha(fresh(world))
    expect(sha(fresh(fork))).toBe(atFork)
    const image = fork.snapshot().bytes
    expect(image).not.toBe(before.bytes)
    expect(world.snapshot().bytes).toBe(image)
    expect(sha(image)).toBe(atFork)

    world.sqlite.prepare("INSERT INTO t (v) VALUES ('source only')").run()
    fork.sqlite.prepare("UPDATE t SET v = 'fork only' WHERE id = 1").run()
    const rows = (w: World) => w.sqlite.prepare('SELECT v FROM t ORDER BY id').pluck().all()
    expect(rows(world)).toEqual(['a', 'b', 'written before the fork', 'source only'])
    expect(rows(fork)).toEqual(['fork only', 'b', 'written before the fork'])
    // The image both shared is untouched by either world's later writes, and restores to the fork point.
    expect(sha(image)).toBe(atFork)
    world.restore({ bytes: image })
    expect(sha(fresh(world))).toBe(atFork)
    fork.restore(before)
    expect(rows(fork)).toEqual(['a', 'b'])
    world.close()
    fork.close()
  })

  test('counts the image it made once, and not once both worlds are closed and it is collected', async () => {
    const base = await settle()
    const world = small()
    world.sqlite.prepare("INSERT INTO t (v) VALUES ('c')").run()
    const fork = world.fork()
    const size = fresh(world).length
    expect(snapshotMemory()).toEqual({ bytes: base.bytes + size, images: base.images + 1 })
    // Neither world serializes again while unchanged: the fork's image is theirs.
    world.snapshot()
    fork.snapshot()
    expect(snapshotMemory()).toEqual({ bytes: base.bytes + size, images: base.images + 1 })
    world.close()
    fork.close()
    expect(await settle()).toEqual(base)
  })
})

describe('control plane /stats', () => {
  test('reports named snapshots, and no longer counts one once deleted', async () => {
    const worlds = new WorldManager()
    const control = createControlApp(worlds, { adminToken: 'admin' })
    const call = async (method: string, path: string, body?: unknown) => {
      const headers: Record<string, string> = { authorization: 'Bearer admin' }
      if (body) headers['content-type'] = 'application/json'
      const res = await control.request(path, { method, headers, body: body ? JSON.stringify(body) : undefined })
      return { status: res.status, body: (res.status === 204 ? undefined : await res.json()) as any }
    }
    const users = [{ id: 'ann', email: 'ann@example.com', name: 'Ann' }]
    const seed = { name: 'stats', now: '2026-03-02T09:00:00Z', users }
    expect((await call('POST', '/worlds', { id: 'w1', seed })).status).toBe(201)
    const taken = await call('POST', '/worlds/w1/snapshots', { name: 'start' })
    const stats = await call('GET', '/stats')
    expect(stats.body.worlds).toBe(1)
    expect(stats.body.snapshots).toEqual({ named: 1, bytes: taken.body.bytes, inFiles: false })
    expect(stats.body.snapshotImages.bytes).toBeGreaterThanOrEqual(taken.body.bytes)
    expect(stats.body.memory.rss).toBeGreaterThan(0)
    expect((await call('DELETE', '/worlds/w1/snapshots/start')).status).toBe(204)
    expect((await call('GET', '/stats')).body.snapshots).toEqual({ named: 0, bytes: 0, inFiles: false })
    worlds.close()
  })
})

describe('World.snapshot of a file-backed world', () => {
  test('serializes again after another connection writes the file', async () => {
    const { default: Database } = await import('better-sqlite3')
    const file = join(tmp('snapshot-other'), 'w.sqlite')
    const world = small(file)
    const first = world.snapshot()
    expect(world.snapshot().bytes).toBe(first.bytes)
    const other = new Database(file)
    other.prepare("INSERT INTO t (v) VALUES ('from elsewhere')").run()
    other.close()
    const next = world.snapshot()
    expect(next.bytes).not.toBe(first.bytes)
    expect(Buffer.compare(next.bytes, fresh(world))).toBe(0)
    world.close()
  })
})
