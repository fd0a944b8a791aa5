import { describe, expect, test } from 'vitest'
import { LightHeaders } from '../../server/web/headers.ts'
import { LightRequest } from '../../server/web/request.ts'
import { LightResponse } from '../../server/web/response.ts'
import { realClass } from '../../server/web/real.ts'

/**
 * The light Headers, Request and Response of the served process (docs/decisions/0436) against Node's own (undici's)
 * classes: the same operations give the same values, the same errors (class and message) and the same bodies.
 */

type Classes = { Headers: typeof Headers; Request: typeof Request; Response: typeof Response }
const light = { Headers: LightHeaders, Request: LightRequest, Response: LightResponse } as unknown as Classes
const undici: Classes = {
  Headers: realClass('Headers'),
  Request: realClass('Request'),
  Response: realClass('Response'),
}

/** What an operation gives: its value (headers as entries), or its error's class and message. */
async function outcome(run: () => unknown): Promise<unknown> {
  try {
    const v = await run()
    if (v && typeof v === 'object' && typeof (v as Headers).getSetCookie === 'function') return [...(v as Headers)]
    return v instanceof ArrayBuffer ? [...new Uint8Array(v)] : v
  } catch (e) {
    return `${(e as Error).constructor.name}: ${(e as Error).message}`
  }
}

const cases: Record<string, (c: Classes) => unknown> = {
  'headers from pairs': (c) =>
    new c.Headers([
      ['B', ' q '],
      ['b', 'r'],
      ['A', 'x'],
    ]),
  'headers from record': (c) => new c.Headers({ 'X-A': '1', 'x-b': '\t2 ' }),
  'headers copy': (c) => new c.Headers(new c.Headers({ a: '1' })),
  'headers set-cookie lines': (c) => {
    const h = new c.Headers()
    h.append('Set-Cookie', 'a=1')
    h.append('set-cookie', 'b=2')
    h.append('Cookie', 'x=1')
    h.append('cookie', 'y=2')
    return [h.get('set-cookie'), h.getSetCookie(), h.get('cookie'), [...h]]
  },
  'headers set/delete/has': (c) => {
    const h = new c.Headers({ a: '1', 'set-cookie': 'z=1' })
    h.set('A', '2')
    h.delete('set-cookie')
    return [h.get('a'), h.has('A'), h.has('set-cookie'), h.get('missing'), [...h.keys()], [...h.values()]]
  },
  'headers forEach': (c) => {
    const seen: string[] = []
    new c.Headers({ b: '2', a: '1' }).forEach((v, k) => seen.push(`${k}=${v}`))
    return seen
  },
  'headers bad name': (c) => new c.Headers().append('a b', 'x'),
  'headers bad value': (c) => new c.Headers().set('a', 'x\ny'),
  'headers bad get': (c) => new c.Headers().get('a b'),
  'headers bad pair': (c) => new c.Headers([['a']] as unknown as [string, string][]),
  'headers not a byte string': (c) => new c.Headers({ a: '\u0100' }),
  'headers not an object': (c) => new c.Headers(5 as unknown as [string, string][]),
  'response text': (c) => new c.Response('héllo').text(),
  'response default type': (c) => new c.Response('x').headers,
  'response json': (c) => new c.Response('{"a":1}').json(),
  'response bytes': (c) => new c.Response(new Uint8Array([1, 2, 3])).arrayBuffer(),
  'response form type': (c) => new c.Response(new URLSearchParams('a=1')).headers,
  'response blob type': (c) => new c.Response(new Blob(['x'], { type: 'a/b' })).headers,
  'response status': (c) => {
    const r = new c.Response(null, { status: 204, statusText: 'No', headers: { a: '1' } })
    return [r.status, r.statusText, r.ok, r.body, r.bodyUsed, [...r.headers], r.type, r.url, r.redirected]
  },
  'response bad status': (c) => new c.Response('x', { status: 99 }),
  'response body with 204': (c) => new c.Response('x', { status: 204 }),
  'response bad statusText': (c) => new c.Response('x', { statusText: 'a\nb' }),
  'response read twice': async (c) => {
    const r = new c.Response('x')
    await r.text()
    return [r.bodyUsed, await outcome(() => r.text())]
  },
  'response clone': async (c) => {
    const r = new c.Response('abc', { status: 201 })
    const copy = r.clone()
    return [await r.text(), await copy.text(), copy.status]
  },
  'response stream body': async (c) => {
    const chunks: Uint8Array[] = []
    const reader = new c.Response('abc').body!.getReader()
    for (let x = await reader.read(); !x.done; x = await reader.read()) chunks.push(x.value)
    return chunks.map((b) => [...b])
  },
  'response from a stream': (c) =>
    new c.Response(new Blob(['a', 'b']).stream(), { headers: { 'content-type': 't/t' } }).text(),
  'response json static': async (c) => {
    const r = c.Response.json({ a: 1 }, { status: 202 })
    return [r.status, [...r.headers], await r.text()]
  },
  'response redirect': (c) => [...c.Response.redirect('http://a/b', 301).headers],
  'response formData': async (c) => {
    const f = await new c.Response('a=1&b=2', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }).formData()
    return [...f]
  },
  'request basics': (c) => {
    const r = new c.Request('http://a/x?y#z', { method: 'post', body: 'b' })
    return [r.url, r.method, [...r.headers], r.bodyUsed]
  },
  'request methods': (c) => ['patch', 'delete', 'Foo'].map((m) => new c.Request('http://a/', { method: m }).method),
  'request relative url': (c) => new c.Request('/x'),
  'request credentials': (c) => new c.Request('http://u:p@a/x'),
  'request GET body': (c) => new c.Request('http://a/', { method: 'GET', body: 'x' }),
  'request TRACE': (c) => new c.Request('http://a/', { method: 'TRACE' }),
  'request bad method': (c) => new c.Request('http://a/', { method: 'a b' }),
  'request from request': async (c) => {
    const a = new c.Request('http://a/x', { method: 'POST', body: 'hi', headers: { 'x-a': '1' } })
    const b = new c.Request(a, { method: 'PUT' })
    return [a.bodyUsed, b.method, b.url, [...b.headers], await b.text()]
  },
  'request new body': async (c) => {
    const a = new c.Request('http://a/x', { method: 'POST', body: 'hi' })
    const b = new c.Request(a, { body: 'there' })
    return [a.bodyUsed, await b.text(), await a.text()]
  },
  'request json and bytes': async (c) => {
    const body = new TextEncoder().encode('{"a":[1]}')
    return [
      await new c.Request('http://a/', { method: 'POST', body }).json(),
      await new c.Request('http://a/', { method: 'POST', body }).arrayBuffer(),
    ]
  },
  'request signal': (c) => {
    const ac = new AbortController()
    const r = new c.Request('http://a/', { signal: ac.signal })
    ac.abort('why')
    return [r.signal.aborted, r.signal.reason]
  },
}

describe('light web classes', () => {
  test("are compared with undici's own", () => {
    for (const name of ['Headers', 'Request', 'Response'] as const) expect(undici[name]).not.toBe(light[name])
  })
  for (const [name, run] of Object.entries(cases)) {
    test(name, async () => {
      expect(await outcome(() => run(light))).toEqual(await outcome(() => run(undici)))
    })
  }
})
