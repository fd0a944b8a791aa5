import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Server as ServerType } from 'node:http'
import { serveFetch as serve } from '../../server/web/serve.ts'
import { Hono } from 'hono'
import { readHeadersInPlace } from '../../server/middleware/node-body.ts'
import { lastValues } from '../../server/middleware/slack-args.ts'
import { redactTokens } from '../../server/middleware/action-log.ts'

// A listener request's `c.req.header(name)` is read from the Node request's raw header list instead of a WHATWG
// `Headers` (docs/decisions/0317): it must answer what `Headers` built from the same list answers.

type Seen = { raw: string[]; named: Record<string, string | undefined>; all: unknown; before: unknown }
const NAMES = ['content-type', 'Content-Type', 'X-Twice', 'x-spaced', 'authorization', 'absent', 'X-EMPTY']
let server: ServerType
let base: string
const seen: Seen[] = []

beforeAll(async () => {
  const app = new Hono()
  app.all('*', (c) => {
    const before = c.req.header()
    readHeadersInPlace(c)
    const named = Object.fromEntries(NAMES.map((n) => [n, c.req.header(n)]))
    const incoming = (c.env as { incoming: { rawHeaders: string[] } }).incoming
    seen.push({ raw: incoming.rawHeaders, named, all: c.req.header(), before })
    return c.text('ok')
  })
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function send(headers: string[]) {
  return new Promise<void>((resolve, reject) => {
    const req = request(`${base}/x`, { method: 'POST', headers }, (res) => {
      res.resume()
      res.on('end', () => resolve())
    })
    req.on('error', reject)
    req.end('a=1')
  })
}

describe('readHeadersInPlace', () => {
  test('answers each header as a Headers built from the raw list does', async () => {
    await send([
      'Host',
      '127.0.0.1',
      'Content-Type',
      'application/x-www-form-urlencoded ; charset=UTF-8',
      'X-Twice',
      ' one ',
      'x-twice',
      'two\t',
      'X-Spaced',
      '  a  b  ',
      'Authorization',
      'Bearer t',
      'X-Empty',
      '',
    ])
    const one = seen.at(-1)!
    const pairs: [string, string][] = []
    for (let i = 0; i < one.raw.length; i += 2) pairs.push([one.raw[i]!, one.raw[i + 1]!])
    const web = new Headers(pairs)
    for (const n of NAMES) expect(one.named[n], n).toBe(web.get(n) ?? undefined)
    expect(one.named['X-Twice']).toBe('one, two')
    expect(one.named['X-EMPTY']).toBe('')
    expect(one.all).toEqual(one.before)
  })
})

describe('lastValues', () => {
  test("gives parseBody({ all: true })'s keys in its order, each with its last value", async () => {
    const body = 'text=first&2=x&text=second&1=y&a[]=z&a[]=w&__proto__=p&b.c=d&empty='
    const req = new Request('http://x/', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    const app = new Hono()
    let hono: Record<string, unknown> = {}
    app.post('/', async (c) => {
      hono = await c.req.parseBody({ all: true })
      return c.text('')
    })
    await app.fetch(req)
    const expected = Object.entries(hono).map(([k, v]) => [k, Array.isArray(v) ? v.at(-1) : v])
    const form = new FormData()
    for (const [k, v] of new URLSearchParams(body)) form.append(k, v)
    expect(Object.entries(lastValues(form))).toEqual(expected)
    expect(Object.getPrototypeOf(lastValues(form))).toBe(null)
  })
})

describe('redactTokens', () => {
  test('matches the bare replacement with and without a token prefix in the text', () => {
    const mac = 'ab'.repeat(12) + 'cd'.repeat(16)
    const texts = [
      '',
      'q=1',
      `access_token=ya29.w1.${mac}`,
      `token=xoxp-w_2-${mac}&x=xoxb-w-${mac}`,
      'ya29.',
      'xox',
      `YA29.w.${mac}`,
    ]
    const bare = (t: string) =>
      t.replace(/((?:ya29\.[a-z0-9_]+\.|xox[pb]-[a-z0-9_]+-)[0-9a-f]{24})[0-9a-f]{32}/g, '$1<redacted>')
    for (const t of texts) expect(redactTokens(t)).toBe(bare(t))
    expect(redactTokens(`ya29.w1.${mac}`)).toContain('<redacted>')
  })
})
