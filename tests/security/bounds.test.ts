import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { GMAIL_MAX_UPLOAD_BYTES } from '../../envs/gmail/routes/resumable.ts'
import { DRIVE_MAX_UPLOAD_BYTES } from '../../envs/drive/routes/uploads.ts'
import { iterateRecurrence } from '../../envs/calendar/time/stream.ts'
import { MAX_FIELDS_DEPTH, parseFields } from '../../envs/core/fields.ts'

// Every request's work is bounded, with the API's error where it has one (issue #12). Costs are asserted by
// what the server does (refuses, or looks at a bounded number of things), never by timing.

const b64 = (s: string) => Buffer.from(s).toString('base64url')

describe('Gmail bounds', () => {
  test('a 10,000-character q and a deeply nested q answer 400, not 500', async () => {
    const h = harness('demo')
    for (const q of [
      'a '.repeat(5000),
      `${'('.repeat(40)}a${')'.repeat(40)}`,
      `${'-'.repeat(60)}a`,
      '{'.repeat(3000),
    ]) {
      const res = await h.call('GET', `/gmail/v1/users/me/messages?q=${encodeURIComponent(q)}`)
      expect(res.status).toBe(400)
      expect(res.body.error.status).toBe('INVALID_ARGUMENT')
    }
    // An ordinary long query still works.
    const ok = await h.call(
      'GET',
      `/gmail/v1/users/me/messages?q=${encodeURIComponent(Array(50).fill('-zzz').join(' '))}`,
    )
    expect(ok.status).toBe(200)
  })

  test('a header section of 100,000 References ids answers 400 before it is parsed', async () => {
    const h = harness('demo')
    const refs = Array.from({ length: 100_000 }, (_, i) => `<m${i}@x.test>`).join(' ')
    const res = await h.call('POST', '/gmail/v1/users/me/messages/send', {
      json: { raw: b64(`To: bob@northwind.test\r\nSubject: x\r\nReferences: ${refs}\r\n\r\nbody`) },
    })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toMatch(/header section exceeds/)
  })

  test('a References header of 3,000 ids threads by its recent end and still sends', async () => {
    const h = harness('demo')
    const list = await h.call('GET', '/gmail/v1/users/me/messages?maxResults=1')
    const parent = await h.call('GET', `/gmail/v1/users/me/messages/${list.body.messages[0].id}?format=metadata`)
    const msgId = parent.body.payload.headers.find((x: { name: string }) => x.name.toLowerCase() === 'message-id').value
    const subject = parent.body.payload.headers.find((x: { name: string }) => x.name.toLowerCase() === 'subject').value
    const refs = [...Array.from({ length: 3_000 }, (_, i) => `<m${i}@x.test>`), msgId].join(' ')
    const raw = b64(`From: me\r\nTo: bob@northwind.test\r\nSubject: Re: ${subject}\r\nReferences: ${refs}\r\n\r\nbody`)
    const res = await h.call('POST', '/gmail/v1/users/me/messages/send', { json: { raw } })
    expect(res.status).toBe(200)
    expect(res.body.threadId).toBe(parent.body.threadId)
  })

  test('more than 500 recipients is refused and nothing is sent', async () => {
    const h = harness('demo')
    const before = (await h.call('GET', '/gmail/v1/users/me/profile')).body.messagesTotal
    const to = Array.from({ length: 501 }, (_, i) => `u${i}@x.test`).join(', ')
    const res = await h.call('POST', '/gmail/v1/users/me/messages/send', {
      json: { raw: b64(`To: ${to}\r\nSubject: hi\r\n\r\nx`) },
    })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toMatch(/recipients/)
    expect((await h.call('GET', '/gmail/v1/users/me/profile')).body.messagesTotal).toBe(before)
  })

  test("a resumable upload past the API's maxSize answers 413, announced or sent", async () => {
    const h = harness('demo')
    const open = await h.call('POST', '/upload/gmail/v1/users/me/messages/send?uploadType=resumable', { json: {} })
    const url = new URL(open.headers.get('location')!)
    const path = `${url.pathname}${url.search}`
    const announced = await h.call('PUT', path, {
      body: 'x',
      headers: { 'content-range': `bytes 0-0/${GMAIL_MAX_UPLOAD_BYTES + 1}` },
    })
    expect(announced.status).toBe(413)
    expect(announced.body.error.errors[0].reason).toBe('uploadTooLarge')
  })
})

