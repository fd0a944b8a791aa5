import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

const body = (boundary: string, parts: string[]) =>
  parts.map((p, i) => `--${boundary}\r\nContent-Type: application/http\r\nContent-ID: <item${i + 1}>\r\n\r\n${p}\r\n`).join('') + `--${boundary}--\r\n`

describe('google batch endpoint', () => {
  test('runs each part as its own call and answers multipart/mixed in order', async () => {
    const h = harness({ name: 'b', users: [{ id: 'ann', email: 'ann@example.com', name: 'Ann Lee' }] })
    const res = await h.call('POST', '/batch/gmail/v1', {
      body: body('xyz', ['GET /gmail/v1/users/me/profile HTTP/1.1', 'GET /gmail/v1/users/someone@else.com/profile HTTP/1.1', 'GET /gmail/v1/users/me/profile?fields=emailAddress']),
      headers: { 'content-type': 'multipart/mixed; boundary=xyz' },
    })
    expect(res.status).toBe(200)
    const boundary = /boundary=(\S+)/.exec(res.headers.get('content-type') ?? '')![1]!
    const parts = res.text.split(`--${boundary}`).slice(1, -1)
    expect(parts).toHaveLength(3)
    expect(parts[0]).toContain('Content-ID: response-item1')
    expect(parts[0]).toContain('HTTP/1.1 200')
    expect(parts[0]).toContain('"emailAddress": "ann@example.com"')
    expect(parts[1]).toContain('HTTP/1.1 403')
    expect(parts[2]).toContain('"emailAddress": "ann@example.com"')
    expect(parts[2]).not.toContain('historyId')
  })

  test('refuses a body that is not multipart/mixed, or has more than 100 parts', async () => {
    const h = harness()
    const plain = await h.call('POST', '/batch', { json: {} })
    expect(plain.status).toBe(400)
    const many = Array.from({ length: 101 }, () => 'GET /gmail/v1/users/me/profile')
    const tooMany = await h.call('POST', '/batch', { body: body('b', many), headers: { 'content-type': 'multipart/mixed; boundary=b' } })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.error.message).toContain('100')
  })

  test('needs the caller\'s credentials like any call', async () => {
    const h = harness()
    const res = await h.call('POST', '/batch', { token: null, body: body('b', ['GET /gmail/v1/users/me/profile']), headers: { 'content-type': 'multipart/mixed; boundary=b' } })
    expect(res.status).toBe(401)
  })
})
