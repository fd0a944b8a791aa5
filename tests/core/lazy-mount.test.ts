import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { createAgentApp, servicesNeeded } from '../../server/app.ts'
import { createControlApp } from '../../server/control/app.ts'
import { MountableRouter } from '../../server/lazy-mount.ts'
import { services } from '../../server/registry.ts'
import { routerOf } from '../../server/routers.ts'
import { WorldManager } from '../../server/worlds.ts'
import { startServer } from '../../server/main.ts'
import { toPublicPath } from '../../envs/core/custom-verbs.ts'

// Services' routes, the gym and the inspector are mounted on the first request that needs them
// (docs/decisions/0293); these tests pin that a first call answers exactly as it does with everything mounted.

const root = join(import.meta.dirname, '..', '..')
const ADMIN = 'admin-secret'

/** One world of the demo seed and an agent app over it; `get`/`post` answer status, content type and text. */
function served() {
  const worlds = new WorldManager()
  const entry = worlds.create({ id: 'w', seed: 'demo', seedValue: 1 })
  const app = createAgentApp(worlds)
  const alice = worlds.credentials(entry.id).find((u) => u.email.startsWith('alice@'))!
  const send = async (method: string, path: string, body?: string, type?: string) => {
    const token = path.startsWith('/api/') ? alice.slackUserToken : alice.googleToken
    const headers: Record<string, string> = { authorization: `Bearer ${token}` }
    if (type) headers['content-type'] = type
    const res = await app.request(path, { method, headers, body })
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() }
  }
  return { app, send }
}

const mountedPaths = (app: { routes: { path: string }[] }) => new Set(app.routes.map((r) => r.path))

const CALLS: [method: string, path: string, body?: string, type?: string][] = [
  ['GET', '/gmail/v1/users/me/messages?maxResults=3'],
  ['POST', '/api/conversations.list', 'limit=5', 'application/x-www-form-urlencoded'],
  ['GET', '/drive/v3/files?pageSize=3&fields=files(id,name)'],
  ['GET', '/calendar/v3/calendars/primary/events?maxResults=3'],
  ['POST', '/v1/documents', '{"title":"Lazy"}', 'application/json'],
  ['GET', '/admin/directory/v1/users?customer=my_customer&maxResults=2'],
  ['GET', '/gmail/v1/users/me/settings/cse/identities'],
  ['GET', '/nowhere/at/all'],
]

describe('agent app', () => {
  test('every route of a service lies under a path that mounts that service', () => {
    for (const s of services) {
      for (const r of routerOf(s).routes) {
        const needed = servicesNeeded(toPublicPath(r.path)).map((n) => n.name)
        expect({ service: s.name, path: r.path, mounts: needed.includes(s.name) }).toEqual({
          service: s.name,
          path: r.path,
          mounts: true,
        })
      }
    }
  })

  test('a first call mounts only its own service', async () => {
    const { app, send } = served()
    expect((await send('GET', '/healthz')).status).toBe(200)
    expect([...mountedPaths(app)].filter((p) => p.startsWith('/gmail/'))).toEqual([])
    expect((await send('GET', '/gmail/v1/users/me/profile')).status).toBe(200)
    const paths = [...mountedPaths(app)]
    expect(paths.some((p) => p.startsWith('/gmail/v1/'))).toBe(true)
    expect(paths.filter((p) => p.startsWith('/drive/') || p.startsWith('/api/') || p.startsWith('/calendar/'))).toEqual(
      [],
    )
  })

  test('each first call answers byte for byte as it does with every service mounted', async () => {
    const lazy = served()
    const eager = served()
    // The OpenAPI document needs every route: asking for it mounts them all.
    expect((await eager.send('GET', '/openapi.json')).status).toBe(200)
    expect(mountedPaths(eager.app).size).toBeGreaterThan(mountedPaths(lazy.app).size)
    // Reverse order: services mount in another order than the registry's, and must still match as it does.
    for (const [method, path, body, type] of [...CALLS].reverse()) {
      const first = await lazy.send(method, path, body, type)
      expect({ path, ...first }).toEqual({ path, ...(await eager.send(method, path, body, type)) })
    }
  })

  test('the OpenAPI document is the same whichever services were mounted before it', async () => {
    const fresh = served()
    const used = served()
    await used.send('GET', '/gmail/v1/users/me/profile')
    await used.send('POST', '/api/auth.test', '', 'application/x-www-form-urlencoded')
    const a = await fresh.send('GET', '/openapi.json')
    const b = await used.send('GET', '/openapi.json')
    expect(a.status).toBe(200)
    expect(Object.keys(JSON.parse(a.text).paths).length).toBeGreaterThan(100)
    expect(b.text).toBe(a.text)
  })
})