describe('Gmail labelIds', () => {
  test('1,100 labelIds answer a page, not 500; many labels still match exactly the messages holding all', async () => {
    const h = harness('demo')
    const many = Array.from({ length: 1100 }, (_, i) => `labelIds=Label_${i}`).join('&')
    for (const path of ['messages', 'threads']) {
      const res = await h.call('GET', `/gmail/v1/users/me/${path}?${many}`)
      expect(res.status, path).toBe(200)
      expect(res.body[path]).toBeUndefined()
    }
    const ids: string[] = []
    for (let i = 0; i < 40; i++) {
      const res = await h.call('POST', '/gmail/v1/users/me/labels', { json: { name: `bulk-${i}` } })
      ids.push(res.body.id)
    }
    const raw = Buffer.from('From: a@b.test\r\nSubject: tagged\r\n\r\nhi').toString('base64url')
    const all = await h.call('POST', '/gmail/v1/users/me/messages', { json: { raw, labelIds: ids } })
    await h.call('POST', '/gmail/v1/users/me/messages', { json: { raw, labelIds: ids.slice(1) } })
    const list = async (labels: string[]) =>
      (
        await h.call('GET', `/gmail/v1/users/me/messages?${labels.map((l) => `labelIds=${l}`).join('&')}`)
      ).body.messages?.map((m: { id: string }) => m.id)
    expect(await list(ids)).toEqual([all.body.id])
    expect(await list([...ids, ...ids])).toEqual([all.body.id])
    expect(await list([...ids, 'Label_none'])).toBeUndefined()
    expect(await list(ids.slice(1))).toHaveLength(2)
  })
})

describe("a recipient's filters", () => {
  test('a filter saved with a query search refuses matches nothing; mail to its owner still goes through', async () => {
    const h = harness('demo')
    for (const query of [Array(500).fill('a').join(' '), '('.repeat(5000), 'x'.repeat(20_000)]) {
      const f = await h.call('POST', '/gmail/v1/users/me/settings/filters', {
        token: h.google('alice'),
        json: { criteria: { query }, action: { addLabelIds: ['STARRED'] } },
      })
      expect(f.status).toBe(200)
    }
    const ok = await h.call('POST', '/gmail/v1/users/me/settings/filters', {
      token: h.google('alice'),
      json: { criteria: { query: 'subject:budget' }, action: { addLabelIds: ['IMPORTANT'] } },
    })
    expect(ok.status).toBe(200)
    const raw = b64('From: bob@northwind.test\r\nTo: alice@northwind.test\r\nSubject: budget\r\n\r\nhello')
    const sent = await h.call('POST', '/gmail/v1/users/me/messages/send', { token: h.google('bob'), json: { raw } })
    expect(sent.status).toBe(200)
    const got = await h.call('GET', '/gmail/v1/users/me/messages?q=subject:budget is:important', {
      token: h.google('alice'),
    })
    expect(got.body.messages).toHaveLength(1)
    const msg = await h.call('GET', `/gmail/v1/users/me/messages/${got.body.messages[0].id}?format=minimal`, {
      token: h.google('alice'),
    })
    expect(msg.body.labelIds).not.toContain('STARRED')
  })
})

