import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { workerOf } from '../../server/routing.ts'

// Two `wsgym serve --slot k/2` upstreams (as on two hosts) behind Debian's nginx hashing the world id: nginx's
// `hash $key;` and workerOf() must pick the same upstream for every world, tokens and control paths alike.
const root = join(import.meta.dirname, '..', '..')
const nginx = ['/usr/sbin/nginx', 'nginx'].find((bin) => spawnSync(bin, ['-v']).status === 0)
if (!nginx) console.warn('skipping the nginx routing test: nginx is not installed (.ci/run installs nginx-light)')

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })

function config(dir: string, agent: number, control: number, upstreams: { agent: number; control: number }[]) {
  const servers = (side: 'agent' | 'control') => upstreams.map((u) => `server 127.0.0.1:${u[side]};`).join(' ')
  return `daemon off; master_process off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events {}
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  map $http_authorization $token_world { "~^Bearer (ya29\\.|xox[pb]-)(?<w>[a-z0-9_]+)[.-]" $w; default ""; }
  map $uri $path_world { "~^/(worlds|gym/episodes)/(?<w>[a-z0-9_]+)" $w; default ""; }
  map "$http_x_wsgym_world|$token_world|$path_world" $wsgym_world {
    "~^(?<w>[a-z0-9_]+)\\|" $w; "~^\\|(?<w>[a-z0-9_]+)\\|" $w; "~^\\|\\|(?<w>[a-z0-9_]+)$" $w; default "";
  }
  upstream agent { hash $wsgym_world; ${servers('agent')} }
  upstream control { hash $wsgym_world; ${servers('control')} }
  server { listen 127.0.0.1:${agent}; location / { proxy_pass http://agent; } }
  server { listen 127.0.0.1:${control}; location / { proxy_pass http://control; } }
}
`
}

describe.skipIf(!nginx)('wsgym behind nginx (hash $wsgym_world)', () => {
  const children: ChildProcess[] = []
  let agent = ''
  let control = ''
  const admin = { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' }

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wsgym-nginx-'))
    const ports = await Promise.all([0, 1, 2, 3, 4, 5].map(() => freePort()))
    const upstreams = [0, 1].map((k) => ({ agent: ports[2 + 2 * k]!, control: ports[3 + 2 * k]! }))
    await Promise.all(
      upstreams.map(
        (u, k) =>
          new Promise<void>((resolve, reject) => {
            const args = ['serve', '--slot', `${k}/2`, '--port', String(u.agent), '--control-port', String(u.control)]
            const child = spawn(process.execPath, [join(root, 'bin', 'wsgym.mjs'), ...args], { cwd: root })
            children.push(child)
            let out = ''
            child.stdout!.on('data', (d: Buffer) => {
              out += d.toString()
              if (/ready:|users:/.test(out)) resolve()
            })
            child.on('exit', (code) => reject(new Error(`slot ${k} exited ${code}: ${out}`)))
          }),
      ),
    )
    writeFileSync(join(dir, 'nginx.conf'), config(dir, ports[0]!, ports[1]!, upstreams))
    const proxy = spawn(nginx!, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'inherit' })
    children.push(proxy)
    agent = `http://127.0.0.1:${ports[0]}`
    control = `http://127.0.0.1:${ports[1]}`
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`${control}/worlds/demo`, { headers: admin }).then(
          (r) => r.status === 200,
          () => false,
        )
      )
        break
      await new Promise((r) => setTimeout(r, 100))
    }
  }, 60_000)
  afterAll(async () => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise((resolve) => {
            if (c.exitCode !== null) return resolve(null)
            c.once('exit', resolve)
            c.kill('SIGTERM')
          }),
      ),
    )
  })

  test('worlds created with X-Wsgym-World are reached by their tokens and paths on the upstream nginx picks', async () => {
    const ids = ['alpha', 'beta', 'gamma', 'delta', 'epsilon']
    expect(new Set(ids.map((id) => workerOf(id, 2))).size).toBe(2)
    for (const id of ids) {
      const res = await fetch(`${control}/worlds`, {
        method: 'POST',
        headers: { ...admin, 'x-wsgym-world': id },
        body: JSON.stringify({ id, seed: 'demo' }),
      })
      expect(res.status).toBe(201)
      const info = (await res.json()) as { users: { googleToken?: string; slackUserToken?: string }[] }
      const me = info.users.find((u) => u.googleToken && u.slackUserToken)!
      const google = await fetch(`${agent}/gmail/v1/users/me/profile`, {
        headers: { authorization: `Bearer ${me.googleToken}` },
      })
      expect(google.status).toBe(200)
      const slack = (await (
        await fetch(`${agent}/api/auth.test`, {
          method: 'POST',
          headers: { authorization: `Bearer ${me.slackUserToken}` },
        })
      ).json()) as { ok: boolean }
      expect(slack.ok).toBe(true)
      expect((await fetch(`${control}/worlds/${id}/state`, { headers: admin })).status).toBe(200)
    }
  })

  test('a gym episode reset on any upstream is stepped through its id', async () => {
    const tasks = (await (await fetch(`${control}/gym/tasks`, { headers: admin })).json()) as {
      tasks: { id: string }[]
    }
    for (let i = 0; i < 4; i++) {
      const reset = await fetch(`${control}/gym/reset`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ taskId: tasks.tasks[0]!.id }),
      })
      expect(reset.status).toBe(201)
      const { episodeId } = (await reset.json()) as { episodeId: string }
      const action = { tool: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/profile' } }
      const step = await fetch(`${control}/gym/episodes/${episodeId}/step`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify(action),
      })
      expect(step.status).toBe(200)
    }
  }, 120_000) // each worker loads the gym and the corpus on its first gym request
})
