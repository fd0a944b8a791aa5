import { createServer, request, type Server } from 'node:http'
import { connect, type AddressInfo, type Server as NetServer, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFrontProxy } from '../../server/front-proxy.ts'
import { ChunkScanner, dechunk, parseHead, requestFraming } from '../../server/http-framing.ts'

// The workers' byte-level front: two upstream servers that echo what they received, a front routing by an
// `x-to` header (or, for form bodies without it, by a `to=` field it must read), and clients that write raw bytes.

type Upstream = { server: Server; port: number; seen: string[] }

async function upstream(name: string): Promise<Upstream> {
  const seen: string[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('latin1')
      seen.push(`${req.method} ${req.url} ${body.length}`)
      if (req.url === '/chunked') {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.write(`${name}:`)
        res.end('chunked-reply')
        return
      }
      if (req.url === '/empty') return void res.writeHead(204).end()
      const text = `${name} ${req.method} ${req.url} ${body.length} ${body.slice(0, 40)}`
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(text) })
      res.end(req.method === 'HEAD' ? undefined : text)
    })
  })
  server.on('upgrade', (_req, socket) => {
    socket.write('HTTP/1.1 101 Switching Protocols\r\nupgrade: echo\r\nconnection: Upgrade\r\n\r\n')
    socket.on('data', (d: Buffer) => socket.write(`${name}<${d.toString()}>`))
  })
  server.keepAliveTimeout = 150
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { server, port: (server.address() as AddressInfo).port, seen }
}

let a: Upstream
let b: Upstream
let front: NetServer
let port = 0
const dead = 1 // nothing listens on port 1

beforeAll(async () => {
  ;[a, b] = await Promise.all([upstream('A'), upstream('B')])
  front = createFrontProxy({
    route(head, body) {
      const to = head.headers['x-to'] ?? (body ? /to=(\w)/.exec(body.toString())?.[1] : undefined)
      if (to === 'dead') return dead
      if (to === 'A') return a.port
      if (to === 'B') return b.port
      if (head.target === '/merged') {
        const here = { status: 200, headers: { 'content-type': 'text/plain' }, body: Buffer.from('here') }
        return { answer: async () => here }
      }
      const form = head.headers['content-type'] === 'application/x-www-form-urlencoded'
      return body === undefined && form ? 'body' : a.port
    },
  })
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r))
  port = (front.address() as AddressInfo).port
})
afterAll(() => {
  front.close()
  a.server.close()
  b.server.close()
})

function open(): Promise<Socket> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1', () => resolve(s))
  })
}

/** Reads from `s` until `done(text so far)` holds (or the connection closes). */
function readUntil(s: Socket, done: (text: string) => boolean): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    const check = () => {
      if (done(text)) {
        s.off('data', on)
        resolve(text)
      }
    }
    const on = (d: Buffer) => {
      text += d.toString('latin1')
      check()
    }
    s.on('data', on)
    s.once('close', () => resolve(text))
  })
}

const count = (text: string, what: string) => text.split(what).length - 1
const get = (path: string, to: string) => `GET ${path} HTTP/1.1\r\nhost: x\r\nx-to: ${to}\r\n\r\n`