describe('Drive bounds', () => {
  test('a long or deeply nested q answers 400 Invalid Value on q', async () => {
    const h = harness('demo')
    for (const q of [
      Array(900).fill("name contains 'x'").join(' or '),
      `${'('.repeat(3000)}name = 'a'${')'.repeat(3000)}`,
      `${'not '.repeat(40)}name contains 'a'`,
    ]) {
      const res = await h.call('GET', `/drive/v3/files?q=${encodeURIComponent(q)}`)
      expect(res.status).toBe(400)
      expect(res.body.error.errors[0]).toMatchObject({ reason: 'invalid', location: 'q' })
    }
    const flat = await h.call(
      'GET',
      `/drive/v3/files?q=${encodeURIComponent(Array(40).fill("not name contains 'q'").join(' and '))}`,
    )
    expect(flat.status).toBe(200)
  })

  test('drives.list: a long, many-termed or deeply nested q answers 400 Invalid Value on q', async () => {
    const h = harness('demo')
    const long = [
      `name contains '${'x'.repeat(9000)}'`,
      Array(700).fill("name contains 'x'").join(' or '),
      `${'('.repeat(20_000)}name = 'a'${')'.repeat(20_000)}`,
      `${'not '.repeat(20_000)}name = 'a'`,
    ]
    for (const q of long) {
      const res = await h.call('GET', `/drive/v3/drives?q=${encodeURIComponent(q)}`)
      expect(res.status).toBe(400)
      expect(res.body.error.errors[0]).toMatchObject({ reason: 'invalid', location: 'q' })
    }
    const ok = await h.call(
      'GET',
      `/drive/v3/drives?q=${encodeURIComponent(Array(40).fill("not name contains 'q'").join(' and '))}`,
    )
    expect(ok.status).toBe(200)
  })

  test('a resumable session announcing more than the limit is refused before storing bytes', async () => {
    const h = harness('demo')
    const open = await h.call('POST', '/upload/drive/v3/files?uploadType=resumable', { json: { name: 'big.bin' } })
    const url = new URL(open.headers.get('location')!)
    const res = await h.call('PUT', `${url.pathname}${url.search}`, {
      body: 'abc',
      headers: { 'content-range': `bytes 0-2/${DRIVE_MAX_UPLOAD_BYTES + 1}` },
    })
    expect(res.status).toBe(413)
    expect(res.body.error.errors[0].reason).toBe('uploadTooLarge')
  })
})

describe('Calendar bounds', () => {
  const every = (n: number) => Array.from({ length: n }, (_, i) => i).join(',')
  const bomb = `RRULE:FREQ=DAILY;BYHOUR=${every(24)};BYMINUTE=${every(60)};BYSECOND=${every(60)}`

  test('a BYHOUR×BYMINUTE×BYSECOND series is expanded a bounded slice at a time', () => {
    // 86,400 instances a day: the stream computes them 512 at a time; taking 2,000 stops after a few slices.
    const start = { ms: Date.UTC(2026, 2, 2), timeZone: 'UTC', allDay: false } as never
    const it = iterateRecurrence({
      recurrence: [bomb],
      start,
      durationMs: 1000,
      windowStartMs: Date.UTC(2026, 2, 1),
      windowEndMs: Date.UTC(2126, 2, 1),
    })
    const got: number[] = []
    for (const o of it) {
      got.push(o.originalStartMs)
      if (got.length === 2000) break
    }
    expect(got[1999]! - got[0]!).toBe(1999 * 1000)
  })

  test('two bomb series and a 100-year singleEvents listing answer one page', async () => {
    const h = harness('demo')
    for (const summary of ['a', 'b']) {
      const ev = {
        summary,
        start: { dateTime: '2026-03-02T00:00:00Z', timeZone: 'UTC' },
        end: { dateTime: '2026-03-02T00:00:01Z', timeZone: 'UTC' },
        recurrence: [bomb],
      }
      expect((await h.call('POST', '/calendar/v3/calendars/primary/events', { json: ev })).status).toBe(200)
    }
    const res = await h.call(
      'GET',
      '/calendar/v3/calendars/primary/events?singleEvents=true&orderBy=startTime&timeMin=2026-03-01T00:00:00Z&timeMax=2126-03-01T00:00:00Z&maxResults=2500',
    )
    expect(res.status).toBe(200)
    expect(res.body.items).toHaveLength(2500)
    expect(res.body.nextPageToken).toBeTruthy()
  })
})

