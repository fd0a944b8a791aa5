import { connect, type Socket } from 'node:net'
import { expect } from 'vitest'

/**
 * Raw client sockets for the connection-bound tests (tests/security/connections.test.ts and front-connections.test.ts):
 * sockets that send nothing or trickle bytes, as a slow or hostile client does.
 */

/**
 * An open socket to `port` on loopback, from `from` (a loopback address: each is another client), that has sent
 * nothing yet; kept in `clients` so the test can destroy it after.
 */
export const openSocket = (clients: Socket[], port: number, from = '127.0.0.1') =>
  new Promise<Socket>((resolve, reject) => {
    const s = connect({ port, host: '127.0.0.1', localAddress: from }, () => resolve(s))
    clients.push(s)
    s.once('error', reject)
  })

/** Everything the server sends on `s` until it closes the connection (or `ms` pass: then `closed` is false). */
export function readUntilClosed(s: Socket, ms: number) {
  return new Promise<{ text: string; closed: boolean; afterMs: number }>((resolve) => {
    const t0 = performance.now()
    const chunks: Buffer[] = []
    const done = (closed: boolean) => {
      clearTimeout(timer)
      resolve({ text: Buffer.concat(chunks).toString('utf8'), closed, afterMs: performance.now() - t0 })
    }
    const timer = setTimeout(() => done(false), ms)
    s.on('data', (d: Buffer) => chunks.push(d))
    s.on('error', () => {})
    s.once('close', () => done(true))
  })
}

/** The first answer's head on a kept-alive connection (the connection stays open). */
export const firstAnswer = (s: Socket) =>
  new Promise<string>((resolve) => {
    let text = ''
    s.on('data', (d: Buffer) => {
      text += d.toString('utf8')
      if (/\r\n\r\n/.test(text)) resolve(text)
    })
  })

export const GET_HEALTHZ = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'
export const CLOSING_HEALTHZ = 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'

/** The JSON body of a whole HTTP/1.1 answer's text. */
export const bodyOf = (text: string) =>
  JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { error: { message: string } }

/**
 * Sends a request on `s`, a connection past a cap, and checks it is refused as busy: 503 in Google's error envelope
 * with `Retry-After: 1`, the connection closed. Gives the error message.
 */
export async function refusedAsBusy(s: Socket): Promise<string> {
  s.write(GET_HEALTHZ)
  const refused = await readUntilClosed(s, 3_000)
  expect(refused.closed).toBe(true)
  expect(refused.text).toMatch(/^HTTP\/1\.1 503 /)
  expect(refused.text).toMatch(/\r\nretry-after: 1\r\n/i)
  const body = bodyOf(refused.text)
  expect(body).toMatchObject({ error: { code: 503, status: 'UNAVAILABLE' } })
  return body.error.message
}
