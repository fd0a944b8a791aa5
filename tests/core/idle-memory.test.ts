import { spawn } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
// @ts-expect-error: the launcher's helpers are plain JavaScript without declarations
import { allocatorEnv } from '../../bin/allocator-env.mjs'
// @ts-expect-error: the launcher's helpers are plain JavaScript without declarations
import { mayHoldYoungGeneration } from '../../bin/young-generation.mjs'
// @ts-expect-error: the launcher's helpers are plain JavaScript without declarations
import { mayHoldOptimizer } from '../../bin/optimizer-hold.mjs'
import { WorldManager } from '../../server/worlds.ts'
import { bakedSnapshot } from '../../server/templates.ts'
import { tempDirs } from '../support/tmp-dirs.ts'

const root = join(import.meta.dirname, '..', '..')
const tmp = tempDirs()

/**
 * `wsgym serve` on free ports in a child process with `preload` (CommonJS source) required first and `nodeArgs`;
 * the allocator variables up front, so the launcher serves in that process itself. `out()`/`err()` read what it
 * printed so far, `until` waits up to ~30 s for a condition, `stop` ends it.
 */
function serveWithPreload(preload: string, nodeArgs: string[] = []) {
  const file = join(tmp('wsgym-idle-'), 'preload.cjs')
  writeFileSync(file, preload)
  const env = { ...process.env, ...(allocatorEnv(process.env) ?? {}) }
  const args = [...nodeArgs, '-r', file, join(root, 'bin', 'wsgym.mjs'), 'serve', '--port', '0', '--control-port', '0']
  const child = spawn(process.execPath, args, { cwd: root, env })
  let out = ''
  let err = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  const until = async (ok: () => boolean) => {
    for (let i = 0; i < 3000 && !ok(); i++) await new Promise((r) => setTimeout(r, 10))
    expect(ok()).toBe(true)
  }
  const stop = async () => {
    const exited = new Promise((r) => child.on('exit', r))
    child.kill('SIGTERM')
    await exited
  }
  return { child, out: () => out, err: () => err, until, stop }
}

describe('launcher young generation', () => {
  const may = mayHoldYoungGeneration as (argv: string[], nodeOptions?: string) => boolean

  test('holds it unless the caller sized the semi-spaces (command line or NODE_OPTIONS)', () => {
    expect(may([], '')).toBe(true)
    expect(may(['--max-old-space-size=512'], '--enable-source-maps')).toBe(true)
    expect(may(['--max-semi-space-size=32'], '')).toBe(false)
    expect(may([], '--semi-space-growth-factor=4')).toBe(false)
  })

  // A preload prints V8's new space size on SIGUSR2 (the launcher hands the child its own execArgv).
  test('starts `wsgym serve` with a small young generation and lets requests grow it', async () => {
    const { child, out, err, until, stop } = serveWithPreload(`process.on('SIGUSR2', () =>
      process.stderr.write('NEW_SPACE ' +
        require('v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size + '\\n'))`)
    const newSpace = async () => {
      const seen = err().match(/NEW_SPACE \d+/g)?.length ?? 0
      child.kill('SIGUSR2')
      await until(() => (err().match(/NEW_SPACE \d+/g)?.length ?? 0) > seen)
      return Number(
        err()
          .match(/NEW_SPACE (\d+)/g)!
          .at(-1)!
          .split(' ')[1],
      )
    }
    try {
      await until(() => /users:/.test(out()))
      // Two semi-spaces of V8's initial 1 MiB; without the hold the start grows them to their maximum (16 MiB).
      // One doubling is allowed: on a loaded machine a scavenge may run between the release and this reading.
      expect(await newSpace()).toBeLessThanOrEqual(4 * 2 ** 20)
      const agent = /agent API\s+(http:\/\/\S+)/.exec(out())![1]
      const token = /alice@\S+\s+google (\S+)/.exec(out())![1]
      // Each service's first call imports its routes: plenty of survivors, so a released generation grows.
      for (const path of [
        '/gmail/v1/users/me/labels',
        '/drive/v3/about?fields=user',
        '/v1/documents/x',
        '/calendar/v3/users/me/calendarList',
        '/admin/directory/v1/users?customer=my_customer',
      ]) {
        await fetch(`${agent}${path}`, { headers: { authorization: `Bearer ${token}` } })
      }
      expect(await newSpace()).toBeGreaterThan(2 * 2 ** 20)
    } finally {
      await stop()
    }
  })
})

