import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import type { Socket } from 'node:net'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import {
  bodyOf,
  CLOSING_HEALTHZ,
  firstAnswer,
  GET_HEALTHZ,
  openSocket,
  readUntilClosed,
  refusedAsBusy,
} from '../support/raw-sockets.ts'

// The front of `wsgym serve --workers N` holds each connection until its first request head, then hands it to a
// worker. Until then it bounds it as one process's agent listener does (docs/decisions/0407, 0410): connections per
// client address and in all (503 in Google's envelope, Retry-After), and a head within --headers-timeout-s (408).
// Over real sockets, against two `--workers 2` servers: one with small caps, one with a 1 s head timeout.

const root = join(import.meta.dirname, '..', '..')

/** Starts `wsgym serve --workers 2` with `flags`; resolves with its agent port once the front is up. */
function serveWorkers(flags: string[]) {
  const args = ['serve', '--workers', '2', '--seed', 'empty', '--port', '0', '--control-port', '0', ...flags]
  const child = spawn(process.execPath, [join(root, 'bin', 'wsgym.mjs'), ...args], { cwd: root })
  const port = new Promise<number>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const agent = /(http:\/\/\S+) \(agent\)/.exec(out)?.[1]
      if (agent) resolve(Number(new URL(agent).port))
    })
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)))
  })
  return { child, port }
}
const stop = async (child: ChildProcessWithoutNullStreams) => {
  if (child.exitCode !== null) return
  const exited = new Promise((r) => child.on('exit', r))
  child.kill('SIGTERM')
  await exited
}

const capped = serveWorkers(['--max-client-connections', '4', '--max-connections', '6', '--headers-timeout-s', '30'])
const timed = serveWorkers(['--headers-timeout-s', '1'])
let cappedPort = 0
let timedPort = 0
beforeAll(async () => {
  ;[cappedPort, timedPort] = await Promise.all([capped.port, timed.port])
}, 90_000)
afterAll(() => Promise.all([stop(capped.child), stop(timed.child)]))

const clients: Socket[] = []
afterEach(async () => {
  for (const s of clients.splice(0)) s.destroy()
  // The front counts a connection until it sees it close.
  await sleep(100)
})

const open = (port: number, from?: string) => openSocket(clients, port, from)

describe('the --workers front: connection caps before the hand-off', () => {
  test('a client past its cap reads a 503 in the error envelope and is closed; closing one makes room', async () => {
    const held = await Promise.all([1, 2, 3, 4].map(() => open(cappedPort)))
    const extra = await open(cappedPort)
    expect(await refusedAsBusy(extra)).toContain('(127.0.0.1) already holds 4 open connections')
    // Another address is another client.
    const other = await open(cappedPort, '127.0.0.2')
    other.write(CLOSING_HEALTHZ)
    expect((await readUntilClosed(other, 3_000)).text).toMatch(/^HTTP\/1\.1 200 /)
    held[0]!.destroy()
    await sleep(100)
    const next = await open(cappedPort)
    next.write(CLOSING_HEALTHZ)
    expect((await readUntilClosed(next, 3_000)).text).toMatch(/^HTTP\/1\.1 200 /)
  })

  test('past the total cap a connection from any client is refused the same way', async () => {
    await Promise.all(
      ['127.0.0.1', '127.0.0.1', '127.0.0.1', '127.0.0.2', '127.0.0.2', '127.0.0.2'].map((a) => open(cappedPort, a)),
    )
    const extra = await open(cappedPort, '127.0.0.3')
    extra.write(GET_HEALTHZ)
    const refused = await readUntilClosed(extra, 3_000)
    expect(refused.text).toMatch(/^HTTP\/1\.1 503 /)
    expect(bodyOf(refused.text).error.message).toContain('The server already holds 6 open connections')
  })

  test('a connection handed to a worker no longer counts in the front', async () => {
    // Four kept-alive connections, each answered by a worker: the front holds none of them.
    const served = await Promise.all([1, 2, 3, 4].map(() => open(cappedPort)))
    const answers = served.map(firstAnswer)
    for (const s of served) s.write(GET_HEALTHZ)
    for (const a of await Promise.all(answers)) expect(a).toMatch(/^HTTP\/1\.1 200 /)
    const fifth = await open(cappedPort)
    fifth.write(CLOSING_HEALTHZ)
    expect((await readUntilClosed(fifth, 3_000)).text).toMatch(/^HTTP\/1\.1 200 /)
  })
})

describe('the --workers front: head timeout before the hand-off', () => {
  test('a head trickled a line at a time is answered 408 and closed at the headers timeout', async () => {
    const s = await open(timedPort)
    s.write('GET /healthz HTTP/1.1\r\n')
    const trickle = setInterval(() => s.writable && s.write('X-Slow: 1\r\n'), 200)
    const seen = await readUntilClosed(s, 8_000)
    clearInterval(trickle)
    expect(seen.closed).toBe(true)
    expect(seen.text).toMatch(/^HTTP\/1\.1 408 /)
    expect(seen.afterMs).toBeLessThan(5_000)
  })

  test('a connection that sends nothing is answered 408 and closed at the headers timeout', async () => {
    const seen = await readUntilClosed(await open(timedPort), 8_000)
    expect(seen).toMatchObject({ closed: true, text: expect.stringMatching(/^HTTP\/1\.1 408 /) })
    expect(seen.afterMs).toBeGreaterThan(800)
  })

  test('a head that arrives in time is served', async () => {
    const s = await open(timedPort)
    s.write(CLOSING_HEALTHZ.slice(0, 20))
    await sleep(300)
    s.write(CLOSING_HEALTHZ.slice(20))
    expect((await readUntilClosed(s, 3_000)).text).toMatch(/^HTTP\/1\.1 200 /)
  })
})