describe('framing', () => {
  test('heads, lengths and chunked bodies are read exactly; ambiguous framing is refused', () => {
    const raw = Buffer.from('POST /x?y=1 HTTP/1.1\r\nHost: h\r\nX-A: 1\r\nx-a: 2\r\nContent-Length: 3\r\n\r\nabc')
    const head = parseHead(raw, 'request')!
    expect(head).toMatchObject({ method: 'POST', target: '/x?y=1', headers: { 'x-a': '1, 2', 'content-length': '3' } })
    expect(raw.subarray(head.length).toString()).toBe('abc')
    expect(requestFraming(head)).toEqual({ kind: 'length', length: 3 })
    expect(parseHead(Buffer.from('GET / HTTP/1.1\r\nHost: h\r\n'), 'request')).toBeUndefined()
    const bothRaw = 'POST / HTTP/1.1\r\ncontent-length: 3\r\ntransfer-encoding: chunked\r\n\r\n'
    const both = parseHead(Buffer.from(bothRaw), 'request')!
    expect(() => requestFraming(both)).toThrow(/both/)
    const two = parseHead(Buffer.from('POST / HTTP/1.1\r\ncontent-length: 3\r\ncontent-length: 4\r\n\r\n'), 'request')!
    expect(() => requestFraming(two)).toThrow(/Content-Length/)
    expect(() => parseHead(Buffer.from('GET / HTTP/1.1\nHost: h\r\n\r\n'), 'request')).toThrow(/CRLF/)
    const body = Buffer.from('4\r\nWiki\r\n5;ext=1\r\npedia\r\n0\r\nx-trailer: 1\r\n\r\nNEXT')
    const scanner = new ChunkScanner()
    let end = -1
    for (let i = 0; i < body.length && end === -1; i++) end = scanner.scan(body.subarray(0, i + 1), i)
    expect(body.subarray(end).toString()).toBe('NEXT')
    expect(dechunk(body).toString()).toBe('Wikipedia')
    expect(() => new ChunkScanner().scan(Buffer.from('zz\r\n'))).toThrow(/chunk size/)
  })
})

