import { describe, expect, test } from 'vitest'
import { createHash } from 'node:crypto'
import { WorldManager } from '../../server/worlds.ts'
import { createAgentApp } from '../../server/app.ts'
import { createControlApp } from '../../server/control/app.ts'

const ADMIN = 'admin-secret'
const seed = {
  name: 'ctl',
  now: '2026-03-02T09:00:00Z',
  users: [
    { id: 'ann', email: 'ann@example.com', name: 'Ann Lee' },
    { id: 'ben', email: 'ben@example.com', name: 'Ben Ode' },
  ],
}

function setup() {
  const worlds = new WorldManager()
  const control = createControlApp(worlds, { adminToken: ADMIN })
  const agent = createAgentApp(worlds)
  const call = async (method: string, path: string, body?: unknown, token: string | null = ADMIN) => {
    const headers: Record<string, string> = {}
    if (token) headers.authorization = `Bearer ${token}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await control.request(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : undefined }
  }
  return { worlds, control, agent, call }
}

describe('control plane', () => {
  test('refuses requests without the admin token, and refuses agent tokens', async () => {
    const { call } = setup()
    const created = await call('POST', '/worlds', { id: 'w1', seed })
    expect((await call('GET', '/worlds', undefined, null)).status).toBe(401)
    expect((await call('GET', '/worlds', undefined, created.body.users[0].googleToken)).status).toBe(401)
    expect((await call('GET', '/worlds', undefined, 'admin-secreT')).status).toBe(401)
  })

  test('creates a world from an inline seed and returns user tokens that work on the agent port', async () => {
    const { call, agent } = setup()
    const created = await call('POST', '/worlds', { id: 'w1', seed })
    expect(created.status).toBe(201)
    expect(created.body.users.map((u: { email: string }) => u.email)).toEqual(['ann@example.com', 'ben@example.com'])
    const res = await agent.request('/gmail/v1/users/me/profile', {
      headers: { authorization: `Bearer ${created.body.users[1].googleToken}` },
    })
    expect(((await res.json()) as { emailAddress: string }).emailAddress).toBe('ben@example.com')
  })

  test('rejects a bad seed with the offending field path', async () => {
    const { call } = setup()
    const res = await call('POST', '/worlds', { seed: { users: [{ id: 'x', email: 'not-an-email', name: 'X' }] } })
    expect(res.status).toBe(400)
    expect(res.body.issues.map((i: { path: string }) => i.path)).toContain('users[0].email')
  })

  test('answers an empty or malformed JSON body with 400, not 500, and changes nothing', async () => {
    const { control, call } = setup()
    expect((await call('POST', '/worlds', { id: 'w1', seed })).status).toBe(201)
    const state = JSON.stringify((await call('GET', '/worlds/w1/state')).body)
    for (const [method, path] of [
      ['POST', '/worlds'],
      ['POST', '/worlds/w1/snapshots'],
      ['POST', '/worlds/w1/restore'],
      ['POST', '/worlds/w1/fork'],
      ['POST', '/worlds/w1/clock'],
      ['PUT', '/worlds/w1/rate-limits'],
    ] as const) {
      for (const body of ['', '{"id": "w2", ']) {
        const res = await control.request(path, {
          method,
          headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
          body,
        })
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400)
        expect(typeof ((await res.json()) as { error?: unknown }).error).toBe('string')
      }
    }
    expect((await call('GET', '/worlds')).body.worlds.map((w: { id: string }) => w.id)).toEqual(['w1'])
    expect(JSON.stringify((await call('GET', '/worlds/w1/state')).body)).toBe(state)
  })

  test('answers an unknown path or episode sub-path with a JSON 404', async () => {
    const { call } = setup()
    for (const [method, path] of [
      ['GET', '/nope'],
      ['POST', '/worlds/w1/nope'],
      ['GET', '/gym/episodes/ep1/state'],
      ['POST', '/gym/episodes/../step'],
    ]) {
      const r = await call(method!, path!, method === 'POST' ? {} : undefined)
      expect(r.status, `${method} ${path}`).toBe(404)
      expect(r.body.error, `${method} ${path}`).toEqual(expect.any(String))
    }
  })

  test('lists, forks and deletes worlds', async () => {
    const { call } = setup()
    await call('POST', '/worlds', { id: 'w1', seed })
    const fork = await call('POST', '/worlds/w1/fork', { id: 'w2' })
    expect(fork.status).toBe(201)
    expect((await call('GET', '/worlds')).body.worlds.map((w: { id: string }) => w.id)).toEqual(['w1', 'w2'])
    expect((await call('POST', '/worlds/w1/fork', { id: 'w2' })).status).toBe(409)
    expect((await call('DELETE', '/worlds/w1')).status).toBe(204)
    expect((await call('GET', '/worlds/w1')).status).toBe(404)
  })

  test('forks a world written by agents into an equal, independent world whose baseline is the fork point', async () => {
    const { call, agent, worlds } = setup()
    const created = await call('POST', '/worlds', { id: 'w1', seed })
    const label = (token: string, name: string) =>
      agent.request('/gmail/v1/users/me/labels', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      })
    const labels = async (token: string) => {
      const res = await agent.request('/gmail/v1/users/me/labels', { headers: { authorization: `Bearer ${token}` } })
      const body = (await res.json()) as { labels: { name: string }[] }
      return body.labels.map((l) => l.name).filter((n) => n.startsWith('x-'))
    }
    const bytes = (id: string) => createHash('sha256').update(worlds.get(id).world.snapshot().bytes).digest('hex')
    expect((await label(created.body.users[0].googleToken, 'x-before')).status).toBe(200)
    const forked = await call('POST', '/worlds/w1/fork', { id: 'w2' })
    expect(forked.status).toBe(201)
    const atFork = bytes('w1')
    expect(bytes('w2')).toBe(atFork)

    expect((await label(created.body.users[0].googleToken, 'x-source')).status).toBe(200)
    expect((await label(forked.body.users[0].googleToken, 'x-fork')).status).toBe(200)
    expect(await labels(created.body.users[0].googleToken)).toEqual(['x-before', 'x-source'])
    expect(await labels(forked.body.users[0].googleToken)).toEqual(['x-before', 'x-fork'])
    expect((await call('POST', '/worlds/w2/restore', { name: 'baseline' })).status).toBe(200)
    expect(bytes('w2')).toBe(atFork)
    expect(await labels(created.body.users[0].googleToken)).toEqual(['x-before', 'x-source'])
  })

  test('records agent calls in the action log, and never control calls', async () => {
    const { call, agent } = setup()
    const created = await call('POST', '/worlds', { id: 'w1', seed })
    const auth = { authorization: `Bearer ${created.body.users[0].googleToken}` }
    await agent.request('/gmail/v1/users/me/profile?fields=emailAddress', { headers: auth })
    await agent.request('/gmail/v1/users/me/messages', { headers: auth })
    await agent.request('/healthz')
    await call('GET', '/worlds/w1/state')
    const log = await call('GET', '/worlds/w1/actions')
    expect(log.body.actions.map((a: { operationId: string }) => a.operationId)).toEqual([
      'gmail.users.getProfile',
      'gmail.users.messages.list',
    ])
    expect(log.body.actions[0]).toMatchObject({
      method: 'GET',
      query: 'fields=emailAddress',
      status: 200,
      userId: 'ann',
      at: '2026-03-02T09:00:01.000Z',
    })
    expect(log.body.actions[1].path).toBe('/gmail/v1/users/me/messages')
  })

  test('advances and sets the clock but never moves it backwards', async () => {
    const { call } = setup()
    await call('POST', '/worlds', { id: 'w1', seed })
    const adv = await call('POST', '/worlds/w1/clock', { advanceMs: 3_600_000, tickMs: 0 })
    expect(adv.body).toMatchObject({ clock: '2026-03-02T10:00:00.000Z', tickMs: 0 })
    const set = await call('POST', '/worlds/w1/clock', { set: '2026-03-05T00:00:00Z' })
    expect(set.body.clock).toBe('2026-03-05T00:00:00.000Z')
    expect((await call('POST', '/worlds/w1/clock', { set: '2026-03-01T00:00:00Z' })).status).toBe(400)
  })

  test("sets the clock to the host's wall clock with set: now, and says how far ahead a world is", async () => {
    const { call } = setup()
    await call('POST', '/worlds', { id: 'w1', seed })
    const before = Date.now()
    const res = await call('POST', '/worlds/w1/clock', { set: 'now', tickMs: 0 })
    expect(res.status).toBe(200)
    expect(res.body.tickMs).toBe(0)
    expect(res.body.clockMs).toBeGreaterThanOrEqual(before)
    expect(res.body.clockMs).toBeLessThanOrEqual(Date.now())
    await call('POST', '/worlds/w1/clock', { advanceMs: 86_400_000 })
    const back = await call('POST', '/worlds/w1/clock', { set: 'now' })
    expect(back.status).toBe(400)
    expect(back.body.error).toMatch(
      /^the clock never moves backwards \(the world is \d+ ms ahead of the host's clock\)$/,
    )
    expect((await call('POST', '/worlds/w1/clock', { set: 'today' })).status).toBe(400)
  })

  test('snapshot and restore bring back the action log and the clock', async () => {
    const { call, agent } = setup()
    const created = await call('POST', '/worlds', { id: 'w1', seed })
    await call('POST', '/worlds/w1/snapshots', { name: 'start' })
    await agent.request('/gmail/v1/users/me/profile', {
      headers: { authorization: `Bearer ${created.body.users[0].googleToken}` },
    })
    expect((await call('GET', '/worlds/w1/actions')).body.actions).toHaveLength(1)
    const restored = await call('POST', '/worlds/w1/restore', { name: 'start' })
    expect(restored.body.clock).toBe('2026-03-02T09:00:00.000Z')
    expect((await call('GET', '/worlds/w1/actions')).body.actions).toHaveLength(0)
    expect((await call('POST', '/worlds/w1/restore', { name: 'nope' })).status).toBe(404)
  })

  test('serves the state view and a diff against the baseline', async () => {
    const { call } = setup()
    await call('POST', '/worlds', { id: 'w1', seed })
    const state = await call('GET', '/worlds/w1/state')
    expect(state.body.version).toBe(1)
    expect(Object.keys(state.body.services)).toEqual(['gmail', 'calendar', 'drive', 'docs', 'slack', 'identity'])
    const diff = await call('GET', '/worlds/w1/diff')
    expect(diff.body).toEqual({ against: 'baseline', changes: [] })
    expect((await call('GET', '/worlds/w1/diff?against=missing')).status).toBe(404)
  })

  test('publishes its own OpenAPI document', async () => {
    const { call } = setup()
    const doc = await call('GET', '/openapi.json')
    expect(doc.body.openapi).toBe('3.1.0')
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/worlds', '/worlds/{id}/state', '/worlds/{id}/diff', '/worlds/{id}/actions']),
    )
  })
})
