import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

// Hostile input from an agent under training that the robustness sweeps did not send (docs/decisions/0387): each
// answers the API's own 4xx, never a 500.

const related = (meta: string, media = 'hello', boundary = 'bnd') =>
  `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${meta}\r\n` +
  `--${boundary}\r\nContent-Type: text/plain\r\n\r\n${media}\r\n--${boundary}--`

describe('drive.files.create uploads: metadata', () => {
  test('multipart and resumable metadata of the wrong types answer 400, not 500', async () => {
    const h = harness('demo')
    const headers = { 'content-type': 'multipart/related; boundary=bnd' }
    for (const meta of ['{"parents":[{"a":1}]}', '{"name":{"x":1}}', '{"name":"a","appProperties":[1]}']) {
      const multipart = await h.call('POST', '/upload/drive/v3/files?uploadType=multipart', {
        body: related(meta),
        headers,
      })
      expect(multipart.status, `${meta}: ${multipart.text}`).toBe(400)
      expect(multipart.body.error.code).toBe(400)
      const resumable = await h.call('POST', '/upload/drive/v3/files?uploadType=resumable', {
        body: meta,
        headers: { 'content-type': 'application/json' },
      })
      expect(resumable.status, `${meta}: ${resumable.text}`).toBe(400)
    }
    // Good metadata still makes the file.
    const ok = await h.call('POST', '/upload/drive/v3/files?uploadType=multipart', {
      body: related('{"name":"fine.txt"}'),
      headers,
    })
    expect(ok.body).toMatchObject({ kind: 'drive#file', name: 'fine.txt' })
  })
})

describe('gmail resumable uploads: metadata', () => {
  test('null metadata is none, and metadata that is no object answers 400 at once', async () => {
    const h = harness('demo')
    const raw = 'To: bob@northwind.test\r\nSubject: resumable\r\n\r\nhi'
    const headers = { 'content-type': 'application/json' }
    const path = '/upload/gmail/v1/users/me/messages/send?uploadType=resumable'
    const open = await h.call('POST', path, { body: 'null', headers })
    expect(open.status).toBe(200)
    const url = new URL(open.headers.get('location')!)
    const sent = await h.call('PUT', url.pathname + url.search, { body: raw })
    expect(sent.status, sent.text).toBe(200)
    expect(sent.body.labelIds).toContain('SENT')
    for (const body of ['5', '"text"', '[]']) expect((await h.call('POST', path, { body, headers })).status).toBe(400)
  })
})

describe('JSON objects wider than any API takes', () => {
  const wide = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']))
  test('a request object of over 1,000 members answers 400 before it is validated (it held the loop seconds)', async () => {
    const h = harness('demo')
    const file = (n: number) => h.call('POST', '/drive/v3/files', { json: { name: 'p', properties: wide(n) } })
    expect((await file(1000)).status).toBe(200)
    const refused = await file(1001)
    expect(refused.status).toBe(400)
    expect(refused.body.error.errors[0].reason).toBe('parseError')
    const event = {
      summary: 'x',
      start: { dateTime: '2026-12-01T10:00:00Z' },
      end: { dateTime: '2026-12-01T11:00:00Z' },
      extendedProperties: { private: wide(5000) },
    }
    expect((await h.call('POST', '/calendar/v3/calendars/primary/events', { json: event })).status).toBe(400)
    // Keys inside strings and members of arrays do not count; top-level junk does.
    const text = { name: 'q', description: '{"a":1,'.repeat(2000), parents: Array.from({ length: 2000 }, () => 'root') }
    expect((await h.call('POST', '/drive/v3/files', { json: text })).status).not.toBe(400)
    expect((await h.call('POST', '/drive/v3/files', { json: { name: 'j', ...wide(1001) } })).status).toBe(400)
    const slack = await h.call('POST', '/api/chat.postMessage', {
      json: { channel: 'general', text: 'x', metadata: { event_type: 't', event_payload: wide(1001) } },
    })
    expect(slack.body).toMatchObject({ ok: false, error: 'invalid_json' })
    const upload = await h.call('POST', '/upload/drive/v3/files?uploadType=multipart', {
      body: related(JSON.stringify({ name: 'u', appProperties: wide(1001) })),
      headers: { 'content-type': 'multipart/related; boundary=bnd' },
    })
    expect(upload.status).toBe(400)
  })
})

describe('gmail MIME parts', () => {
  test('a message of more than 1,000 parts keeps the first 1,000 in its tree (each part cost a parse)', async () => {
    const h = harness('demo')
    const part = '--z\r\nContent-Type: text/plain\r\n\r\nx\r\n'
    const mime = `To: bob@northwind.test\r\nContent-Type: multipart/mixed; boundary=z\r\n\r\n${part.repeat(1500)}--z--`
    const raw = Buffer.from(mime).toString('base64url')
    const sent = await h.call('POST', '/gmail/v1/users/me/messages/send', { json: { raw } })
    expect(sent.status, sent.text).toBe(200)
    const got = await h.call('GET', `/gmail/v1/users/me/messages/${sent.body.id}`)
    expect(got.body.payload.parts).toHaveLength(1000)
  })
})
