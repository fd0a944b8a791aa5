import { describe, expect, test } from 'vitest'
import { sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { World, WorldLostWrites } from '../../envs/core/world.ts'
import { keptWhileUnwritten } from '../../envs/core/write-epoch.ts'
import { WorldManager } from '../../server/worlds.ts'
import { createAgentApp } from '../../server/app.ts'
import { createControlApp } from '../../server/control/app.ts'

// In-memory worlds batch agent requests' writes into one open transaction, committed once per batch or before the
// world's bytes are read (docs/decisions/0419). What must hold: a failed request undoes only its own writes; a
// transaction SQLite rolls back whole is refused clearly, never served as older contents; the same requests give
// the same bytes batched or not; every read sees every earlier write.

const ADMIN = 'admin-secret'
const SEED = {
  name: 'batched',
  now: '2026-03-02T09:00:00Z',
  users: [
    { id: 'ann', email: 'ann@example.com', name: 'Ann Lee' },
    { id: 'bob', email: 'bob@example.com', name: 'Bob Ray' },
  ],
  slack: { channels: [{ name: 'general', members: 'all' }] },
}

/** A server over one manager: agent calls with Ann's token, control calls with the admin token. */
function server(batchWrites: number) {
  const worlds = new WorldManager({ batchWrites })
  const agent = createAgentApp(worlds)
  const control = createControlApp(worlds, { adminToken: ADMIN })
  const read = async (res: Response) => {
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : undefined }
  }
  const admin = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${ADMIN}` }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }
    return read(await control.request(path, init))
  }
  const call = async (method: string, path: string, json?: unknown, world = 'w') => {
    const token = worlds.credentials(world, 'ann')[0]!.googleToken!
    const headers: Record<string, string> = { authorization: `Bearer ${token}` }
    if (json !== undefined) headers['content-type'] = 'application/json'
    const init = { method, headers, body: json === undefined ? undefined : JSON.stringify(json) }
    return read(await agent.request(path, init))
  }
  return { worlds, admin, call }
}

const raw = (i: number) =>
  Buffer.from(`From: ann@example.com\r\nTo: bob@example.com\r\nSubject: note ${i}\r\n\r\nbody ${i}\r\n`).toString(
    'base64url',
  )

/** Writes of every kind, reads, and refusals (a 400 and a 404 among them), in a fixed order. */
const REQUESTS: [string, string, unknown?][] = []
for (let i = 0; i < 12; i++) {
  REQUESTS.push(['POST', '/drive/v3/files', { name: `file ${i}`, mimeType: 'text/plain' }])
  REQUESTS.push(['POST', '/gmail/v1/users/me/messages/send', { raw: raw(i) }])
  if (i === 5) REQUESTS.push(['POST', '/calendar/v3/calendars/primary/events', { summary: 'no times' }])
  if (i === 6) REQUESTS.push(['DELETE', '/drive/v3/files/no-such-file'])
  REQUESTS.push([
    'POST',
    '/calendar/v3/calendars/primary/events',
    { summary: `meeting ${i}`, start: { dateTime: '2026-03-03T10:00:00Z' }, end: { dateTime: '2026-03-03T11:00:00Z' } },
  ])
  REQUESTS.push(['GET', '/drive/v3/files?pageSize=3'])
}

describe('batched worlds over HTTP', () => {
  test('give the bytes an unbatched world gives for the same requests: snapshots mid-batch, at the end, forks', async () => {
    const runs = await Promise.all(
      [0, 5].map(async (batch) => {
        const s = server(batch)
        expect((await s.admin('POST', '/worlds', { id: 'w', seed: SEED })).status).toBe(201)
        const statuses: number[] = []
        for (const [k, [method, path, json]] of REQUESTS.entries()) {
          statuses.push((await s.call(method, path, json)).status)
          // A snapshot in the middle of a batch (7 is not a multiple of 5): it commits what the batch holds.
          if (k === 7) expect((await s.admin('POST', '/worlds/w/snapshots', { name: 'mid' })).status).toBe(201)
        }
        expect((await s.admin('POST', '/worlds/w/snapshots', { name: 'end' })).status).toBe(201)
        expect((await s.admin('POST', '/worlds/w/fork', { id: 'copy' })).status).toBe(201)
        // The fork goes on taking requests as its own world.
        expect((await s.call('POST', '/drive/v3/files', { name: 'in the copy' }, 'copy')).status).toBe(200)
        const entry = s.worlds.get('w')
        const bytes = {
          mid: entry.snapshots.get('mid')!.bytes,
          end: entry.snapshots.get('end')!.bytes,
          copy: s.worlds.get('copy').world.snapshot().bytes,
        }
        const state = (await s.admin('GET', '/worlds/w/state')).body
        s.worlds.close()
        return { statuses, bytes, state }
      }),
    )
    const [unbatched, batched] = runs as [(typeof runs)[0], (typeof runs)[0]]
    expect(unbatched.statuses.filter((x) => x >= 400)).toEqual([400, 404])
    expect(batched.statuses).toEqual(unbatched.statuses)
    for (const k of ['mid', 'end', 'copy'] as const) {
      expect(batched.bytes[k].equals(unbatched.bytes[k]), k).toBe(true)
    }
    expect(batched.state).toEqual(unbatched.state)
  })

  test('a read sees every earlier write of the batch, over the agent API and the control plane', async () => {
    const s = server(64)
    await s.admin('POST', '/worlds', { id: 'w', seed: SEED })
    const made = await s.call('POST', '/drive/v3/files', { name: 'fresh', mimeType: 'text/plain' })
    expect(s.worlds.get('w').world.raw.inTransaction).toBe(true)
    const got = await s.call('GET', `/drive/v3/files/${made.body.id}`)
    expect(got.body).toMatchObject({ id: made.body.id, name: 'fresh' })
    const listed = await s.call('GET', `/drive/v3/files?q=${encodeURIComponent("name = 'fresh'")}`)
    expect(listed.body.files.map((f: { id: string }) => f.id)).toEqual([made.body.id])
    const state = (await s.admin('GET', '/worlds/w/state')).body
    expect(JSON.stringify(state)).toContain(made.body.id)
    const actions = (await s.admin('GET', '/worlds/w/actions')).body
    expect(JSON.stringify(actions)).toContain('files.create')
    s.worlds.close()
  })

  test('a file-backed world commits every write (nothing batched)', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const dir = mkdtempSync(join(tmpdir(), 'wsgym-batch-'))
    try {
      const worlds = new WorldManager({ dataDir: dir, batchWrites: 64 })
      const entry = worlds.create({ id: 'w', seed: SEED })
      const app = createAgentApp(worlds)
      const token = worlds.credentials('w', 'ann')[0]!.googleToken!
      const res = await app.request('/drive/v3/files', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'durable' }),
      })
      expect(res.status).toBe(200)
      expect(entry.world.raw.inTransaction).toBe(false)
      worlds.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('an open batch SQLite rolls back whole (SQLITE_FULL) is refused clearly until the world is restored', async () => {
    const s = server(64)
    await s.admin('POST', '/worlds', { id: 'w', seed: SEED })
    const first = await s.call('POST', '/drive/v3/files', { name: 'answered before the cap' })
    expect(first.status).toBe(200)
    // The world may grow by a few pages only: a large description then fills it.
    const sqlite = s.worlds.get('w').world.raw
    const pages = sqlite.pragma('page_count', { simple: true }) as number
    sqlite.pragma(`max_page_count = ${pages + 4}`)
    const big = await s.call('POST', '/drive/v3/files', { name: 'too big', description: 'x'.repeat(200_000) })
    expect(big.status).toBe(503)
    // Drive's legacy envelope (no `status`), as every Drive error.
    expect(big.body.error).toMatchObject({ code: 503, errors: [{ reason: 'backendError' }] })
    expect(big.body.error.message).toMatch(/lost the writes of up to 2 answered requests.*Restore/)
    // Never served as the older contents: every call, snapshot and fork refuses.
    expect((await s.call('GET', `/drive/v3/files/${first.body.id}`)).status).toBe(503)
    expect(await s.admin('POST', '/worlds/w/snapshots', { name: 'after' })).toMatchObject({
      status: 409,
      body: { reason: 'lost_writes' },
    })
    expect((await s.admin('POST', '/worlds/w/fork', { id: 'copy' })).status).toBe(409)
    expect((await s.admin('POST', '/worlds/w/restore', { name: 'baseline' })).status).toBe(200)
    const again = await s.call('POST', '/drive/v3/files', { name: 'after restore' })
    expect(again.status).toBe(200)
    expect((await s.call('GET', `/drive/v3/files/${again.body.id}`)).body.name).toBe('after restore')
    s.worlds.close()
  })

  test('unbatched, the same cap fails only the request that reaches it', async () => {
    const s = server(0)
    await s.admin('POST', '/worlds', { id: 'w', seed: SEED })
    const first = await s.call('POST', '/drive/v3/files', { name: 'answered before the cap' })
    const sqlite = s.worlds.get('w').world.raw
    sqlite.pragma(`max_page_count = ${(sqlite.pragma('page_count', { simple: true }) as number) + 4}`)
    const big = await s.call('POST', '/drive/v3/files', { name: 'too big', description: 'x'.repeat(200_000) })
    expect(big.status).toBe(500)
    expect((await s.call('GET', `/drive/v3/files/${first.body.id}`)).status).toBe(200)
    s.worlds.close()
  })
})

const rows = sqliteTable('test_rows', { k: text('k').primaryKey() })
/** A table no kept value reads: a write to it has no trigger, so no statement journal, and SQLITE_FULL ends all. */
const blobs = sqliteTable('test_blobs', { k: text('k').primaryKey() })

function batchedWorld(limit: number) {
  const w = World.create([rows, blobs])
  w.batchWrites(limit)
  return w
}

const insert = (w: World, k: string) => w.sqlite.prepare('INSERT INTO test_rows (k) VALUES (?)').run(k)
const keys = (w: World) => w.sqlite.prepare('SELECT k FROM test_rows ORDER BY k').pluck().all()

describe('World.batchWrites', () => {
  test('commits once per `limit` requests, and before snapshot, imageSize and hold', () => {
    const w = batchedWorld(3)
    for (let i = 0; i < 3; i++) {
      w.requestStarted(false)
      insert(w, `r${i}`)
      expect(w.raw.inTransaction).toBe(true)
      w.requestEnded(false)
    }
    expect(w.raw.inTransaction).toBe(false)
    w.requestStarted(false)
    insert(w, 'r3')
    w.requestEnded(false)
    expect(w.raw.inTransaction).toBe(true)
    expect(World.from(w.snapshot()).sqlite.prepare('SELECT count(*) FROM test_rows').pluck().get()).toBe(4)
    expect(w.raw.inTransaction).toBe(false)
    w.requestStarted(false)
    insert(w, 'r4')
    w.imageSize()
    expect(w.raw.inTransaction).toBe(false)
    w.close()
  })

  test('a risky request commits first and runs unbatched; no batch opens while it is under way', () => {
    const w = batchedWorld(64)
    w.requestStarted(false)
    insert(w, 'a')
    w.requestStarted(true)
    expect(w.raw.inTransaction).toBe(false)
    // Another request starting while the risky one awaits its body joins no batch.
    w.requestStarted(false)
    expect(w.raw.inTransaction).toBe(false)
    w.requestEnded(false)
    w.requestEnded(true)
    w.requestEnded(false)
    w.requestStarted(false)
    expect(w.raw.inTransaction).toBe(true)
    w.close()
  })

  test("a failed request's transaction undoes its own writes only, never an earlier request's", () => {
    const w = batchedWorld(64)
    w.requestStarted(false)
    insert(w, 'earlier')
    w.requestEnded(false)
    w.requestStarted(false)
    expect(() =>
      w.tx(() => {
        insert(w, 'own')
        insert(w, 'earlier') // a constraint error
      }),
    ).toThrow(/UNIQUE/)
    w.requestEnded(false)
    expect(w.raw.inTransaction).toBe(true)
    expect(keys(w)).toEqual(['earlier'])
    w.close()
  })

  test('a value kept at the batch top level is reused; one read inside a rolled-back tx is never kept', () => {
    const w = batchedWorld(64)
    let runs = 0
    const read = () =>
      keptWhileUnwritten(w.sqlite, 'test_rows', 'all', () => {
        runs++
        return keys(w)
      })
    w.requestStarted(false)
    insert(w, 'a')
    expect(read()).toEqual(['a'])
    expect(read()).toEqual(['a'])
    expect(runs).toBe(1)
    expect(() =>
      w.tx(() => {
        insert(w, 'b')
        expect(read()).toEqual(['a', 'b'])
        throw new Error('refused')
      }),
    ).toThrow('refused')
    expect(read()).toEqual(['a'])
    w.close()
  })

  test('a lost batch forgets kept values and refuses every use until restore', () => {
    const w = batchedWorld(64)
    const base = w.snapshot()
    w.requestStarted(false)
    insert(w, 'a')
    let runs = 0
    const read = () =>
      keptWhileUnwritten(w.raw, 'test_rows', 'all', () => {
        runs++
        return keys(w)
      })
    expect(read()).toEqual(['a'])
    w.requestEnded(false)
    w.raw.pragma(`max_page_count = ${w.raw.pragma('page_count', { simple: true }) as number}`)
    w.requestStarted(false)
    expect(() => w.raw.prepare('INSERT INTO test_blobs (k) VALUES (?)').run('x'.repeat(100_000))).toThrow(/full/)
    w.requestEnded(false)
    expect(w.lostWrites).toMatch(/lost the writes/)
    // The rolled-back row is not served from what was kept.
    expect(read()).toEqual([])
    expect(runs).toBe(2)
    expect(() => w.requestStarted(false)).toThrow(WorldLostWrites)
    expect(() => w.snapshot()).toThrow(WorldLostWrites)
    w.restore(base)
    expect(w.lostWrites).toBeUndefined()
    w.requestStarted(false)
    insert(w, 'b')
    w.requestEnded(false)
    expect(keys(w)).toEqual(['b'])
    w.close()
  })
})
