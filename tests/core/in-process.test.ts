import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Agent, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Server as ServerType } from 'node:http'
import { serveFetch as serve } from '../../server/web/serve.ts'
import { LightResponse } from '../../server/web/response.ts'
import { realClass } from '../../server/web/real.ts'
import { harness, type Harness } from '../../envs/core/testing/harness.ts'
import { LIMITS } from '../../server/app.ts'
import { InProcessResponse, requestInProcess } from '../../server/in-process/index.ts'

// `requestInProcess` (docs/decisions/0295) must answer every call as `app.request` does, and as the same app
// over a real socket: status, headers, body bytes and the world left behind.

type Answer = { status: number; headers: [string, string][]; body: string }
type Call = {
  method: string
  path: string | ((vars: Record<string, string>) => string)
  slack?: boolean
  token?: string
  body?: string
  type?: string
  /** Remembers a value of the JSON answer for later calls (an id the world chose). */
  keep?: [name: string, pick: (json: any) => string]
}

const BOM = '\uFEFF'
const JSON_TYPE = 'application/json'
const FORM = 'application/x-www-form-urlencoded'
const b64 = (s: string) => Buffer.from(s).toString('base64url')
const mail = b64('From: me\r\nTo: bob@northwind.test\r\nSubject: in process\r\n\r\nhello')
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
const upload = [
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
].join('\r\n')
const json = (value: unknown) => ({ body: JSON.stringify(value), type: JSON_TYPE })
const day = { start: { dateTime: '2026-03-02T10:00:00Z' }, end: { dateTime: '2026-03-02T11:00:00Z' } }

const calls: Call[] = [
  // Gmail
  { method: 'GET', path: '/gmail/v1/users/me/profile' },
  { method: 'GET', path: '/gmail/v1/users/me/labels?prettyPrint=false' },
  {
    method: 'POST',
    path: '/gmail/v1/users/me/messages',
    ...json({ raw: mail, labelIds: ['INBOX'] }),
    keep: ['message', (j) => j.id],
  },
  { method: 'POST', path: '/gmail/v1/users/me/messages/send', ...json({ raw: mail }) },
  { method: 'GET', path: (v) => `/gmail/v1/users/me/messages/${v.message}?format=metadata&fields=id,labelIds` },
  {
    method: 'POST',
    path: '/upload/gmail/v1/users/me/messages?uploadType=media',
    type: 'message/rfc822',
    body: 'Subject: media\r\n\r\nx',
  },
  { method: 'POST', path: '/gmail/v1/users/me/labels', type: JSON_TYPE, body: '{"name": "broken' },
  { method: 'PATCH', path: '/gmail/v1/users/me/labels/INBOX', body: '', type: JSON_TYPE },
  { method: 'DELETE', path: (v) => `/gmail/v1/users/me/messages/${v.message}` },
  { method: 'GET', path: '/gmail/v1/users/me/profile', token: 'not-a-token' },
  // Calendar
  { method: 'GET', path: '/calendar/v3/users/me/calendarList?maxResults=2' },
  {
    method: 'POST',
    path: '/calendar/v3/calendars/primary/events',
    ...json({ summary: 'Sync', ...day }),
    keep: ['event', (j) => j.id],
  },
  { method: 'PATCH', path: (v) => `/calendar/v3/calendars/primary/events/${v.event}`, ...json({ summary: 'Moved' }) },
  { method: 'GET', path: '/calendar/v3/calendars/primary/events?timeMin=2026-03-01T00:00:00Z&maxResults=3' },
  { method: 'DELETE', path: (v) => `/calendar/v3/calendars/primary/events/${v.event}` },
  { method: 'POST', path: '/calendar/v3/calendars/primary/events', type: JSON_TYPE, body: '{"summary": "x", "start":' },
  // Drive
  { method: 'GET', path: '/drive/v3/files?pageSize=3&fields=files(id,name)' },
  {
    method: 'POST',
    path: '/drive/v3/files',
    type: JSON_TYPE,
    body: `${BOM}${JSON.stringify({ name: 'bom.txt', mimeType: 'text/plain' })}`,
    keep: ['file', (j) => j.id],
  },
  { method: 'POST', path: '/drive/v3/files', body: JSON.stringify({ name: 'untyped.txt' }) },
  {
    method: 'POST',
    path: '/upload/drive/v3/files?uploadType=multipart',
    body: related,
    type: 'multipart/related; boundary=b1',
    keep: ['upload', (j) => j.id],
  },
  { method: 'GET', path: (v) => `/drive/v3/files/${v.upload}?alt=media` },
  { method: 'PATCH', path: (v) => `/drive/v3/files/${v.file}`, ...json({ name: 'renamed.txt' }) },
  { method: 'DELETE', path: (v) => `/drive/v3/files/${v.file}` },
  { method: 'GET', path: '/drive/v3/files/nope-such-file' },
  // Docs
  { method: 'POST', path: '/v1/documents', ...json({ title: 'In process' }), keep: ['doc', (j) => j.documentId] },
  {
    method: 'POST',
    path: (v) => `/v1/documents/${v.doc}:batchUpdate`,
    ...json({ requests: [{ insertText: { location: { index: 1 }, text: 'Hello' } }] }),
  },
  { method: 'GET', path: (v) => `/v1/documents/${v.doc}?fields=title,body.content` },
  // Slack
  { method: 'POST', path: '/api/chat.postMessage', slack: true, type: FORM, body: 'channel=general&text=a+b%20c' },
  { method: 'POST', path: '/api/chat.postMessage', slack: true, type: FORM, body: `${BOM}channel=general&text=bom` },
  { method: 'POST', path: '/api/chat.postMessage', slack: true, ...json({ channel: 'general', text: 'json' }) },
  { method: 'POST', path: '/api/chat.postMessage', slack: true, type: JSON_TYPE, body: '{"channel":' },
  { method: 'GET', path: '/api/conversations.list?limit=2', slack: true },
  {
    method: 'POST',
    path: '/api/conversations.history',
    slack: true,
    type: `${FORM}; charset=utf-8`,
    body: 'channel=general&limit=3',
  },
  { method: 'POST', path: '/api/files.upload', slack: true, type: 'multipart/form-data; boundary=zz', body: upload },
  { method: 'POST', path: '/api/no.such.method', slack: true, type: FORM, body: 'x=1' },
  { method: 'PUT', path: '/api/chat.postMessage', slack: true },
  { method: 'POST', path: '/api/auth.test', slack: true, token: 'xoxp-wrong' },
  // Neither
  { method: 'GET', path: '/no/such/path' },
  { method: 'GET', path: '/healthz' },
]

