import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { WorldManager } from '../../server/worlds.ts'
import { createAgentApp } from '../../server/app.ts'
import { createControlApp } from '../../server/control/app.ts'
import { limitsFrom } from '../../server/cli.ts'
import type { Limits } from '../../server/limits.ts'

// Capacity limits refuse cleanly (429/507 JSON with a reason,
// never a 500), and snapshots are what survives (issue #12).

const ADMIN = 'admin-secret'
const seed = {
  name: 'cap',
  now: '2026-03-02T09:00:00Z',
  users: [{ id: 'ann', email: 'ann@example.com', name: 'Ann Lee' }],
}

function server(limits: Partial<Limits> = {}, dataDir?: string) {
  const worlds = new WorldManager({ limits, dataDir })
  const control = createControlApp(worlds, { adminToken: ADMIN })
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${ADMIN}` }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await control.request(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : undefined }
  }
  return { worlds, call }
}

describe('world cap', () => {
  test('past max worlds, create and fork answer 429 max_worlds; deleting one makes room', async () => {
    const s = server({ maxWorlds: 2 })
    expect((await s.call('POST', '/worlds', { id: 'a', seed })).status).toBe(201)
    expect((await s.call('POST', '/worlds', { id: 'b', seed })).status).toBe(201)
    expect(await s.call('POST', '/worlds', { id: 'c', seed })).toMatchObject({
      status: 429,
      body: { reason: 'max_worlds' },
    })
    expect(await s.call('POST', '/worlds/a/fork', { id: 'd' })).toMatchObject({
      status: 429,
      body: { reason: 'max_worlds' },
    })
    await s.call('DELETE', '/worlds/b')
    expect((await s.call('POST', '/worlds', { id: 'c', seed })).status).toBe(201)
  })

  test('without memory headroom, a new world answers 507 memory instead of risking the process', async () => {
    const s = server({ maxRssBytes: 1 })
    const res = await s.call('POST', '/worlds', { id: 'a', seed })
    expect(res).toMatchObject({ status: 507, body: { reason: 'memory' } })
    expect(res.body.error).toMatch(/resident set/)
  })

  test('without memory headroom, an in-memory snapshot answers 507 memory; the world keeps serving', async () => {
    const s = server()
    await s.call('POST', '/worlds', { id: 'a', seed })
    s.worlds.limits.maxRssBytes = 1
    expect(await s.call('POST', '/worlds/a/snapshots', { name: 'one' })).toMatchObject({
      status: 507,
      body: { reason: 'memory' },
    })
    expect((await s.call('GET', '/worlds/a')).status).toBe(200)
  })
})

describe('snapshot caps and names', () => {
  test('past max snapshots per world, another name answers 429; re-taking an existing name is fine', async () => {
    const s = server({ maxSnapshotsPerWorld: 2 })
    await s.call('POST', '/worlds', { id: 'a', seed })
    expect((await s.call('POST', '/worlds/a/snapshots', { name: 's1' })).status).toBe(201)
    expect((await s.call('POST', '/worlds/a/snapshots', { name: 's2' })).status).toBe(201)
    expect(await s.call('POST', '/worlds/a/snapshots', { name: 's3' })).toMatchObject({
      status: 429,
      body: { reason: 'max_snapshots' },
    })
    expect((await s.call('POST', '/worlds/a/snapshots', { name: 's2' })).status).toBe(201)
    expect((await s.call('DELETE', '/worlds/a/snapshots/s1')).status).toBe(204)
    expect((await s.call('POST', '/worlds/a/snapshots', { name: 's3' })).status).toBe(201)
    expect((await s.call('DELETE', '/worlds/a/snapshots/nope')).status).toBe(404)
  })

  test('past the snapshot bytes of a world, a snapshot answers 507 snapshot_bytes', async () => {
    const s = server({ maxSnapshotBytesPerWorld: 10_000 })
    await s.call('POST', '/worlds', { id: 'a', seed })
    expect(await s.call('POST', '/worlds/a/snapshots', { name: 'big' })).toMatchObject({
      status: 507,
      body: { reason: 'snapshot_bytes' },
    })
    expect((await s.call('GET', '/worlds/a')).body.snapshots).toEqual([])
  })

  test('bad names answer 400 bad_name with the rule: emoji, too long, path characters, "baseline"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wsgym-snap-'))
    const s = server({}, dir)
    await s.call('POST', '/worlds', { id: 'a', seed })
    for (const name of ['😀'.repeat(120), 'x'.repeat(65), '../etc', 'a/b', '.hidden', 'baseline', 'sp ace']) {
      const res = await s.call('POST', '/worlds/a/snapshots', { name })
      expect([name, res.status, res.body.reason]).toEqual([name, 400, 'bad_name'])
    }
    expect((await s.call('POST', '/worlds/a/snapshots', { name: 'before-step_3.v2' })).status).toBe(201)
    expect((await s.call('GET', '/worlds/a')).body.snapshots).toEqual(['before-step_3.v2'])
  })

  test('what is listed survives a restart with --data-dir, and a restart reads no snapshot bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wsgym-snap-'))
    const first = server({}, dir)
    await first.call('POST', '/worlds', { id: 'a', seed })
    for (const name of ['one', 'two']) await first.call('POST', '/worlds/a/snapshots', { name })
    const listed = (await first.call('GET', '/worlds/a')).body.snapshots
    const again = new WorldManager({ dataDir: dir })
    const entry = again.get('a')
    expect([...entry.snapshots.keys()].sort()).toEqual([...listed].sort())
    // Lazy: each snapshot is an accessor over its file, read when first used (restore, diff).
    for (const snap of entry.snapshots.values())
      expect(Object.getOwnPropertyDescriptor(snap, 'bytes')?.get).toBeTypeOf('function')
    again.restore('a', 'one')
    expect(
      readdirSync(dir)
        .filter((f) => f.includes('.snap.'))
        .sort(),
    ).toEqual(['a.snap.one', 'a.snap.two'])
  })

  test('tokens survive a restart with --data-dir (the world secret is kept beside the world)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wsgym-key-'))
    const first = server({}, dir)
    const token = (await first.call('POST', '/worlds', { id: 'a', seed })).body.users[0].googleToken
    const agent = createAgentApp(new WorldManager({ dataDir: dir }))
    expect(
      (await agent.request('/gmail/v1/users/me/profile', { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200)
  })
})

describe('template cache', () => {
  test('is bounded: past max templates the least recently used is dropped', () => {
    const worlds = new WorldManager({ limits: { maxTemplates: 3 } })
    for (let v = 1; v <= 6; v++) worlds.template(seed, v)
    expect(worlds.templateStats().count).toBe(3)
    const kept = worlds.template(seed, 6)
    expect(worlds.template(seed, 6)).toBe(kept)
  })
})

describe('CLI limit flags', () => {
  test('map to limits, and a bad value names the flag', () => {
    expect(limitsFrom({ 'max-worlds': '10', 'max-snapshot-mb': '2', 'episode-idle-s': '30' })).toEqual({
      maxWorlds: 10,
      maxSnapshotBytesPerWorld: 2 * 1024 * 1024,
      episodeIdleMs: 30_000,
    })
    expect(limitsFrom({ 'max-episodes': '-1' })).toBe('--max-episodes must be a positive integer')
  })
})
