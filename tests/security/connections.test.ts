import { Agent, request } from 'node:http'
import type { Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, test } from 'vitest'
import { google } from 'googleapis'
import { WebClient } from '@slack/web-api'
import { startServer, type Running } from '../../server/main.ts'
import type { Limits } from '../../server/limits.ts'
import { bodyOf, GET_HEALTHZ, openSocket, readUntilClosed, refusedAsBusy } from '../support/raw-sockets.ts'

// The agent listener bounds what a client can hold open (docs/decisions/0407): connections per client address and in
// all, how long a request head and body may take, how long an idle keep-alive connection stays. Over real sockets.

let running: Running | undefined
const clients: Socket[] = []
afterEach(async () => {
  // A socket the server failed to close would hold server.close() open: the test fails instead of hanging.
  for (const s of clients.splice(0)) s.destroy()
  await running?.close()
  running = undefined
})

async function serve(limits: Partial<Limits>) {
  running = await startServer({
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    adminToken: 'connections-test',
    limits,
    worlds: [{ id: 'conn', seed: 'demo', seedValue: 1 }],
  })
  const { port } = new URL(running.agentUrl)
  const user = running.worlds.credentials('conn')[0]!
  return { port: Number(port), url: running.agentUrl, token: user.googleToken!, slackToken: user.slackUserToken! }
}

const open = (port: number, from?: string) => openSocket(clients, port, from)

describe('connection caps', () => {
  test('a client past its cap reads a 503 in the error envelope and is closed; closing one makes room', async () => {
    const { port } = await serve({ maxConnectionsPerClient: 4, headersTimeoutMs: 30_000 })
    const held = await Promise.all([1, 2, 3, 4].map(() => open(port)))
    const extra = await open(port)
    expect(await refusedAsBusy(extra)).toContain('already holds 4 open connections')
    held[0]!.destroy()
    await sleep(50)
    const next = await open(port)
    next.write(`${GET_HEALTHZ.slice(0, -2)}Connection: close\r\n\r\n`)
    expect((await readUntilClosed(next, 3_000)).text).toMatch(/^HTTP\/1\.1 200 /)
    for (const s of held) s.destroy()
  })

  test('past the total cap a connection from any client is refused the same way', async () => {
    const { port } = await serve({ maxConnections: 3, maxConnectionsPerClient: 100, headersTimeoutMs: 30_000 })
    const held = await Promise.all([1, 2, 3].map(() => open(port)))
    const extra = await open(port)
    extra.write(GET_HEALTHZ)
    const refused = await readUntilClosed(extra, 3_000)
    expect(refused.text).toMatch(/^HTTP\/1\.1 503 /)
    expect(bodyOf(refused.text).error.message).toContain('The server already holds 3 open connections')
    for (const s of held) s.destroy()
  })

  test('a connection that never sends is closed when it is refused, after a short grace', async () => {
    const { port } = await serve({ maxConnectionsPerClient: 1, headersTimeoutMs: 30_000 })
    const held = await open(port)
    const silent = await open(port)
    const seen = await readUntilClosed(silent, 5_000)
    expect(seen.closed).toBe(true)
    expect(seen.afterMs).toBeLessThan(4_000)
    held.destroy()
  })
})