/** Hop-by-hop and framing headers only a socket carries. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'])

type Way = (h: Harness, call: Call, path: string, headers: Record<string, string>) => Promise<Answer>

const pairs = (headers: Headers) => [...headers].filter(([k]) => !TRANSPORT.has(k))
const answerOf = async (res: Pick<Response, 'status' | 'headers' | 'arrayBuffer'>): Promise<Answer> => ({
  status: res.status,
  headers: pairs(res.headers),
  body: Buffer.from(await res.arrayBuffer()).toString('latin1'),
})
const viaApp: Way = async (h, call, path, headers) =>
  answerOf(await h.app.request(path, { method: call.method, headers, body: call.body }))
const viaInProcess: Way = async (h, call, path, headers) => {
  const init = { method: call.method, headers, body: call.body }
  return answerOf(await requestInProcess(h.app, `http://agent.local${path}`, init))
}

let served: Harness
let server: ServerType
let base: string
const agent = new Agent({ keepAlive: true, maxSockets: 1 })

const viaSocket: Way = (_h, call, path, headers) =>
  new Promise<Answer>((resolve, reject) => {
    // What fetch() would send: a typeless text body goes out as text/plain, as a `Request` carries it.
    const untyped = call.body !== undefined && !call.type
    const typed = untyped ? { ...headers, 'content-type': 'text/plain;charset=UTF-8' } : headers
    const req = request(`${base}${path}`, { method: call.method, headers: typed, agent }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (c: Buffer) => parts.push(c))
      res.on('end', () => {
        const lines: [string, string][] = []
        const raw = res.rawHeaders
        for (let i = 0; i < raw.length; i += 2) lines.push([raw[i]!.toLowerCase(), raw[i + 1]!])
        const list = pairs(new Headers(lines))
        resolve({ status: res.statusCode!, headers: list, body: Buffer.concat(parts).toString('latin1') })
      })
    })
    req.on('error', reject)
    req.end(call.body)
  })

/** Runs every call on `h` one way; `framed` adds the Content-Length a socket client sends. */
async function run(h: Harness, way: Way, framed: boolean) {
  const vars: Record<string, string> = {}
  const answers: (Answer & { call: string })[] = []
  for (const call of calls) {
    const path = typeof call.path === 'string' ? call.path : call.path(vars)
    const token = call.token ?? (call.slack ? h.slack() : h.google())
    const headers: Record<string, string> = { authorization: `Bearer ${token}` }
    if (call.type) headers['content-type'] = call.type
    if (framed && call.body !== undefined) headers['content-length'] = String(Buffer.byteLength(call.body))
    const answer = await way(h, call, path, headers)
    if (call.keep) vars[call.keep[0]] = call.keep[1](JSON.parse(answer.body))
    answers.push({ call: `${call.method} ${path}`, ...answer })
  }
  return answers
}

const image = (h: Harness) => h.entry.world.snapshot().bytes