describe('MountableRouter', () => {
  test('matches handlers in slot order, whatever order they were added in', () => {
    const router = new MountableRouter<string>()
    router.slot = 0
    router.add('ALL', '*', 'middleware')
    expect(router.match('GET', '/x/y')[0].map(([h]) => h)).toEqual(['middleware'])
    router.slot = 2
    router.add('GET', '/x/*', 'second service')
    router.slot = 1
    router.add('GET', '/x/y', 'first service')
    expect(router.match('GET', '/x/y')[0].map(([h]) => h)).toEqual(['middleware', 'first service', 'second service'])
  })

  test('answers a repeated match with what a fresh match gives, parameters untouched by later matches', () => {
    const routes: [string, string][] = [
      ['ALL', '*'],
      ['GET', '/a/:id'],
      ['GET', '/a/:id/b/:sub'],
      ['POST', '/a/:id'],
      ['GET', '/c/*'],
      ['GET', '/d/:x{[0-9]+}'],
    ]
    const kept = new MountableRouter<string>()
    const fresh = () => {
      const r = new MountableRouter<string>()
      for (const [m, p] of routes) r.add(m, p, `${m} ${p}`)
      return r
    }
    for (const [m, p] of routes) kept.add(m, p, `${m} ${p}`)
    const calls: [string, string][] = [
      ['GET', '/a/1'],
      ['GET', '/a/2/b/3'],
      ['POST', '/a/1'],
      ['GET', '/c/q/r'],
      ['GET', '/d/12'],
      ['GET', '/d/x'],
      ['PUT', '/a/1'],
      ['GET', '/a/1'],
    ]
    const first = calls.map(([m, p]) => kept.match(m, p))
    const copies = first.map((r) => JSON.stringify(r))
    for (const [i, [m, p]] of calls.entries()) {
      expect(kept.match(m, p)).toBe(first[i])
      expect(JSON.stringify(kept.match(m, p))).toBe(JSON.stringify(fresh().match(m, p)))
      expect(JSON.stringify(first[i])).toBe(copies[i])
    }
  })
})

describe('control plane', () => {
  const setup = () => {
    const worlds = new WorldManager()
    const control = createControlApp(worlds, { adminToken: ADMIN })
    const call = (method: string, path: string, body?: unknown) =>
      control.request(path, {
        method,
        headers: { authorization: `Bearer ${ADMIN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    return { control, call }
  }

  test('world lifecycle does not mount the gym; a gym request does', async () => {
    const { control, call } = setup()
    expect((await call('POST', '/worlds', { id: 'w1', seed: 'empty' })).status).toBe(201)
    expect((await call('GET', '/worlds/w1')).status).toBe(200)
    expect(mountedPaths(control).has('/gym/reset')).toBe(false)
    expect((await call('GET', '/gym/tasks')).status).toBe(200)
    expect(mountedPaths(control).has('/gym/reset')).toBe(true)
  })

  test('the OpenAPI document is the same on a first request as once the gym is mounted', async () => {
    const first = setup()
    const later = setup()
    await later.call('GET', '/gym/tasks')
    const a = await (await first.call('GET', '/openapi.json')).text()
    const b = await (await later.call('GET', '/openapi.json')).text()
    expect(Object.keys(JSON.parse(a).paths)).toContain('/worlds/{id}/snapshots')
    expect(a).toBe(b)
  })

  test('the key-gated OpenEnv routes answer before the admin check, as before', async () => {
    const { control } = setup()
    const res = await control.request('/openenv/not-a-registered-key-123/health')
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 404, body: { detail: 'Not Found' } })
  })
})

describe('wsgym serve', () => {
  test('refuses a malformed OpenEnv key at start, before the gym is loaded', async () => {
    const opts = { host: '127.0.0.1', port: 0, controlPort: 0, adminToken: ADMIN, worlds: [], openenvKey: 'short' }
    await expect(startServer(opts)).rejects.toThrow(/at least 16 characters/)
  })

  test('serves the same agent and control OpenAPI documents as the in-process apps', async () => {
    const args = [join(root, 'bin', 'wsgym.mjs'), 'serve', '--port', '0', '--control-port', '0']
    const child = spawn(process.execPath, args, { cwd: root })
    let out = ''
    try {
      const urls = await new Promise<{ agent: string; control: string }>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString()
          const agent = /agent API\s+(http:\/\/\S+)/.exec(out)?.[1]
          const control = /control plane\s+(http:\/\/\S+)/.exec(out)?.[1]
          if (agent && control && /users:/.test(out)) resolve({ agent, control })
        })
        child.on('exit', (code) => reject(new Error(`wsgym exited with ${code}: ${out}`)))
      })
      const agentDoc = await (await fetch(`${urls.agent}/openapi.json`)).text()
      const controlDoc = await (
        await fetch(`${urls.control}/openapi.json`, {
          headers: { authorization: 'Bearer dev-admin-token' },
        })
      ).text()
      const worlds = new WorldManager()
      const inAgent = await (await createAgentApp(worlds).request('/openapi.json')).text()
      const inControl = await (
        await createControlApp(worlds, { adminToken: 'dev-admin-token' }).request('/openapi.json', {
          headers: { authorization: 'Bearer dev-admin-token' },
        })
      ).text()
      expect(agentDoc).toEqual(inAgent)
      expect(controlDoc).toEqual(inControl)
    } finally {
      const exited = new Promise((r) => child.on('exit', r))
      child.kill('SIGTERM')
      await exited
    }
  })
})