describe('JSON bodies', () => {
  const deep = (n: number) => `{"name":"x","a":${'['.repeat(n)}${']'.repeat(n)}}`

  test('nesting past 64 levels answers 400 parseError (Google) and invalid_json (Slack)', async () => {
    const h = harness('demo')
    const g = await h.call('POST', '/gmail/v1/users/me/labels', {
      body: deep(100_000),
      headers: { 'content-type': 'application/json' },
    })
    expect(g.status).toBe(400)
    expect(g.body.error.errors[0].reason).toBe('parseError')
    const s = await h.call('POST', '/api/chat.postMessage', {
      body: `{"channel":"C1","text":"x","metadata":${deep(500)}}`,
      headers: { 'content-type': 'application/json' },
    })
    expect(s.body).toMatchObject({ ok: false, error: 'invalid_json' })
    // Brackets inside strings do not count.
    const fine = await h.call('POST', '/gmail/v1/users/me/labels', { json: { name: `${'['.repeat(200)}` } })
    expect(fine.status).toBe(200)
  })
})

describe('fields and orderBy bounds', () => {
  test('a fields selection nested 5,000 levels answers 400 invalidParameter on every API, not 500', async () => {
    const h = harness('demo')
    const nested = `${'a('.repeat(5000)}b${')'.repeat(5000)}`
    for (const path of [
      '/drive/v3/files',
      '/gmail/v1/users/me/messages',
      '/calendar/v3/calendars/primary/events',
      '/admin/directory/v1/users?customer=my_customer',
    ]) {
      const res = await h.call('GET', `${path}${path.includes('?') ? '&' : '?'}fields=${nested}`)
      expect(res.status, path).toBe(400)
      expect(res.body.error.errors[0]).toMatchObject({ reason: 'invalidParameter', location: 'fields' })
    }
    // The bound is far beyond any schema's depth: a selection of exactly that depth still parses.
    const deepest = `${'a/'.repeat(MAX_FIELDS_DEPTH - 1)}b`
    expect(parseFields(deepest).has('a')).toBe(true)
    expect(() => parseFields(`a/${deepest}`)).toThrow(/Invalid field selection/)
  })

  test('Drive orderBy naming one key 2,100 times orders as the key named once', async () => {
    const h = harness('demo')
    const ids = async (orderBy: string) => {
      const res = await h.call('GET', `/drive/v3/files?pageSize=1000&fields=files(id)&orderBy=${orderBy}`)
      expect(res.status).toBe(200)
      return (res.body.files as { id: string }[]).map((f) => f.id)
    }
    const once = await ids('name desc,createdTime')
    expect(once.length).toBeGreaterThan(3)
    expect(await ids(`name desc,${Array(2100).fill('createdTime,name').join(',')}`)).toEqual(once)
  })
})

describe('Slack search bounds', () => {
  test('search.messages/files/all: a query past 4,000 characters or 100 terms answers invalid_arguments', async () => {
    const h = harness('demo')
    for (const method of ['search.messages', 'search.files', 'search.all']) {
      for (const query of [
        'a'.repeat(4001),
        Array(101).fill('w').join(' '),
        Array(2000).fill('(x) -"y" in:#z').join(' '),
      ]) {
        const res = await h.call('POST', `/api/${method}`, { form: { query } })
        expect(res.body).toMatchObject({ ok: false, error: 'invalid_arguments' })
      }
      const ok = await h.call('POST', `/api/${method}`, { form: { query: Array(100).fill('w').join(' ') } })
      expect(ok.body.ok).toBe(true)
    }
  })
})
