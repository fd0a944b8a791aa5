import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'

// `wsgym serve` holds the connections of a recurring task's episodes for reuse (docs/decisions/0450) unless
// `--fresh-episode-worlds` says otherwise; the control plane's /stats shows which (episodeConnections).

const root = join(import.meta.dirname, '..', '..')
const ADMIN = 'dev-admin-token'
const children: ChildProcess[] = []
afterAll(() => children.forEach((c) => c.kill('SIGTERM')))

/** Starts `wsgym serve` with `flags`; resolves with its control plane's URL. */
function serve(flags: string[]): Promise<string> {
  const args = [join(root, 'bin', 'wsgym.mjs'), 'serve', '--port', '0', '--control-port', '0', ...flags]
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, WSGYM_FRESH_EPISODE_WORLDS: '' } })
  children.push(child)
  let out = ''
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const control = /control plane\s+(http:\/\/\S+)/.exec(out)?.[1]
      if (control && /users:/.test(out)) resolve(control)
    })
    child.on('exit', (code) => reject(new Error(`wsgym exited with ${code}: ${out}`)))
  })
}

async function call(control: string, method: string, path: string, body?: unknown) {
  const res = await fetch(control + path, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  expect(res.status, `${method} ${path}`).toBeLessThan(300)
  const text = await res.text()
  return (text ? JSON.parse(text) : {}) as Record<string, any>
}

type ConnectionStats = { idle: number; idleBytes: number; held: number }

/** Three episodes of one task, one after another; the connection figures while the third is live and after. */
async function threeEpisodes(control: string): Promise<{ during: ConnectionStats; after: ConnectionStats }> {
  const taskId = 'gmail-label-sender-1'
  let during: ConnectionStats | undefined
  for (let i = 0; i < 3; i++) {
    const ep = await call(control, 'POST', '/gym/reset', { taskId })
    const verdict = await call(control, 'POST', `/gym/episodes/${ep.episodeId}/verify`)
    expect(verdict.reward).toBeLessThan(1)
    if (i === 2) during = (await call(control, 'GET', '/stats')).episodeConnections
    await call(control, 'DELETE', `/gym/episodes/${ep.episodeId}`)
  }
  return { during: during!, after: (await call(control, 'GET', '/stats')).episodeConnections }
}

describe('wsgym serve --fresh-episode-worlds', () => {
  test('by default a recurring task reuses a held connection; with the flag none is held or kept', async () => {
    const [reused, fresh] = await Promise.all([serve([]), serve(['--fresh-episode-worlds'])])
    const byDefault = await threeEpisodes(reused)
    // The first episode's task was new (its connection opened unheld); the later ones recur.
    expect(byDefault.during).toMatchObject({ held: 1, idle: 0 })
    expect(byDefault.after.idle).toBe(1)
    expect(byDefault.after.idleBytes).toBeGreaterThan(0)
    expect(byDefault.after.held).toBe(0)
    const own = await threeEpisodes(fresh)
    expect(own.during).toEqual({ held: 0, idle: 0, idleBytes: 0 })
    expect(own.after).toEqual({ held: 0, idle: 0, idleBytes: 0 })
  }, 60_000)
})
