import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Agent, request, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Server as ServerType } from 'node:http'
import { serveFetch as serve } from '../../server/web/serve.ts'
import { Hono } from 'hono'
import { harness, type Harness } from '../../envs/core/testing/harness.ts'
import { LIMITS } from '../../server/app.ts'
import { lastValues, urlEncodedArgs, urlEncodedForm } from '../../server/middleware/node-body.ts'

// Bodies that arrive on a Node socket are read from the IncomingMessage itself (server/middleware/node-body.ts,
// docs/decisions/0270). The same calls must answer and change the world exactly as the in-process path (which
// reads them through a WHATWG Request) does.

type Reply = { status: number; text: string; reused: boolean }
const BOM = '\uFEFF'
const b64 = (s: string) => Buffer.from(s).toString('base64url')

let served: Harness
let server: ServerType
let base: string
const seen: IncomingMessage[] = []
const agent = new Agent({ keepAlive: true, maxSockets: 1 })

beforeAll(async () => {
  served = harness('demo')
  server = await new Promise<ServerType>((resolve) => {
    const fetch = (req: Request, env: { incoming: unknown }) => {
      seen.push(env.incoming as IncomingMessage)
      return served.app.fetch(req, env)
    }
    const s = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  agent.destroy()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

/** One call over the socket; `chunks` are written one by one without a Content-Length (chunked encoding). */
function send(method: string, path: string, token: string, body?: string | Buffer, type?: string, chunks?: Buffer[]) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  if (type) headers['content-type'] = type
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body))
  return new Promise<Reply>((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers, agent }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (c: Buffer) => parts.push(c))
      res.on('end', () =>
        resolve({ status: res.statusCode!, text: Buffer.concat(parts).toString(), reused: req.reusedSocket }),
      )
    })
    req.on('error', reject)
    if (chunks) {
      for (const c of chunks) req.write(c)
      req.end()
    } else req.end(body)
  })
}

type Call = { method: string; path: string; slack?: boolean; body?: string | Buffer; type?: string }
const JSON_TYPE = 'application/json'
const FORM = 'application/x-www-form-urlencoded'
const mail = b64('From: me\r\nTo: bob@northwind.test\r\nSubject: over the socket\r\n\r\nhello')
const related = [
  '--b1',
  'Content-Type: application/json; charset=UTF-8',
  '',
  JSON.stringify({ name: 'notes.txt' }),
  '--b1',
  'Content-Type: text/plain',
  '',
  'plain text body',
  '--b1--',
  '',
].join('\r\n')
const calls: Call[] = [
  {
    method: 'POST',
    path: '/gmail/v1/users/me/messages',
    type: JSON_TYPE,
    body: JSON.stringify({ raw: mail, labelIds: ['INBOX'] }),
  },
  { method: 'POST', path: '/gmail/v1/users/me/messages/send', body: JSON.stringify({ raw: mail }), type: JSON_TYPE },
  {
    method: 'POST',
    path: '/upload/gmail/v1/users/me/messages?uploadType=media',
    type: 'message/rfc822',
    body: 'Subject: media\r\n\r\nx',
  },
  {
    method: 'POST',
    path: '/drive/v3/files',
    type: JSON_TYPE,
    body: `${BOM}${JSON.stringify({ name: 'bom.txt', mimeType: 'text/plain' })}`,
  },
  {
    method: 'POST',
    path: '/upload/drive/v3/files?uploadType=multipart',
    body: related,
    type: 'multipart/related; boundary=b1',
  },
  { method: 'POST', path: '/calendar/v3/calendars/primary/events', type: JSON_TYPE, body: '{"summary": "x", "start":' },
  { method: 'PATCH', path: '/gmail/v1/users/me/labels/INBOX', body: '', type: JSON_TYPE },
  {
    method: 'POST',
    path: '/api/chat.postMessage',
    slack: true,
    type: FORM,
    body: 'channel=general&text=a+b%20c%F0%9F%98%80&text=last',
  },
  { method: 'POST', path: '/api/chat.postMessage', slack: true, body: `${BOM}channel=general&text=bom`, type: FORM },
  {
    method: 'POST',
    path: '/api/chat.postMessage',
    slack: true,
    type: JSON_TYPE,
    body: JSON.stringify({ channel: 'general', text: 'json' }),
  },
  {
    method: 'POST',
    path: '/api/conversations.history',
    slack: true,
    type: `${FORM}; charset=utf-8`,
    body: 'channel=general&limit=5',
  },
  {
    method: 'POST',
    path: '/api/files.upload',
    slack: true,
    type: 'multipart/form-data; boundary=zz',
    body: [
      '--zz',
      'Content-Disposition: form-data; name="channels"',
      '',
      'general',
      '--zz',
      'Content-Disposition: form-data; name="file"; filename="a.txt"',
      'Content-Type: text/plain',
      '',
      'file body',
      '--zz--',
      '',
    ].join('\r\n'),
  },
]

