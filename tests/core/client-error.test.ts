import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { request } from 'node:http'
import { connect } from 'node:net'
import { startServer, type Running } from '../../server/main.ts'

let server: Running
beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, controlPort: 0, adminToken: 'x'.repeat(32), worlds: [] })
})
afterAll(() => server.close())

/** One raw http.request to the agent port: status, headers and body. */
function get(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
    const req = request(`${server.agentUrl}${path}`, { headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (body += d))
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** The bytes the server answers to `raw`, until it closes the connection. */
function raw(bytes: string) {
  return new Promise<string>((resolve, reject) => {
    const url = new URL(server.agentUrl)
    const socket = connect(Number(url.port), url.hostname, () => socket.end(bytes))
    let out = ''
    socket.on('data', (d) => (out += d.toString('latin1')))
    socket.on('close', () => resolve(out))
    socket.on('error', reject)
  })
}

describe('agent listener', () => {
  test("a URL over Node's 16 KiB header limit gets Google's HTML 414, not an empty 431", async () => {
    const res = await get(`/gmail/v1/users/me/messages?q=${'a'.repeat(20_000)}`)
    expect(res.status).toBe(414)
    expect(res.type).toBe('text/html; charset=UTF-8')
    expect(res.body).toContain('<title>Error 414 (Request-URI Too Large)!!1</title>')
  })

  test("oversized headers and malformed requests still get Node's own answers", async () => {
    expect((await get('/gmail/v1/users/me/profile', { 'x-big': 'y'.repeat(20_000) })).status).toBe(431)
    expect(await raw('GET / HTTP/1.1\r\nHost: x\r\nX-Big: ' + 'y'.repeat(20_000) + '\r\n\r\n')).toBe(
      'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
    )
    expect(await raw('NOT HTTP AT ALL\r\n\r\n')).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
    // A URL under the limit is served as usual (401: no token).
    expect((await get(`/gmail/v1/users/me/messages?q=${'a'.repeat(10_000)}`)).status).toBe(401)
  })
})
