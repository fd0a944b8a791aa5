import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFile, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import { join } from 'node:path'
import { startServer, type Running } from '../../server/main.ts'

const hasPython = spawnSync('python3', ['--version']).status === 0
const KEY = 'py-openenv-key-0123456789'
let server: Running

describe.skipIf(!hasPython)('Python OpenEnv HTTP client (stdlib, key in the base URL)', () => {
  beforeAll(async () => {
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      controlPort: 0,
      adminToken: 'py-openenv-admin',
      openenvKey: KEY,
      worlds: [],
    })
  })
  afterAll(async () => server?.close())

  it('resets, steps to done and reads state without the admin token', async () => {
    const script = join('examples', 'python', 'openenv_http.py')
    const { stdout } = await promisify(execFile)(
      'python3',
      [script, '--base-url', `${server.controlUrl}/openenv/${KEY}`, '--task', 'gmail-label-sender-1'],
      { encoding: 'utf8', timeout: 60_000 },
    )
    expect(stdout).toContain('health: healthy')
    expect(stdout).toContain('episode: py-episode-1 task: gmail-label-sender-1')
    expect(stdout).toMatch(/profile: 200 \S+@\S+ reward: 0 done: False/)
    expect(stdout).toMatch(
      /final reward: 0 done: True state: \{"done": true, "episode_id": "py-episode-1", "step_count": 2/,
    )
  }, 60_000)
})