describe('request bodies read from the Node socket', () => {
  test('answer and change the world exactly as the in-process path does', async () => {
    const local = harness('demo')
    for (const call of calls) {
      const token = (h: Harness) => (call.slack ? h.slack() : h.google())
      const over = await send(call.method, call.path, token(served), call.body, call.type)
      const inProcess = await local.call(call.method, call.path, {
        body: call.body,
        // As on the socket (the action log describes a non-text body by its announced length).
        headers: {
          ...(call.type ? { 'content-type': call.type } : {}),
          'content-length': String(Buffer.byteLength(call.body ?? '')),
        },
        token: token(local),
      })
      expect({ call: call.path, status: over.status, text: over.text }).toEqual({
        call: call.path,
        status: inProcess.status,
        text: inProcess.text,
      })
    }
    expect(Buffer.compare(served.entry.world.snapshot().bytes, local.entry.world.snapshot().bytes)).toBe(0)
  })

  test('take the body from the IncomingMessage (the Request is built from those same bytes)', async () => {
    const body = JSON.stringify({ name: 'fast path.txt', mimeType: 'text/plain' })
    const res = await send('POST', '/drive/v3/files', served.google(), body, JSON_TYPE)
    expect(res.status).toBe(200)
    const incoming = seen.at(-1) as IncomingMessage & { rawBody?: Buffer }
    expect(incoming.rawBody?.toString()).toBe(body)
  })

  test('an announced oversized body is a 413 and the connection stays usable', async () => {
    const saved = LIMITS.jsonBytes
    LIMITS.jsonBytes = 1000
    try {
      const big = JSON.stringify({ name: 'x'.repeat(5000) })
      const res = await send('POST', '/drive/v3/files', served.google(), big, JSON_TYPE)
      expect(res.status).toBe(413)
      expect(JSON.parse(res.text).error.errors[0].reason).toBe('uploadTooLarge')
      const next = await send('GET', '/drive/v3/about?fields=user', served.google())
      expect(next.status).toBe(200)
      expect(next.reused).toBe(true)
    } finally {
      LIMITS.jsonBytes = saved
    }
  })

  test("a chunked body that grows past the limit is a 413, in the family's envelope", async () => {
    const saved = LIMITS.jsonBytes
    LIMITS.jsonBytes = 1000
    try {
      const chunks = Array.from({ length: 10 }, () => Buffer.from(' '.repeat(400)))
      const res = await send('POST', '/drive/v3/files', served.google(), undefined, JSON_TYPE, chunks)
      expect(res.status).toBe(413)
      expect(JSON.parse(res.text).error.errors[0].reason).toBe('uploadTooLarge')
      const under = await send('POST', '/drive/v3/files', served.google(), undefined, JSON_TYPE, [
        Buffer.from('{"name":'),
        Buffer.from('"chunked.txt"}'),
      ])
      expect(JSON.parse(under.text).name).toBe('chunked.txt')
    } finally {
      LIMITS.jsonBytes = saved
    }
  })
})

describe('urlEncodedForm', () => {
  test("gives the entries undici's Request.formData() gives", async () => {
    const app = new Hono()
    app.post('/', async (c) => c.json([...(await urlEncodedForm(c)).entries()]))
    const bodies = [
      'a=1&b=2&a=3',
      'text=a+b%20c%F0%9F%98%80',
      `${BOM}channel=C1`,
      'bad=%E0%A4%A&x=%zz',
      '=v&k=&&k2',
      '',
      Buffer.from([0x61, 0x3d, 0xff, 0xfe, 0x26, 0x62, 0x3d, 0x31]),
    ]
    for (const body of bodies) {
      const res = await app.request('/', { method: 'POST', body, headers: { 'content-type': FORM } })
      const want = await new Response(body, { headers: { 'content-type': FORM } }).formData()
      expect(await res.json()).toEqual([...want.entries()])
    }
  })
  test('urlEncodedArgs gives the last value of each key as lastValues of that FormData, and keeps the FormData', async () => {
    const app = new Hono()
    app.post('/', async (c) => {
      const args = await urlEncodedArgs(c)
      // What a later reader of the body gets: the FormData urlEncodedForm would have kept, via hono's parseBody.
      const later = await c.req.parseBody({ all: true })
      return c.json({ args: Object.entries(args), proto: Object.getPrototypeOf(args), later: Object.entries(later) })
    })
    const bodies = [
      'a=1&b=2&a=3',
      'text=first&2=x&text=second&1=y&a[]=z&a[]=w&__proto__=p&b.c=d&empty=',
      'text=a+b%20c%F0%9F%98%80&line=a%0D%0Ab%0Ac',
      `${BOM}channel=C1`,
      'bad=%E0%A4%A&x=%zz&s=%ED%A0%80',
      '=v&k=&&k2',
      '',
      Buffer.from([0x61, 0x3d, 0xff, 0xfe, 0x26, 0x62, 0x3d, 0x31]),
    ]
    for (const body of bodies) {
      const res = await app.request('/', { method: 'POST', body, headers: { 'content-type': FORM } })
      const want = await new Response(body, { headers: { 'content-type': FORM } }).formData()
      const got = (await res.json()) as { args: unknown; proto: unknown; later: unknown }
      expect(got.args).toEqual(Object.entries(lastValues(want)))
      expect(got.proto).toBe(null)
      const parsed: Record<string, unknown> = Object.create(null)
      want.forEach((v, k) => (parsed[k] = k in parsed ? [parsed[k], v].flat() : v))
      expect(got.later).toEqual(Object.entries(parsed))
    }
  })
})
