import { spawn } from 'node:child_process'
import { connect } from 'node:net'
import { Agent, request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { crc32, routingKeyOf, workerOf } from '../../server/routing.ts'
import { WsEnvClient } from '../gym/openenv-client.ts'

const root = join(import.meta.dirname, '..', '..')

describe('routing keys', () => {
  test('crc32 is the IEEE CRC and workerOf is nginx’s `hash $key;` pick', () => {
    expect(crc32('123456789')).toBe(0xcbf43926)
    expect(workerOf('demo', 4)).toBe(((crc32('demo') >>> 16) & 0x7fff) % 4)
    expect(workerOf('anything', 1)).toBe(0)
  })

  test('the key is the world id of a token, a world or episode path, or a body', () => {
    expect(routingKeyOf('/gmail/v1/users/me/profile', { authorization: 'Bearer ya29.w_1.abc123' })).toBe('w_1')
    expect(routingKeyOf('/api/auth.test', { authorization: 'Bearer xoxb-team7-00ff' })).toBe('team7')
    expect(routingKeyOf('/api/auth.test?token=xoxp-q9-0a', {})).toBe('q9')
    const form = Buffer.from('token=xoxp-formworld-0a&channel=C1')
    expect(routingKeyOf('/api/chat.postMessage', { 'content-type': 'application/x-www-form-urlencoded' }, form)).toBe(
      'formworld',
    )
    expect(routingKeyOf('/worlds/abc/fork', {}, Buffer.from('{"id":"other"}'))).toBe('abc')
    expect(routingKeyOf('/gym/episodes/ep00007/step', {})).toBe('ep00007')
    expect(routingKeyOf('/worlds', { 'content-type': 'application/json' }, Buffer.from('{"id":"fresh"}'))).toBe('fresh')
    expect(routingKeyOf('/step', { 'content-type': 'application/json' }, Buffer.from('{"episode_id":"ep00003"}'))).toBe(
      'ep00003',
    )
    expect(
      routingKeyOf('/worlds', { 'content-type': 'application/json' }, Buffer.from('{"seed":"demo"}')),
    ).toBeUndefined()
    expect(routingKeyOf('/gmail/v1/users/me/profile', { authorization: 'Bearer forged.token' })).toBeUndefined()
  })

  test('OAuth endpoints route by the world in their code, refresh or access token, or the key set asked for', () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' }
    const mac = '0'.repeat(56)
    const code = Buffer.from(
      `grant_type=authorization_code&code=${encodeURIComponent(`4/0.codeworld.${mac}`)}&client_id=x`,
    )
    expect(routingKeyOf('/token', form, code)).toBe('codeworld')
    const refresh = Buffer.from(`grant_type=refresh_token&refresh_token=${encodeURIComponent(`1//0.rw_2.${mac}`)}`)
    expect(routingKeyOf('/token', form, refresh)).toBe('rw_2')
    expect(routingKeyOf(`/revoke?token=${encodeURIComponent(`1//0.rev.${mac}`)}`, {})).toBe('rev')
    expect(routingKeyOf('/tokeninfo?access_token=ya29.info.00ff', {})).toBe('info')
    expect(routingKeyOf('/oauth2/v3/certs?world=jw', {})).toBe('jw')
    expect(routingKeyOf('/token', form, Buffer.from('grant_type=authorization_code&code=4/0.nope'))).toBeUndefined()
  })

  test("a service account's JWT-bearer request routes by the world it names", () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' }
    const grant = 'grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=a.b.c'
    expect(routingKeyOf('/token', form, Buffer.from(`${grant}&world=sa_w`))).toBe('sa_w')
    expect(routingKeyOf('/token?world=qw', form, Buffer.from(grant))).toBe('qw')
    expect(routingKeyOf('/token', { ...form, 'x-wsgym-world': 'hw' }, Buffer.from(grant))).toBe('hw')
    expect(routingKeyOf('/token', form, Buffer.from(grant))).toBeUndefined()
    expect(routingKeyOf('/gmail/v1/users/me/profile?world=qw', {})).toBeUndefined()
  })
})

describe('wsgym serve --workers 2', () => {
  const child = spawn(
    process.execPath,
    [join(root, 'bin', 'wsgym.mjs'), 'serve', '--workers', '2', '--port', '0', '--control-port', '0'],
    { cwd: root },
  )
  let agent = ''
  let control = ''
  const admin = { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' }
  const post = (path: string, body: unknown) =>
    fetch(`${control}${path}`, { method: 'POST', headers: admin, body: JSON.stringify(body) })

  beforeAll(async () => {
    let out = ''
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString()
        const a = /agent API\s+(http:\/\/\S+)/.exec(out)?.[1]
        const c = /control plane\s+(http:\/\/\S+)/.exec(out)?.[1]
        if (a && c && /workers behind/.test(out)) {
          agent = a
          control = c
          resolve()
        }
      })
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)))
    })
  }, 60_000)
  afterAll(async () => {
    const exited = new Promise((r) => child.on('exit', r))
    child.kill('SIGTERM')
    await exited
  })

  test('each world lives on the worker its id routes to; its tokens reach it through the front', async () => {
    const ids = ['alpha', 'beta', 'gamma', 'delta']
    for (const id of ids) expect((await post('/worlds', { id, seed: 'demo' })).status).toBe(201)
    const generated = await Promise.all([post('/worlds', { seed: 'empty' }), post('/worlds', { seed: 'empty' })])
    for (const res of generated) expect(res.status).toBe(201)
    const listed = (await (await fetch(`${control}/worlds`, { headers: admin })).json()) as { worlds: { id: string }[] }
    expect(listed.worlds.map((w) => w.id).sort()).toEqual(
      expect.arrayContaining(['alpha', 'beta', 'delta', 'demo', 'gamma']),
    )
    expect(listed.worlds).toHaveLength(7)
    for (const id of ids) {
      const info = (await (await fetch(`${control}/worlds/${id}`, { headers: admin })).json()) as {
        users: { googleToken?: string }[]
      }
      const token = info.users.find((u) => u.googleToken)!.googleToken!
      const profile = await fetch(`${agent}/gmail/v1/users/me/profile`, {
        headers: { authorization: `Bearer ${token}` },
      })
      expect(profile.status).toBe(200)
    }
    // A fork stays on its source's worker: an id routing elsewhere is refused there.
    const elsewhere = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6'].find((id) => workerOf(id, 2) !== workerOf('alpha', 2))!
    const same = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6'].find((id) => workerOf(id, 2) === workerOf('alpha', 2))!
    expect((await post('/worlds/alpha/fork', { id: elsewhere })).status).toBe(409)
    expect((await post('/worlds/alpha/fork', { id: same })).status).toBe(201)
  })

  test('gym episodes are reset, stepped and verified through the front', async () => {
    const tasks = (await (await fetch(`${control}/gym/tasks`, { headers: admin })).json()) as {
      tasks: { id: string }[]
    }
    const episodes = await Promise.all(
      [0, 1, 2, 3].map(async () => {
        const res = await post('/gym/reset', { taskId: tasks.tasks[0]!.id })
        expect(res.status).toBe(201)
        return ((await res.json()) as { episodeId: string }).episodeId
      }),
    )
    expect(new Set(episodes.map((id) => workerOf(id, 2))).size).toBe(2)
    for (const id of episodes) {
      const action = { tool: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/profile' } }
      const step = await post(`/gym/episodes/${id}/step`, action)
      expect(step.status).toBe(200)
      expect((await post(`/gym/episodes/${id}/verify`, {})).status).toBe(200)
    }
  }, 120_000) // each worker loads the gym and the corpus on its first gym request

  // One keep-alive connection (handed to one worker by the front) used for worlds that live on both workers: the
  // worker it was handed to relays the other worker's requests (server/handoff.ts).
  test('one connection serves worlds of every worker: tokens, world paths, JSON bodies and chunked bodies', async () => {
    const one = new Agent({ keepAlive: true, maxSockets: 1 })
    const sockets = new Set<unknown>()
    const call = (
      base: string,
      method: string,
      path: string,
      headers: Record<string, string>,
      body?: string,
      chunked = false,
    ) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const url = new URL(path, base)
        const h = {
          ...headers,
          ...(body !== undefined && !chunked ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
        }
        const req = request(
          { host: url.hostname, port: url.port, method, path: url.pathname + url.search, headers: h, agent: one },
          (res) => {
            sockets.add(res.socket)
            let text = ''
            res.on('data', (d: Buffer) => (text += d.toString()))
            res.on('end', () => resolve({ status: res.statusCode!, body: text }))
          },
        )
        req.on('error', reject)
        if (chunked && body !== undefined) {
          req.write(body.slice(0, 5))
          req.end(body.slice(5))
        } else req.end(body)
      })
    try {
      const ids = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7', 'h8']
      const zero = ids.filter((id) => workerOf(id, 2) === 0).slice(0, 2)
      const first = ids.filter((id) => workerOf(id, 2) === 1).slice(0, 2)
      expect(zero).toHaveLength(2)
      expect(first).toHaveLength(2)
      // JSON bodies naming an id on either worker, then one sent in chunks (read and routed by the front).
      for (const id of [zero[0]!, first[0]!]) {
        expect((await call(control, 'POST', '/worlds', admin, JSON.stringify({ id, seed: 'demo' }))).status).toBe(201)
      }
      const chunkedHeaders = { ...admin, 'transfer-encoding': 'chunked' }
      for (const id of [zero[1]!, first[1]!]) {
        expect(
          (await call(control, 'POST', '/worlds', chunkedHeaders, JSON.stringify({ id, seed: 'empty' }), true)).status,
        ).toBe(201)
      }
      // World paths and the cross-worker list, alternating workers.
      for (const id of [zero[0]!, first[0]!, zero[1]!, first[1]!]) {
        const got = await call(control, 'GET', `/worlds/${id}`, admin)
        expect(got.status).toBe(200)
        expect((JSON.parse(got.body) as { id: string }).id).toBe(id)
      }
      const listed = JSON.parse((await call(control, 'GET', '/worlds?pageSize=100', admin)).body) as {
        worlds: { id: string }[]
      }
      expect(listed.worlds.map((w) => w.id)).toEqual(expect.arrayContaining([...zero, ...first]))
      // Tokens of worlds on both workers, alternating on one agent-port connection: each reaches its own world.
      const tokenOf = async (id: string) => {
        const info = JSON.parse((await call(control, 'GET', `/worlds/${id}`, admin)).body) as {
          users: { email: string; googleToken?: string }[]
        }
        const u = info.users.find((x) => x.googleToken)!
        return { token: u.googleToken!, email: u.email }
      }
      const users = [
        await tokenOf(zero[0]!),
        await tokenOf(first[1]!),
        await tokenOf(first[0]!),
        await tokenOf(zero[1]!),
      ]
      for (let round = 0; round < 2; round++) {
        for (const u of users) {
          const got = await call(agent, 'GET', '/gmail/v1/users/me/profile', { authorization: `Bearer ${u.token}` })
          expect(got.status).toBe(200)
          expect((JSON.parse(got.body) as { emailAddress: string }).emailAddress).toBe(u.email)
        }
      }
      expect(sockets.size).toBe(2) // one connection per port: every answer came back on it
    } finally {
      one.destroy()
    }
  })

  // The front reads a connection's first head and then hands the socket over; a request the client sends right
  // after the first answer must reach the worker (a front that kept reading lost ~1-3 % of them).
  test('fresh connections keep every request after the hand-off', async () => {
    const url = new URL(control)
    const head = `GET /worlds/demo HTTP/1.1\r\nhost: x\r\nauthorization: ${admin.authorization}\r\n\r\n`
    const oneConnection = () =>
      new Promise<number>((resolve, reject) => {
        let answers = 0
        let got = ''
        const socket = connect({ host: url.hostname, port: Number(url.port) }, () => socket.write(head))
        socket.on('data', (d: Buffer) => {
          got += d.toString('latin1')
          // One answer at a time: the next request goes out as soon as the last one's body is complete.
          const m = /content-length: (\d+)\r\n[\s\S]*?\r\n\r\n/i.exec(got)
          if (!m || got.length < m.index + m[0].length + Number(m[1])) return
          got = got.slice(m.index + m[0].length + Number(m[1]))
          if (++answers === 4) {
            socket.destroy()
            resolve(answers)
          } else socket.write(head)
        })
        socket.on('error', reject)
        socket.setTimeout(3000, () => {
          socket.destroy()
          resolve(answers)
        })
      })
    const counts: number[] = []
    for (let i = 0; i < 300; i++) counts.push(await oneConnection())
    expect(counts.filter((n) => n !== 4)).toEqual([])
  }, 120_000)

  test('requests pipelined on one connection for worlds on both workers are answered in order', async () => {
    const ids = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6']
    const a = ids.find((id) => workerOf(id, 2) === 0)!
    const b = ids.find((id) => workerOf(id, 2) === 1)!
    for (const id of [a, b]) expect((await post('/worlds', { id, seed: 'empty' })).status).toBe(201)
    const url = new URL(control)
    const get = (id: string) => `GET /worlds/${id} HTTP/1.1\r\nhost: x\r\nauthorization: ${admin.authorization}\r\n\r\n`
    const order = [a, b, b, a, b]
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: url.hostname, port: Number(url.port) }, () =>
        socket.write(order.map(get).join('')),
      )
      let got = ''
      socket.on('data', (d: Buffer) => {
        got += d.toString('latin1')
        if ((got.match(/HTTP\/1\.1 200/g) ?? []).length === order.length && /\}\s*$/.test(got)) {
          socket.destroy()
          resolve(got)
        }
      })
      socket.on('error', reject)
      setTimeout(() => reject(new Error(`timed out: ${got.slice(0, 400)}`)), 20_000)
    })
    // Each answer's world id is its body's first field.
    const answered = text
      .split('HTTP/1.1 200')
      .slice(1)
      .map((one) => /\{"id":"([a-z0-9_]+)"/.exec(one)?.[1])
    expect(answered).toEqual(order)
  })

  test('OpenEnv WebSocket sessions pass through the front to a worker, and are refused there without the token', async () => {
    const tasks = (await (await fetch(`${control}/gym/tasks`, { headers: admin })).json()) as {
      tasks: { id: string }[]
    }
    const clients = await Promise.all(
      [0, 1, 2].map(() => new WsEnvClient(control).connect({ authorization: admin.authorization })),
    )
    try {
      for (const c of clients) {
        const r = await c.reset({ task_id: tasks.tasks[0]!.id })
        const id = r.observation.episode_id as string
        expect(id).toMatch(/^ep/)
        const s = await c.step({
          type: 'call_tool',
          tool_name: 'http_request',
          arguments: { method: 'GET', path: '/gmail/v1/users/me/profile' },
        })
        expect(s.done).toBe(false)
        expect((await c.state()).episode_id).toBe(id)
      }
    } finally {
      await Promise.all(clients.map((c) => c.close()))
    }
    await expect(new WsEnvClient(control).connect()).rejects.toThrow(/401/)
  })
})
