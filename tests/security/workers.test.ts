import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startServer, type Running } from '../../server/main.ts'
import { workerOf } from '../../server/routing.ts'
import { workerLimits } from '../../server/limits.ts'

// WSGYM_SECRET / --secret-file: every worker and host of one deployment derives a world's secret from the shared
// secret and the world id, so they mint and verify the same tokens; without it each world's secret is random.
const root = join(import.meta.dirname, '..', '..')
const SECRET = 'a-deployment-secret-of-at-least-32-characters'
const admin = { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' }

type Urls = { agent: string; control: string }
/** Starts `wsgym serve` with `args` and `env`; resolves with its URLs once it printed its banner. */
function serveCli(args: string[], env: Record<string, string>, ready: RegExp) {
  const child = spawn(
    process.execPath,
    [join(root, 'bin', 'wsgym.mjs'), 'serve', '--port', '0', '--control-port', '0', ...args],
    {
      cwd: root,
      env: { ...process.env, ...env },
    },
  )
  const urls = new Promise<Urls>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const agent = /agent API\s+(http:\/\/\S+)/.exec(out)?.[1]
      const control = /control plane\s+(http:\/\/\S+)/.exec(out)?.[1]
      if (agent && control && ready.test(out)) resolve({ agent, control })
    })
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)))
  })
  return { child, urls }
}
const stop = async (child: ChildProcessWithoutNullStreams) => {
  if (child.exitCode !== null) return
  const exited = new Promise((r) => child.on('exit', r))
  child.kill('SIGTERM')
  await exited
}
const create = async (u: Urls, body: Record<string, unknown>) => {
  const res = await fetch(`${u.control}/worlds`, { method: 'POST', headers: admin, body: JSON.stringify(body) })
  expect(res.status).toBe(201)
  return (await res.json()) as { id: string }
}
const tokensOf = async (u: Urls, id: string) => {
  const info = (await (await fetch(`${u.control}/worlds/${id}`, { headers: admin })).json()) as {
    users: { googleToken?: string; slackUserToken?: string }[]
  }
  return info.users.flatMap((x) => [x.googleToken, x.slackUserToken]).filter((t): t is string => !!t)
}
const profile = (u: Urls, token: string) =>
  fetch(`${u.agent}/gmail/v1/users/me/profile`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status)