describe('createFrontProxy', () => {
  test('one kept-alive connection reaches both upstreams in turn, answers in order', async () => {
    const s = await open()
    for (const to of ['A', 'B', 'A', 'B']) {
      s.write(get(`/turn-${to}`, to))
      const text = await readUntil(s, (t) => t.includes(`GET /turn-${to} 0`))
      expect(text).toMatch(new RegExp(`^HTTP/1.1 200 OK[\\s\\S]*\\r\\n\\r\\n${to} GET /turn-${to} 0 $`))
    }
    s.destroy()
  })

  test('pipelined requests, written at once, are answered in the order sent', async () => {
    const s = await open()
    const paths = ['/p1', '/p2', '/p3', '/p4', '/p5', '/p6']
    s.write(paths.map((p, i) => get(p, i % 3 ? 'B' : 'A')).join(''))
    const text = await readUntil(s, (t) => t.includes('GET /p6 0'))
    const order = [...text.matchAll(/\r\n\r\n([AB]) GET (\/p\d)/g)].map((m) => `${m[1]}${m[2]}`)
    expect(order).toEqual(['A/p1', 'B/p2', 'B/p3', 'A/p4', 'B/p5', 'B/p6'])
    s.destroy()
  })

  test('a request trickled byte by byte, its body included, arrives whole', async () => {
    const s = await open()
    const req = 'POST /trickle HTTP/1.1\r\nhost: x\r\nx-to: B\r\ncontent-length: 11\r\n\r\nhello world'
    for (const ch of req) {
      s.write(ch)
      await new Promise((r) => setImmediate(r))
    }
    expect(await readUntil(s, (t) => t.includes('hello world'))).toContain('B POST /trickle 11 hello world')
    s.destroy()
  })

  test('a chunked form body the route must read is read, routed by it and relayed unchanged', async () => {
    const s = await open()
    s.write('POST /form HTTP/1.1\r\nhost: x\r\ncontent-type: application/x-www-form-urlencoded\r\n')
    s.write('transfer-encoding: chunked\r\n\r\n5\r\na=1&t\r\n')
    await new Promise((r) => setTimeout(r, 20))
    s.write('4\r\no=B&\r\n0\r\n\r\n')
    expect(await readUntil(s, (t) => t.includes('POST /form'))).toContain('B POST /form 9 a=1&to=B&')
    s.destroy()
  })

  test('a client that waits for 100 Continue before a body the front must read gets it', async () => {
    const s = await open()
    s.write('POST /cont HTTP/1.1\r\nhost: x\r\ncontent-type: application/x-www-form-urlencoded\r\n')
    s.write('content-length: 4\r\nexpect: 100-continue\r\n\r\n')
    expect(await readUntil(s, (t) => t.includes('\r\n\r\n'))).toMatch(/^HTTP\/1.1 100 Continue/)
    s.write('to=B')
    expect(await readUntil(s, (t) => t.includes('POST /cont'))).toContain('B POST /cont 4 to=B')
    s.destroy()
  })

  test('a 5 MiB body streams through without being read for routing', async () => {
    const body = Buffer.alloc(5 * 1024 * 1024, 120)
    const answer = await new Promise<string>((resolve, reject) => {
      const headers = { 'x-to': 'A', 'content-length': body.length }
      const req = request({ port, method: 'PUT', path: '/big', headers })
      req.on('response', (res) => {
        let text = ''
        res.on('data', (d: Buffer) => (text += d.toString()))
        res.on('end', () => resolve(text))
      })
      req.on('error', reject)
      req.end(body)
    })
    expect(answer).toBe(`A PUT /big ${body.length} ${'x'.repeat(40)}`)
  })

  test('chunked answers, HEAD and 204 are relayed with their own framing', async () => {
    const s = await open()
    s.write(get('/chunked', 'A'))
    expect(await readUntil(s, (t) => t.endsWith('0\r\n\r\n'))).toMatch(/transfer-encoding: chunked/i)
    s.write(`HEAD /h HTTP/1.1\r\nhost: x\r\nx-to: B\r\n\r\n${get('/empty', 'B')}${get('/after', 'A')}`)
    const text = await readUntil(s, (t) => t.includes('A GET /after 0'))
    expect(count(text, 'HTTP/1.1 200')).toBe(2)
    expect(count(text, 'HTTP/1.1 204')).toBe(1)
    s.destroy()
  })

  test('ambiguous or malformed requests get 400 (431 for a huge head) and the connection closes', async () => {
    for (const [bytes, status] of [
      ['POST / HTTP/1.1\r\nx-to: A\r\ncontent-length: 3\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n', 400],
      ['GET / HTTP/1.1\nx-to: A\r\n\r\n', 400],
      [`GET / HTTP/1.1\r\nx-big: ${'y'.repeat(70_000)}\r\n\r\n`, 431],
    ] as const) {
      const s = await open()
      s.write(bytes)
      const text = await readUntil(s, () => false)
      expect(text.startsWith(`HTTP/1.1 ${status}`)).toBe(true)
      expect(text).toContain('connection: close')
      expect(a.seen.some((l) => l.startsWith('POST / '))).toBe(false)
    }
  })

  test('an unreachable worker is a 502 with a JSON error', async () => {
    const s = await open()
    s.write(get('/x', 'dead'))
    const text = await readUntil(s, (t) => t.includes('}'))
    expect(text).toMatch(/^HTTP\/1.1 502/)
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error).toMatch(/worker unreachable/)
    s.destroy()
  })

  test('answers made in the front (merged lists) keep the connection usable', async () => {
    const s = await open()
    s.write(`GET /merged HTTP/1.1\r\nhost: x\r\n\r\n${get('/then', 'B')}`)
    const text = await readUntil(s, (t) => t.includes('B GET /then'))
    expect(text).toMatch(/^HTTP\/1.1 200 OK[\s\S]*\r\n\r\nhere/)
    s.destroy()
  })

  test('a request after the worker closed its idle connection is sent on a fresh one', async () => {
    const s = await open()
    s.write(get('/before', 'A'))
    await readUntil(s, (t) => t.includes('GET /before'))
    await new Promise((r) => setTimeout(r, 300)) // past the upstream's keepAliveTimeout (150 ms)
    s.write(get('/after-idle', 'A'))
    expect(await readUntil(s, (t) => t.includes('GET /after-idle'))).toContain('A GET /after-idle 0')
    s.destroy()
  })

  test('a 101 answer turns the connection into a tunnel to that worker', async () => {
    const s = await open()
    s.write('GET /ws HTTP/1.1\r\nhost: x\r\nx-to: B\r\nupgrade: echo\r\nconnection: Upgrade\r\n\r\n')
    expect(await readUntil(s, (t) => t.includes('\r\n\r\n'))).toMatch(/^HTTP\/1.1 101/)
    s.write('ping')
    expect(await readUntil(s, (t) => t.includes('>'))).toBe('B<ping>')
    s.destroy()
  })
})