/**
 * A script for `node --allow-natives-syntax` that warms a fresh hot function until TurboFan optimizes it (or ~200
 * rounds pass) and says whether it did (V8's optimization status bit 4: optimized).
 */
const WARM_UNTIL_OPTIMIZED = `
const make = () => new Function('n', 'let s = 0; for (let i = 0; i < n; i++) s = (s + i * 7) % 1000003; return s')
const status = new Function('f', 'return %GetOptimizationStatus(f)')
const optimized = (f) => (status(f) & (1 << 4)) !== 0
async function warmUntilOptimized() {
  const f = make()
  for (let k = 0; k < 200 && !optimized(f); k++) {
    for (let j = 0; j < 50; j++) f(200)
    await new Promise((r) => setTimeout(r, 1))
  }
  return optimized(f)
}`

describe('launcher optimizer hold', () => {
  const may = mayHoldOptimizer as (argv: string[], nodeOptions?: string) => boolean
  const run = (args: string[]) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, args, { cwd: root })
      let out = ''
      child.stdout.on('data', (d: Buffer) => (out += d.toString()))
      child.stderr.on('data', (d: Buffer) => (out += d.toString()))
      child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(out))))
    })

  test('holds TurboFan unless the caller chose a tiering policy (command line or NODE_OPTIONS)', () => {
    expect(may([], '')).toBe(true)
    expect(may(['--max-old-space-size=512', '--allow-natives-syntax'], '--enable-source-maps')).toBe(true)
    expect(may(['--no-opt'], '')).toBe(false)
    expect(may([], '--turbofan')).toBe(false)
    expect(may(['--max-opt=2'], '')).toBe(false)
    expect(may(['--jitless'], '')).toBe(false)
    expect(may([], '--always-turbofan')).toBe(false)
  })

  test('optimizes nothing while held and optimizes again once released', async () => {
    const script = `import { holdOptimizer } from './bin/optimizer-hold.mjs'\n${WARM_UNTIL_OPTIMIZED}
const release = holdOptimizer()
const held = await warmUntilOptimized()
release()
console.log(JSON.stringify({ held, released: await warmUntilOptimized() }))`
    const out = await run(['--allow-natives-syntax', '--input-type=module', '-e', script])
    expect(JSON.parse(out)).toEqual({ held: false, released: true })
  })

  // A preload warms a function on SIGUSR2 and prints whether TurboFan optimized it: the hold must end once ready.
  test('`wsgym serve` optimizes once it is ready', async () => {
    const { child, out, err, until, stop } = serveWithPreload(
      `${WARM_UNTIL_OPTIMIZED}
process.on('SIGUSR2', () => warmUntilOptimized().then((ok) => process.stderr.write('OPTIMIZED ' + ok + '\\n')))`,
      ['--allow-natives-syntax'],
    )
    try {
      await until(() => /users:/.test(out()))
      child.kill('SIGUSR2')
      await until(() => /OPTIMIZED \w+/.test(err()))
      expect(/OPTIMIZED (\w+)/.exec(err())![1]).toBe('true')
    } finally {
      await stop()
    }
  })
})

describe('a world opened on first use', () => {
  test('lists the same users and tokens unopened, then serves the bytes an eager world has', () => {
    const file = join(tmp('wsgym-idle-'), 'demo@1.sqlite')
    const seeded = new WorldManager()
    writeFileSync(file, seeded.template('demo', 1).bytes)
    const lazy = new WorldManager()
    lazy.adoptTemplate('demo', 1, bakedSnapshot(file))
    const eager = seeded.create({ id: 'demo', seed: 'demo', publicDemoKeys: true })
    const entry = lazy.create({ id: 'demo', seed: 'demo', publicDemoKeys: true, onFirstUse: true })
    // Read from the template's file, which the world is not opened from: without the file it cannot open yet.
    expect(lazy.credentials('demo')).toEqual(seeded.credentials('demo'))
    expect(lazy.botTokens('demo')).toEqual(seeded.botTokens('demo'))
    expect(lazy.templateStats().bytes).toBe(seeded.templateStats().bytes)
    rmSync(file)
    expect(() => entry.world).toThrow(/ENOENT/)
    writeFileSync(file, seeded.template('demo', 1).bytes)
    expect(entry.createdAt).toBe(eager.createdAt)
    expect(entry.world.snapshot().bytes.equals(eager.world.snapshot().bytes)).toBe(true)
    lazy.close()
    seeded.close()
  })

  test('is deleted and closed without being opened', () => {
    const file = join(tmp('wsgym-idle-'), 'empty@1.sqlite')
    const seeded = new WorldManager()
    writeFileSync(file, seeded.template('empty', 1).bytes)
    seeded.close()
    const lazy = new WorldManager()
    lazy.adoptTemplate('empty', 1, bakedSnapshot(file))
    lazy.create({ id: 'a', seed: 'empty', onFirstUse: true })
    lazy.create({ id: 'b', seed: 'empty', onFirstUse: true })
    // Opening either world now would read the file and throw.
    rmSync(file)
    lazy.delete('a')
    expect(lazy.list().map((e) => e.id)).toEqual(['b'])
    lazy.close()
    expect(lazy.size).toBe(0)
  })
})