describe('slow clients', () => {
  test('a head trickled a line at a time is answered 408 and closed at the headers timeout', async () => {
    const { port } = await serve({ headersTimeoutMs: 1_000 })
    const s = await open(port)
    s.write('GET /healthz HTTP/1.1\r\n')
    const trickle = setInterval(() => s.writable && s.write('X-Slow: 1\r\n'), 200)
    const seen = await readUntilClosed(s, 6_000)
    clearInterval(trickle)
    expect(seen.closed).toBe(true)
    expect(seen.text).toMatch(/^HTTP\/1\.1 408 /)
  })

  test('an upload body trickled below the minimum rate is answered 408 in the error envelope', async () => {
    const { port, token } = await serve({ bodyTimeoutMs: 1_000, minBodyBytesPerSecond: 64 * 1024 })
    const s = await open(port)
    s.write(
      'POST /upload/drive/v3/files?uploadType=media HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n' +
        `Authorization: Bearer ${token}\r\nContent-Length: 1000000\r\n\r\n`,
    )
    // 100 bytes every 100 ms: the connection never idles, but 1 KB/s is far below 64 KiB/s.
    const trickle = setInterval(() => s.writable && s.write('a'.repeat(100)), 100)
    const seen = await readUntilClosed(s, 8_000)
    clearInterval(trickle)
    expect(seen.closed).toBe(true)
    expect(seen.text).toMatch(/^HTTP\/1\.1 408 /)
    expect(bodyOf(seen.text)).toMatchObject({ error: { code: 408, status: 'DEADLINE_EXCEEDED' } })
  })

  test('a body that stops arriving is cut after the body timeout', async () => {
    const { port, token } = await serve({ bodyTimeoutMs: 1_000, minBodyBytesPerSecond: 1024 })
    const s = await open(port)
    s.write(
      'POST /upload/drive/v3/files?uploadType=media HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n' +
        `Authorization: Bearer ${token}\r\nContent-Length: 2000000\r\n\r\n${'a'.repeat(1_000_000)}`,
    )
    // A million bytes bought ~16 minutes at the minimum rate; the pause bound still applies.
    const seen = await readUntilClosed(s, 6_000)
    expect(seen.closed).toBe(true)
    expect(seen.text).toMatch(/^HTTP\/1\.1 408 /)
  })

  test('a 64 MiB resumable upload that takes longer than the body timeout completes at a steady pace', async () => {
    const { port, token } = await serve({ bodyTimeoutMs: 1_000, minBodyBytesPerSecond: 1024 * 1024 })
    const headers = { authorization: `Bearer ${token}` }
    const size = 64 * 1024 * 1024
    const start = await fetch(`http://127.0.0.1:${port}/upload/drive/v3/files?uploadType=resumable`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'x-upload-content-length': String(size) },
      body: JSON.stringify({ name: 'big.bin', mimeType: 'application/octet-stream' }),
    })
    expect(start.status).toBe(200)
    const session = new URL(start.headers.get('location')!)
    const chunk = Buffer.alloc(1024 * 1024, 7)
    const t0 = performance.now()
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          port,
          path: session.pathname + session.search,
          method: 'PUT',
          headers: { ...headers, 'content-length': size },
        },
        (res) => {
          let text = ''
          res.on('data', (d: Buffer) => (text += d.toString()))
          res.on('end', () => resolve({ status: res.statusCode!, text }))
        },
      )
      req.on('error', reject)
      // 1 MiB every 25 ms: about 40 MiB/s, so the body takes over 1.6 s (more than the 1 s body timeout).
      let sent = 0
      const next = () => {
        if (sent === size) return void req.end()
        req.write(chunk)
        sent += chunk.length
        setTimeout(next, 25)
      }
      next()
    })
    expect(performance.now() - t0).toBeGreaterThan(1_000)
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.text)).toMatchObject({ name: 'big.bin' })
  }, 60_000)
})

describe('keep-alive clients', () => {
  test('a keep-alive connection carries several requests', async () => {
    // Node's agent keeps a connection for the server's hint less one second: a 3 s timeout leaves it 2 s.
    const { port } = await serve({ keepAliveTimeoutMs: 3_000 })
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    let made = 0
    const create = agent.createConnection.bind(agent) as (...a: unknown[]) => Socket
    agent.createConnection = ((...a: unknown[]) => (made++, create(...a))) as typeof agent.createConnection
    const get = () =>
      new Promise<number>((resolve, reject) => {
        const req = request({ port, path: '/healthz', agent }, (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode!))
        })
        req.on('error', reject)
        req.end()
      })
    for (let i = 0; i < 3; i++) {
      expect(await get()).toBe(200)
      await sleep(300)
    }
    expect(made).toBe(1)
    agent.destroy()
  })

  test('the server closes a connection idle for the keep-alive timeout', async () => {
    const { port } = await serve({ keepAliveTimeoutMs: 1_000 })
    const s = await open(port)
    s.write(GET_HEALTHZ)
    const seen = await readUntilClosed(s, 5_000)
    expect(seen.text).toMatch(/^HTTP\/1\.1 200 [^]*keep-alive: timeout=1/i)
    expect(seen.closed).toBe(true)
    expect(seen.afterMs).toBeGreaterThan(800)
  })

  test('googleapis and @slack/web-api calls spaced around the keep-alive timeout all succeed', async () => {
    const { url, token, slackToken } = await serve({ keepAliveTimeoutMs: 1_000 })
    const auth = new google.auth.OAuth2()
    auth.setCredentials({ access_token: token, expiry_date: Date.now() + 3_600_000 })
    const drive = google.drive({ version: 'v3', auth, rootUrl: `${url}/` })
    const slack = new WebClient(slackToken, { slackApiUrl: `${url}/api/`, retryConfig: { retries: 0 } })
    for (const pause of [0, 900, 1_000, 1_100]) {
      await sleep(pause)
      expect((await drive.files.list({ pageSize: 1 })).status).toBe(200)
      expect((await slack.auth.test()).ok).toBe(true)
    }
  })
})