describe('a shared secret across processes and hosts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wsgym-secret-'))
  writeFileSync(join(dir, 'secret'), `${SECRET}\n`)
  // Host A: a front with two worker processes, the secret in the environment. Host B: one process, from a file.
  const a = serveCli(['--workers', '2'], { WSGYM_SECRET: SECRET }, /workers behind/)
  const b = serveCli(['--secret-file', join(dir, 'secret')], {}, /users:/)
  let hostA: Urls
  let hostB: Urls
  let lone: Running
  beforeAll(async () => {
    ;[hostA, hostB] = await Promise.all([a.urls, b.urls])
    lone = await startServer({ host: '127.0.0.1', port: 0, controlPort: 0, adminToken: 'dev-admin-token', worlds: [] })
  }, 60_000)
  afterAll(async () => {
    await Promise.all([stop(a.child), stop(b.child), lone?.close()])
  })

  test("two worker processes and another host mint the same tokens for a world id and accept each other's", async () => {
    // One id on each worker of host A, and the same ids on host B.
    const ids = ['alpha', 'beta', 'gamma', 'delta'].filter(
      (id, i, all) => all.findIndex((x) => workerOf(x, 2) === workerOf(id, 2)) === i,
    )
    expect(ids.length).toBe(2)
    for (const id of ids) {
      await create(hostA, { id, seed: 'demo' })
      await create(hostB, { id, seed: 'demo' })
      const [ta, tb] = [await tokensOf(hostA, id), await tokensOf(hostB, id)]
      expect(ta.length).toBeGreaterThan(2)
      expect(ta).toEqual(tb)
      expect(
        await profile(
          hostB,
          ta.find((t) => t.startsWith('ya29.'))!,
        ),
      ).toBe(200)
      expect(
        await profile(
          hostA,
          tb.find((t) => t.startsWith('ya29.'))!,
        ),
      ).toBe(200)
      // A process without the secret gives the same world id other tokens, and refuses the deployment's.
      lone.worlds.create({ id, seed: 'demo' })
      const own = lone.worlds
        .credentials(id)
        .flatMap((x) => [x.googleToken, x.slackUserToken])
        .filter(Boolean)
      expect(own.some((t) => ta.includes(t!))).toBe(false)
      expect(
        await profile(
          { agent: lone.agentUrl, control: lone.controlUrl },
          ta.find((t) => t.startsWith('ya29.'))!,
        ),
      ).toBe(401)
    }
  })

  test('generated world and episode ids never repeat across processes, so a derived secret is never reused', async () => {
    const w = await create(hostA, { seed: 'empty' })
    expect(w.id).toMatch(/^w[0-9a-z]{4}_[0-9a-z]{13}$/)
    const tasks = (await (await fetch(`${hostB.control}/gym/tasks`, { headers: admin })).json()) as {
      tasks: { id: string }[]
    }
    const reset = await fetch(`${hostB.control}/gym/reset`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ taskId: tasks.tasks[0]!.id }),
    })
    const ep = (await reset.json()) as { episodeId: string }
    expect(ep.episodeId).toMatch(/^ep[0-9a-z]{5}_[0-9a-z]{13}$/)
    // Without the secret, ids stay short counters (each world's secret is random anyway).
    expect(lone.worlds.create({ seed: 'empty' }).id).toMatch(/^w[0-9a-z]{4}$/)
  })

  test('a secret shorter than 32 characters is refused at start', async () => {
    const short = serveCli([], { WSGYM_SECRET: 'too-short' }, /users:/)
    let err = ''
    short.child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    await expect(short.urls).rejects.toThrow(/exited 1/)
    expect(err).toMatch(/WSGYM_SECRET holds 9 characters; a shared secret needs at least 32/)
  }, 30_000)
})

describe('limits with --workers N', () => {
  const front = serveCli(['--workers', '2', '--max-worlds', '3'], {}, /workers behind/)
  let urls: Urls
  beforeAll(async () => {
    urls = await front.urls
  }, 60_000)
  afterAll(() => stop(front.child))

  test('count caps apply per worker process: a full worker refuses 429 while the other still creates', async () => {
    const candidates = Array.from({ length: 40 }, (_, i) => `cap${i}`)
    const on = (k: number) => candidates.filter((id) => workerOf(id, 2) === k)
    const demoWorker = workerOf('demo', 2)
    const busy = on(demoWorker)
    const post = (id: string) =>
      fetch(`${urls.control}/worlds`, { method: 'POST', headers: admin, body: JSON.stringify({ id, seed: 'empty' }) })
    // The worker holding `demo` takes two more, then refuses; the other takes three.
    for (const id of busy.slice(0, 2)) expect((await post(id)).status).toBe(201)
    const full = await post(busy[2]!)
    expect(full.status).toBe(429)
    expect(await full.json()).toMatchObject({ reason: 'max_worlds' })
    for (const id of on(1 - demoWorker).slice(0, 3)) expect((await post(id)).status).toBe(201)
    expect((await post(on(1 - demoWorker)[3]!)).status).toBe(429)
    const listed = (await (await fetch(`${urls.control}/worlds`, { headers: admin })).json()) as { total: number }
    expect(listed.total).toBe(6)
  })

  test('the default memory cap is split between workers; a given --max-rss-mb is per worker', () => {
    const gib = 1024 ** 3
    expect(workerLimits({}, 4, 16 * gib).maxRssBytes).toBe(Math.floor((0.85 * 16 * gib) / 4))
    expect(workerLimits({ maxRssBytes: gib }, 4, 16 * gib).maxRssBytes).toBe(gib)
    expect(workerLimits({ maxWorlds: 7 }, 1, 16 * gib)).toEqual({ maxWorlds: 7 })
  })
})
