import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import type { Server as ServerType } from 'node:http'
import { serveFetch as serve } from '../../server/web/serve.ts'
import { Hono } from 'hono'
import { pathOfUrl, searchOfUrl } from '../../envs/core/request-url.ts'
import { requestHeader } from '../../server/middleware/node-body.ts'

// Per-request reads that skip a parse (docs/decisions/0290): the path and query sliced from a request's serialized
// URL, and headers read from the Node request's raw list, must answer what `new URL()` and `c.req.header()` do.

const RAW = [
  'http://127.0.0.1:8080/gmail/v1/users/me/profile?prettyPrint=false',
  'http://localhost/v1/documents/abc:batchUpdate',
  'http://localhost/a/../b/./c?x=1#frag',
  'http://localhost/p%2Fq/r%3Fs?fields=a%2Cb&x=%zz#h?i',
  'http://localhost/with space/é?q=é ü',
  'http://user:pa%2Fss@localhost:9/x?y#z',
  'http://localhost',
  'http://localhost/?',
  'http://localhost/path?#frag',
  'http://localhost/path#frag?not-query',
  'https://[::1]:443/api/chat.postMessage?channel=C1&text=a+b',
  'http://localhost/a\\b?c',
  'http://localhost//double//slashes?',
]

describe('pathOfUrl / searchOfUrl', () => {
  test('answer what new URL() reads from a serialized URL', () => {
    for (const raw of RAW) {
      const href = new URL(raw).href
      expect([raw, pathOfUrl(href)]).toEqual([raw, new URL(href).pathname])
      expect([raw, searchOfUrl(href)]).toEqual([raw, new URL(href).search])
    }
  })

  test('match a WHATWG Request built from the same text', () => {
    for (const raw of RAW.filter((r) => !r.includes('@'))) {
      const url = new Request(raw).url
      expect(pathOfUrl(url)).toBe(new URL(url).pathname)
      expect(searchOfUrl(url)).toBe(new URL(url).search)
    }
  })
})

describe('requestHeader', () => {
  let server: ServerType
  let port: number
  const app = new Hono()
  app.get('/h', (c) => {
    const names = ['authorization', 'content-type', 'x-many', 'x-absent', 'x-spaced']
    return c.json(names.map((n) => [requestHeader(c, n) ?? null, c.req.header(n) ?? null]))
  })

  beforeAll(async () => {
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
    })
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  /** Sends raw header lines (duplicates and odd spacing are kept as written) and returns the pairs answered. */
  const ask = (lines: string[]) =>
    new Promise<[string | null, string | null][]>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`GET /h HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${lines.join('\r\n')}\r\n\r\n`)
      })
      let text = ''
      socket.on('data', (d) => (text += d.toString('latin1')))
      const body = () => text.slice(text.indexOf('\r\n\r\n') + 4).replace(/^[0-9a-f]+\r\n/, '')
      socket.on('end', () => resolve(JSON.parse(body())))
      socket.on('error', reject)
    })

  test('answers what c.req.header() does, duplicates and spacing included', async () => {
    const cases = [
      ['Authorization: Bearer abc'],
      ['authorization: Bearer one', 'AUTHORIZATION: Bearer two'],
      ['Authorization:    Bearer padded   ', 'Content-Type: application/json; charset=UTF-8'],
      ['X-Many: a', 'x-many: b', 'X-MANY:  c ', 'X-Spaced: \t inner  space \t'],
      [],
    ]
    for (const lines of cases) {
      const pairs = await ask(lines)
      for (const [ours, hono] of pairs) expect(ours).toBe(hono)
      expect(pairs.some(([ours]) => ours !== null) || lines.length === 0).toBe(true)
    }
  })

  test('reads the in-process request through Hono', async () => {
    const res = await app.request('/h', { headers: { authorization: 'Bearer x', 'x-many': 'a' } })
    const pairs = (await res.json()) as [string | null, string | null][]
    expect(pairs[0]).toEqual(['Bearer x', 'Bearer x'])
    expect(pairs[2]).toEqual(['a', 'a'])
  })
})