beforeAll(async () => {
  served = harness('demo')
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: served.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  agent.destroy()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

/**
 * Runs `body` with undici's own `Request`, `Response` and `Headers` as the globals (a listener started in this file
 * or another of the worker installs the light ones of server/web/), then puts back what was there.
 */
async function withUndiciGlobals<T>(body: () => Promise<T>): Promise<T> {
  const names = ['Request', 'Response', 'Headers'] as const
  const saved = names.map((name) => Object.getOwnPropertyDescriptor(globalThis, name)!)
  // The light class, or @hono/node-server's lightweight response built on it.
  const global = saved[1]!.value as { prototype?: object } | undefined
  const light =
    !!global?.prototype && (global === LightResponse || LightResponse.prototype.isPrototypeOf(global.prototype))
  if (light) for (const name of names) Object.defineProperty(globalThis, name, { value: realClass(name) })
  try {
    return await body()
  } finally {
    if (light) names.forEach((name, i) => Object.defineProperty(globalThis, name, saved[i]!))
  }
}

describe('requestInProcess', () => {
  test('answers and changes the world as app.request and a real socket do', async () => {
    expect(calls.length).toBeGreaterThanOrEqual(25)
    const socket = await run(served, viaSocket, true)
    const app = harness('demo')
    const viaRequest = await run(app, viaApp, true)
    const light = harness('demo')
    const viaLight = await run(light, viaInProcess, true)
    expect(viaLight).toEqual(viaRequest)
    // The listener gives an empty 204 a text type (it did before 0295; in process there is none).
    const untyped = (list: typeof socket) => list.map((x) => ({ ...x, headers: x.status === 204 ? [] : x.headers }))
    expect(untyped(viaLight)).toEqual(untyped(socket))
    // Every kind of answer came up: successes, client errors and a 404, JSON, text and bytes.
    const statuses = new Set(viaLight.map((a) => a.status))
    for (const s of [200, 204, 400, 401, 404, 405]) expect(statuses).toContain(s)
    expect(Buffer.compare(image(app), image(light))).toBe(0)
    expect(Buffer.compare(image(served), image(light))).toBe(0)
  })

  test("answers as app.request without a Content-Length (the gym's calls), whichever Response is global", async () => {
    for (const undici of [false, true]) {
      const a = harness('demo')
      const b = harness('demo')
      const both = async () => [await run(a, viaApp, false), await run(b, viaInProcess, false)] as const
      const [viaRequest, viaLight] = undici ? await withUndiciGlobals(both) : await both()
      expect(viaLight).toEqual(viaRequest)
      expect(Buffer.compare(image(a), image(b))).toBe(0)
    }
  })

  test('keeps text answers out of undici and sends multipart bodies through app.request', async () => {
    const h = harness('demo')
    const get = await requestInProcess(h.app, 'http://agent.local/gmail/v1/users/me/profile', {
      headers: { authorization: `Bearer ${h.google()}` },
    })
    expect(get).toBeInstanceOf(InProcessResponse)
    const slack = await requestInProcess(h.app, 'http://agent.local/api/chat.postMessage', {
      method: 'POST',
      headers: { authorization: `Bearer ${h.slack()}`, 'content-type': JSON_TYPE },
      body: JSON.stringify({ channel: 'general', text: 'warned' }),
    })
    expect(slack).toBeInstanceOf(InProcessResponse)
    expect(((await slack.json()) as { warning?: string }).warning).toBe('missing_charset')
    const multipart = await requestInProcess(h.app, 'http://agent.local/upload/drive/v3/files?uploadType=multipart', {
      method: 'POST',
      headers: { authorization: `Bearer ${h.google()}`, 'content-type': 'multipart/related; boundary=b1' },
      body: related,
    })
    expect(multipart).not.toBeInstanceOf(InProcessResponse)
    expect(multipart.status).toBe(200)
  })

  test('refuses an oversized body as app.request does, announced or counted', async () => {
    const saved = LIMITS.jsonBytes
    LIMITS.jsonBytes = 1000
    try {
      for (const announce of [false, true]) {
        const a = harness('demo')
        const b = harness('demo')
        const body = JSON.stringify({ name: 'é'.repeat(600) }) // 1,200+ bytes, fewer characters
        const headers = (h: Harness) => ({
          authorization: `Bearer ${h.google()}`,
          'content-type': JSON_TYPE,
          ...(announce ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
        })
        const init = (h: Harness) => ({ method: 'POST', headers: headers(h), body })
        const want = await a.app.request('http://agent.local/drive/v3/files', init(a))
        const got = await requestInProcess(b.app, 'http://agent.local/drive/v3/files', init(b))
        expect(got.status).toBe(413)
        expect({ status: got.status, text: await got.text() }).toEqual({ status: want.status, text: await want.text() })
        expect(Buffer.compare(image(a), image(b))).toBe(0)
      }
    } finally {
      LIMITS.jsonBytes = saved
    }
  })

  test('throws what app.request throws for a call no Request can carry', async () => {
    const h = harness('demo')
    const bad = [
      { url: 'http://agent.local/gmail/v1/users/me/profile', init: { method: 'GET', body: 'x' } },
      { url: 'http://u:p@agent.local/gmail/v1/users/me/profile', init: {} },
      { url: 'http://agent.local/x', init: { headers: { 'bad header': 'x' } } },
    ]
    for (const { url, init } of bad) {
      const want = await (async () => h.app.request(url, init))().then(
        () => 'answered',
        (e: Error) => e.message,
      )
      const got = await requestInProcess(h.app, url, init).then(
        () => 'answered',
        (e: Error) => e.message,
      )
      expect(got).toBe(want)
      expect(got).not.toBe('answered')
    }
  })
})
