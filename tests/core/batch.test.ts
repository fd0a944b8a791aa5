import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

const body = (boundary: string, parts: string[]) =>
  parts
    .map((p, i) => `--${boundary}\r\nContent-Type: application/http\r\nContent-ID: <item${i + 1}>\r\n\r\n${p}\r\n`)
    .join('') + `--${boundary}--\r\n`

describe('google batch endpoint', () => {
  test('runs each part as its own call and answers multipart/mixed in order', async () => {
    const h = harness({ name: 'b', users: [{ id: 'ann', email: 'ann@example.com', name: 'Ann Lee' }] })
    const res = await h.call('POST', '/batch/gmail/v1', {
      body: body('xyz', [
        'GET /gmail/v1/users/me/profile HTTP/1.1',
        'GET /gmail/v1/users/someone@else.com/profile HTTP/1.1',
        'GET /gmail/v1/users/me/profile?fields=emailAddress',
      ]),
      headers: { 'content-type': 'multipart/mixed; boundary=xyz' },
    })
    expect(res.status).toBe(200)
    const boundary = /boundary=(\S+)/.exec(res.headers.get('content-type') ?? '')![1]!
    const parts = res.text.split(`--${boundary}`).slice(1, -1)
    expect(parts).toHaveLength(3)
    expect(parts[0]).toContain('Content-ID: <response-item1>\r\n')
    expect(parts[0]).toContain('HTTP/1.1 200')
    expect(parts[0]).toContain('"emailAddress": "ann@example.com"')
    expect(parts[1]).toContain('HTTP/1.1 403')
    expect(parts[2]).toContain('"emailAddress": "ann@example.com"')
    expect(parts[2]).not.toContain('historyId')
  })

  test('unfolds folded part headers, so a long Content-ID survives', async () => {
    const h = harness({ name: 'b', users: [{ id: 'ann', email: 'ann@example.com', name: 'Ann Lee' }] })
    const id = '7f0c2a55-9a3e-4c1b-8f7d-2b1e4c6a9d10-a-rather-long-request-identifier-that-folds +'
    const folded =
      `--f\r\nContent-Type: application/http\r\nContent-ID: <${id}\r\n 1>\r\n\r\n` +
      'GET /gmail/v1/users/me/profile HTTP/1.1\r\n\r\n\r\n--f--\r\n'
    const res = await h.call('POST', '/batch/gmail/v1', {
      body: folded,
      headers: { 'content-type': 'multipart/mixed; boundary=f' },
    })
    expect(res.status).toBe(200)
    expect(res.text).toContain(`Content-ID: <response-${id} 1>\r\n`)
    expect(res.text).toContain('HTTP/1.1 200')
  })

  test('answers a part with TRACE, CONNECT or an unknown method with a 400 part, the others still run', async () => {
    const h = harness({ name: 'b', users: [{ id: 'ann', email: 'ann@example.com', name: 'Ann Lee' }] })
    const res = await h.call('POST', '/batch/gmail/v1', {
      body: body('m', [
        'TRACE /gmail/v1/users/me/profile HTTP/1.1',
        'CONNECT /gmail/v1/users/me/profile HTTP/1.1',
        'FROB /gmail/v1/users/me/profile HTTP/1.1',
        'GET /gmail/v1/users/me/profile HTTP/1.1',
      ]),
      headers: { 'content-type': 'multipart/mixed; boundary=m' },
    })
    expect(res.status).toBe(200)
    const boundary = /boundary=(\S+)/.exec(res.headers.get('content-type') ?? '')![1]!
    const parts = res.text.split(`--${boundary}`).slice(1, -1)
    expect(parts.map((p) => /HTTP\/1\.1 (\d+)/.exec(p)?.[1])).toEqual(['400', '400', '400', '200'])
    expect(parts[0]).toContain('"reason": "badRequest"')
    expect(parts[1]).toContain('Content-ID: <response-item2>')
  })

  test('refuses a body that is not multipart/mixed, or has more than 100 parts', async () => {
    const h = harness()
    const plain = await h.call('POST', '/batch', { json: {} })
    expect(plain.status).toBe(400)
    const many = Array.from({ length: 101 }, () => 'GET /gmail/v1/users/me/profile')
    const tooMany = await h.call('POST', '/batch', {
      body: body('b', many),
      headers: { 'content-type': 'multipart/mixed; boundary=b' },
    })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.error.message).toContain('100')
  })

  test('runs each call as its part of the answer is read, and every call when the client goes away', async () => {
    const h = harness({ name: 'b', users: [{ id: 'ann', email: 'ann@example.com', name: 'Ann Lee' }] })
    const create = (i: number) => `POST /drive/v3/files\r\nContent-Type: application/json\r\n\r\n{"name":"f${i}.txt"}`
    const list = () => h.call('GET', '/drive/v3/files?pageSize=1000', { token: h.google() })
    const count = async () => (await list()).body.files.length
    const before = await count()
    const res = await h.app.request('/batch/drive/v3', {
      method: 'POST',
      headers: { authorization: `Bearer ${h.google()}`, 'content-type': 'multipart/mixed; boundary=z' },
      body: body(
        'z',
        Array.from({ length: 20 }, (_, i) => create(i)),
      ),
    })
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    expect(first).toContain('"name": "f0.txt"')
    // The answer is not built ahead of its reader: only the calls whose parts were read (and the one being read
    // ahead) have run.
    expect(await count()).toBeLessThan(before + 20)
    await reader.cancel()
    expect(await count()).toBe(before + 20)
  })

  test("an API's batch endpoint answers a call to another API with a 404 part and does not run it", async () => {
    const h = harness({ name: 'b', users: [{ id: 'ann', email: 'ann@example.com', name: 'Ann Lee' }] })
    const files = async () =>
      (await h.call('GET', '/drive/v3/files?pageSize=1000', { token: h.google() })).body.files.length
    const before = await files()
    const drive = 'POST /drive/v3/files\r\nContent-Type: application/json\r\n\r\n{"name":"smuggled.txt"}'
    const res = await h.call('POST', '/batch/gmail/v1', {
      body: body('g', [
        drive,
        'GET /gmail/v1/../../drive/v3/files HTTP/1.1',
        'GET /calendar/v3/users/me/calendarList HTTP/1.1',
        `POST /batch/drive/v3\r\nContent-Type: multipart/mixed; boundary=n\r\n\r\n${body('n', [drive])}`,
        'GET http://elsewhere.test/drive/v3/files HTTP/1.1',
        'GET /gmail/v1/users/me/profile HTTP/1.1',
      ]),
      headers: { 'content-type': 'multipart/mixed; boundary=g' },
    })
    expect(res.status).toBe(200)
    const boundary = /boundary=(\S+)/.exec(res.headers.get('content-type') ?? '')![1]!
    const parts = res.text.split(`--${boundary}`).slice(1, -1)
    expect(parts.map((p) => /HTTP\/1\.1 (\d+)/.exec(p)?.[1])).toEqual(['404', '404', '404', '404', '404', '200'])
    expect(parts[0]).toContain('"reason": "notFound"')
    expect(await files()).toBe(before)
    // Gmail's, Docs' and Data Transfer's batchPath is `batch` on their own hosts: Drive is not one of them.
    const bare = await h.call('POST', '/batch', {
      body: body('b', [drive, 'GET /gmail/v1/users/me/profile']),
      headers: { 'content-type': 'multipart/mixed; boundary=b' },
    })
    expect([...bare.text.matchAll(/HTTP\/1\.1 (\d+)/g)].map((m) => m[1])).toEqual(['404', '200'])
    const unknown = await h.call('POST', '/batch/slack/v1', {
      body: body('b', ['GET /gmail/v1/users/me/profile']),
      headers: { 'content-type': 'multipart/mixed; boundary=b' },
    })
    expect(unknown.status).toBe(404)
  })

  test("needs the caller's credentials like any call", async () => {
    const h = harness()
    const res = await h.call('POST', '/batch', {
      token: null,
      body: body('b', ['GET /gmail/v1/users/me/profile']),
      headers: { 'content-type': 'multipart/mixed; boundary=b' },
    })
    expect(res.status).toBe(401)
  })
})
