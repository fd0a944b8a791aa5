import { describe, expect, test } from 'vitest'
import { harness, type Harness } from '../envs/core/testing/harness.ts'
import { specMethods as slackSpec } from '../envs/slack/api/methods.gen.ts'
import { countWrites, expectGoogleClientError, watch } from './support/world-watch.ts'

// Throws generated bad requests at every route the agent port registers and checks that each one
// gets a client error in the right envelope (never a 5xx), and that requests which fail change nothing.

const HOSTILE = [
  "'; DROP TABLE world_users; --",
  '../../../../etc/passwd',
  '%00%ff',
  '<script>alert(1)</script>',
  'x'.repeat(5000),
  '🙂\u202e\u0007',
  '-1',
]

const BAD_BODIES: { body: string; type: string }[] = [
  { body: '{"unterminated": ', type: 'application/json' },
  { body: '[1,2,3]', type: 'application/json' },
  { body: '"just a string"', type: 'application/json' },
  { body: 'null', type: 'application/json' },
  {
    body: '{"name": 12, "id": [], "requests": "nope", "raw": {"x": 1}, "summary": false, "start": "tomorrow", "role": 7}',
    type: 'application/json',
  },
  { body: 'not json at all', type: 'text/plain' },
]

const BAD_QUERIES = [
  'maxResults=-5',
  'maxResults=abc',
  'pageSize=100000000',
  'pageToken=%%%garbage',
  'q=(((',
  'timeMin=yesterday',
  'fields=a(b',
]

type Route = { method: string; path: string }

async function googleRoutes(h: Harness): Promise<Route[]> {
  const doc = (await h.call('GET', '/openapi.json', { token: null })).body as {
    paths: Record<string, Record<string, unknown>>
  }
  return Object.entries(doc.paths)
    .filter(([p]) => !p.startsWith('/api/'))
    .flatMap(([path, item]) => Object.keys(item).map((method) => ({ method: method.toUpperCase(), path })))
}

const fill = (template: string, value: string) => template.replace(/\{[^}]+\}/g, encodeURIComponent(value))
describe('robustness of every Google route', () => {
  test('hostile ids, bad bodies and bad query values never produce a 5xx or a partial write', async () => {
    const h = harness('demo')
    const routes = await googleRoutes(h)
    const writes = countWrites(h)
    expect(routes.length).toBeGreaterThan(0)
    for (const route of routes) {
      const unchanged = watch(h, writes)
      let allFailed = true
      const send = async (path: string, init: { body?: string; type?: string } = {}) => {
        const headers: Record<string, string> = {}
        if (init.type) headers['content-type'] = init.type
        const res = await h.call(route.method, path, { body: init.body, headers })
        if (res.status < 400) allFailed = false
        expectGoogleClientError(res, `${route.method} ${path.slice(0, 120)}`)
      }
      for (const value of HOSTILE) await send(fill(route.path, value))
      const target = fill(route.path, 'me')
      if (route.method !== 'GET' && route.method !== 'DELETE') {
        for (const bad of BAD_BODIES) await send(target, bad)
      }
      for (const q of BAD_QUERIES) await send(`${fill(route.path, 'unknown-id-0000')}?${q}`)
      if (allFailed) unchanged(`${route.method} ${route.path} changed the world while failing`)
    }
  }, 300_000)
})

describe('robustness of every Slack method', () => {
  test('wrong types, hostile strings and malformed bodies get ok:false with HTTP 200 and change nothing', async () => {
    const h = harness('demo')
    const doc = (await h.call('GET', '/openapi.json', { token: null })).body as { paths: Record<string, unknown> }
    const writes = countWrites(h)
    // auth.revoke may succeed (revoking this very token), so it runs last.
    const methods = Object.keys(doc.paths)
      .filter((p) => p.startsWith('/api/'))
      .map((p) => p.slice(5))
      .sort((a, b) => Number(a === 'auth.revoke') - Number(b === 'auth.revoke'))
    for (const name of methods) {
      const params = Object.keys(slackSpec().find((m) => m.id === name)?.parameters ?? {})
      const keys = [
        ...new Set([...params, 'channel', 'ts', 'user', 'users', 'name', 'text', 'file', 'limit', 'cursor']),
      ]
      const unchanged = watch(h, writes)
      let allFailed = true
      const variants: { form?: Record<string, string>; body?: string; type?: string }[] = [
        ...HOSTILE.map((v) => ({ form: Object.fromEntries(keys.map((k) => [k, v])) })),
        {
          body: JSON.stringify(Object.fromEntries(keys.map((k) => [k, { nested: [1, 2] }]))),
          type: 'application/json',
        },
        { body: JSON.stringify(Object.fromEntries(keys.map((k) => [k, 12345]))), type: 'application/json' },
        { body: '{"channel": ', type: 'application/json' },
        { form: { limit: '-1', cursor: 'garbage%%' } },
      ]
      for (const v of variants) {
        const res = await h.call('POST', `/api/${name}`, {
          form: v.form,
          body: v.body,
          headers: v.type ? { 'content-type': v.type } : {},
        })
        const label = `${name} ${JSON.stringify(v).slice(0, 100)} → ${res.status} ${res.text.slice(0, 200)}`
        expect([200, 429], label).toContain(res.status)
        expect(typeof res.body?.ok, label).toBe('boolean')
        if (res.body.ok) allFailed = false
        else expect(typeof res.body.error, label).toBe('string')
        if (res.body.ok && name === 'auth.revoke') break
      }
      if (allFailed) unchanged(`${name} changed the world while failing`)
    }
  }, 300_000)
})

describe('the write counter of these tests', () => {
  test('ignores the clock and the action log, and sees a write', async () => {
    const h = harness('empty')
    const writes = countWrites(h)
    expect((await h.call('GET', '/gmail/v1/users/me/profile')).status).toBe(200)
    expect(writes()).toBe(0)
    expect((await h.call('POST', '/gmail/v1/users/me/labels', { json: { name: 'Watched' } })).status).toBe(200)
    expect(writes()).toBeGreaterThan(0)
  })
})

describe('a text with a lone surrogate (JSON "\\ud800"), stored as replacement characters', () => {
  test('gmail.users.labels.create answers the stored name and refuses a second label stored under the same name', async () => {
    const h = harness('demo')
    const made = await h.call('POST', '/gmail/v1/users/me/labels', { json: { name: 'a\ud800b' } })
    expect(made.status).toBe(200)
    const read = await h.call('GET', `/gmail/v1/users/me/labels/${made.body.id}`)
    expect(made.body.name).toBe(read.body.name)
    const twin = await h.call('POST', '/gmail/v1/users/me/labels', { json: { name: 'a\udc00b' } })
    expect(twin.status).toBe(409)
    expect(twin.body.error.errors[0].reason).toBe('duplicate')
  })

  test('calendar.calendars.insert answers the stored summary', async () => {
    const h = harness('demo')
    const made = await h.call('POST', '/calendar/v3/calendars', { json: { summary: 'c\ud800' } })
    expect(made.status).toBe(200)
    const read = await h.call('GET', `/calendar/v3/calendars/${encodeURIComponent(made.body.id)}`)
    expect(made.text).toBe(read.text)
  })
})