/**
 * The served process answers without undici, Node's fetch implementation (~9.5 MiB resident once loaded): the
 * listener and Hono get the light Request, Response and Headers of server/web/ (docs/decisions/0436). A preload
 * prints the builtins loaded so far on SIGUSR2.
 */
describe('served process without undici', () => {
  test('a world made and every service called leave undici unloaded', async () => {
    const { child, out, err, until, stop } = serveWithPreload(`process.on('SIGUSR2', () =>
      process.stderr.write('LOADED ' + JSON.stringify(process.moduleLoadList) + '\\n'))`)
    try {
      await until(() => /users:/.test(out()))
      const agent = /agent API\s+(http:\/\/\S+)/.exec(out())![1]
      const control = /control plane\s+(http:\/\/\S+)/.exec(out())![1]
      const admin = { authorization: 'Bearer dev-admin-token' }
      const json = { 'content-type': 'application/json' }
      const made = await fetch(`${control}/worlds`, {
        method: 'POST',
        headers: { ...admin, ...json },
        body: JSON.stringify({ id: 'light', seed: 'demo' }),
      })
      expect(made.status).toBe(201)
      const me = ((await made.json()) as { users: { googleToken: string; slackUserToken: string }[] }).users[0]!
      const google = { authorization: `Bearer ${me.googleToken}` }
      const slack = { authorization: `Bearer ${me.slackUserToken}` }
      const form = { ...slack, 'content-type': 'application/x-www-form-urlencoded' }
      const calls: [string, RequestInit, number][] = [
        ['/gmail/v1/users/me/labels', { headers: google }, 200],
        ['/gmail/v1/users/me/labels', { method: 'POST', headers: { ...google, ...json }, body: '{"name":"L"}' }, 200],
        ['/gmail/v1/users/me/labels', { method: 'POST', headers: { ...google, ...json }, body: '{' }, 400],
        ['/calendar/v3/users/me/calendarList', { headers: google }, 200],
        ['/drive/v3/about?fields=user', { headers: google }, 200],
        ['/drive/v3/files', { method: 'POST', headers: { ...google, ...json }, body: '{"name":"a.txt"}' }, 200],
        ['/upload/drive/v3/files?uploadType=media', { method: 'POST', headers: google, body: 'hello' }, 200],
        ['/v1/documents', { method: 'POST', headers: { ...google, ...json }, body: '{"title":"T"}' }, 200],
        ['/api/conversations.list', { method: 'POST', headers: form, body: 'limit=2' }, 200],
        ['/api/auth.test', { method: 'POST', headers: { ...slack, ...json }, body: '{}' }, 200],
        ['/gmail/v1/users/me/profile', {}, 401],
        ['/nowhere', { headers: google }, 404],
      ]
      for (const [path, init, status] of calls) {
        const res = await fetch(`${agent}${path}`, init)
        await res.arrayBuffer()
        expect([path, res.status]).toEqual([path, status])
      }
      const files = await fetch(`${agent}/drive/v3/files?q=name%3D'a.txt'`, { headers: google })
      const id = ((await files.json()) as { files: { id: string }[] }).files[0]!.id
      const media = await fetch(`${agent}/drive/v3/files/${id}?alt=media`, { headers: google })
      expect(media.status).toBe(200)
      await media.arrayBuffer()
      expect((await fetch(`${control}/worlds`, { headers: admin })).status).toBe(200)
      child.kill('SIGUSR2')
      await until(() => /LOADED /.test(err()))
      const loaded = JSON.parse(/LOADED (.*)/.exec(err())![1]!) as string[]
      expect(loaded).toContain('NativeModule http')
      expect(loaded.filter((m) => m.includes('undici'))).toEqual([])
    } finally {
      await stop()
    }
  })
})
