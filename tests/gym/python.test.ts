import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFile, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import { join } from 'node:path'
import { startServer, type Running } from '../../server/main.ts'

const hasPython = spawnSync('python3', ['--version']).status === 0
let server: Running
// Async: the server runs in this process, so a blocking child call would starve it.
const py = async (...args: string[]) =>
  (
    await promisify(execFile)(
      'python3',
      [join('examples', 'python', 'example_loop.py'), '--url', server.controlUrl, '--token', 'py-test-token', ...args],
      { encoding: 'utf8', timeout: 60_000 },
    )
  ).stdout

describe.skipIf(!hasPython)('Python client over the HTTP gym', () => {
  beforeAll(async () => {
    server = await startServer({ host: '127.0.0.1', port: 0, controlPort: 0, adminToken: 'py-test-token', worlds: [] })
  })
  afterAll(async () => server?.close())

  it('resets a task, acts through raw REST tool calls and gets reward 1 from verify', async () => {
    const out = await py('--solve')
    expect(out).toContain('reward: 1 passed: True')
  }, 60_000)

  it('drives an episode with typed tools and direct REST calls', async () => {
    const out = await py('--typed')
    expect(out).toMatch(/profile: 200 \S+@/)
    expect(out).toContain('gmail__users__messages__get -> {"status":200')
    expect(out).toContain('reward: 0 passed: False')
  }, 60_000)
})
