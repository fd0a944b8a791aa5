import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { gmailSeed, rfc822 } from './fixtures.ts'

const M = '/gmail/v1/users/me/messages'

describe('gmail.users.messages.list', () => {
  test('lists newest first and hides spam and trash unless asked', async () => {
    const h = harness(gmailSeed)
    const res = await h.call('GET', M)
    const subjects = await Promise.all(
      res.body.messages.map(
        async (m: { id: string }) =>
          (await h.call('GET', `${M}/${m.id}?format=metadata&metadataHeaders=Subject`)).body.payload.headers[0].value,
      ),
    )
    expect(subjects).toEqual(['Team lunch', 'Re: Invoice 1042', 'Invoice 1042'])
    const all = await h.call('GET', `${M}?includeSpamTrash=true`)
    expect(all.body.resultSizeEstimate).toBe(4)
    expect((await h.call('GET', `${M}?q=in:spam`)).body.resultSizeEstimate).toBe(1)
  })

  test('pages with maxResults and pageToken', async () => {
    const h = harness(gmailSeed)
    const first = await h.call('GET', `${M}?maxResults=2`)
    expect(first.body.messages).toHaveLength(2)
    const second = await h.call('GET', `${M}?maxResults=2&pageToken=${first.body.nextPageToken}`)
    expect(second.body.messages).toHaveLength(1)
    expect(second.body.nextPageToken).toBeUndefined()
    expect((await h.call('GET', `${M}?pageToken=garbage!!`)).status).toBe(400)
  })

  test('walks a big mailbox page by page: every message once, newest first, ties broken by id', async () => {
    // 260 messages on 20 distinct dates (13 per date), one in the trash: more than the estimate's cap.
    const messages = Array.from({ length: 260 }, (_, i) => ({
      from: 'ben',
      to: ['ann'],
      subject: `Note ${i}`,
      text: i % 2 ? 'odd note' : 'even note',
      at: `2026-03-0${1 + (i % 5)}T0${i % 4}:00:00Z`,
      labels: i === 7 ? ['TRASH'] : [],
    }))
    const h = harness({ ...gmailSeed, gmail: { messages } })
    const first = await h.call('GET', `${M}?maxResults=50`)
    expect(first.body.resultSizeEstimate).toBe(201)
    const seen: string[] = []
    let token: string | undefined
    let last: Record<string, any> = {}
    do {
      last = (await h.call('GET', `${M}?maxResults=50${token ? `&pageToken=${token}` : ''}`)).body
      seen.push(...last.messages.map((m: { id: string }) => m.id))
      token = last.nextPageToken
    } while (token)
    expect(last.resultSizeEstimate).toBe(259)
    expect(new Set(seen).size).toBe(259)
    const all = await h.call('GET', `${M}?maxResults=500`)
    expect(all.body.messages.map((m: { id: string }) => m.id)).toEqual(seen)
    expect(all.body.resultSizeEstimate).toBe(259)
    const dates = await Promise.all(
      seen.map(async (id) => Number((await h.call('GET', `${M}/${id}?format=minimal`)).body.internalDate)),
    )
    for (let i = 1; i < seen.length; i++) {
      expect(dates[i - 1]! > dates[i]! || (dates[i - 1] === dates[i] && seen[i - 1]! > seen[i]!)).toBe(true)
    }
    const odd = await h.call('GET', `${M}?q=odd&maxResults=200`)
    expect(odd.body.messages).toHaveLength(129)
    expect(odd.body.resultSizeEstimate).toBe(129)
    const forged = Buffer.from(JSON.stringify({ d: 'x', i: 1, n: -1 })).toString('base64url')
    expect((await h.call('GET', `${M}?pageToken=${forged}`)).status).toBe(400)
  })

  test('filters by labelIds and answers an empty mailbox with only resultSizeEstimate', async () => {
    const h = harness(gmailSeed)
    expect((await h.call('GET', `${M}?labelIds=SENT`)).body.messages).toHaveLength(1)
    expect((await h.call('GET', `${M}?q=nothing-matches-this`)).body).toEqual({ resultSizeEstimate: 0 })
  })
})

describe('gmail.users.messages.get', () => {
  test('renders full, metadata, minimal and raw formats', async () => {
    const h = harness(gmailSeed)
    const id = (await h.call('GET', `${M}?q=has:attachment`)).body.messages[0].id
    const full = (await h.call('GET', `${M}/${id}`)).body
    expect(Object.keys(full)).toEqual([
      'id',
      'threadId',
      'labelIds',
      'snippet',
      'payload',
      'sizeEstimate',
      'historyId',
      'internalDate',
    ])
    expect(full.payload.partId).toBe('')
    expect(full.payload.parts.map((p: { partId: string }) => p.partId)).toEqual(['0', '1'])
    expect(full.payload.parts[1]).toMatchObject({ filename: 'invoice-1042.pdf', mimeType: 'application/pdf' })
    expect(full.payload.parts[1].body.attachmentId).toMatch(/^ANGjdJ/)
    const meta = (await h.call('GET', `${M}/${id}?format=metadata&metadataHeaders=From`)).body
    expect(Object.keys(meta.payload)).toEqual(['mimeType', 'headers'])
    expect(meta.payload.headers).toEqual([{ name: 'From', value: 'Priya Raman <priya@acme.test>' }])
    const minimal = (await h.call('GET', `${M}/${id}?format=minimal`)).body
    expect(minimal.payload).toBeUndefined()
    expect(minimal.internalDate).toBe(String(Date.parse('2026-03-02T10:00:00Z')))
    const raw = (await h.call('GET', `${M}/${id}?format=raw`)).body
    const text = Buffer.from(raw.raw, 'base64url').toString('utf8')
    expect(text).toContain('Subject: Invoice 1042')
    expect((await h.call('GET', `${M}/${id}?format=raw`)).body.raw).toBe(raw.raw)
  })

  test('a message read again gives the same bytes, pretty or not, and fields= still selects inside the payload', async () => {
    const h = harness(gmailSeed)
    const ids = (await h.call('GET', M)).body.messages.map((m: { id: string }) => m.id) as string[]
    for (const id of ids) {
      const first = await h.call('GET', `${M}/${id}?format=full`)
      // What JSON.stringify writes for the parsed answer: each line indented as Google's pretty answers are.
      expect(first.text).toBe(JSON.stringify(first.body, null, 2))
      expect((await h.call('GET', `${M}/${id}`)).text).toBe(first.text)
      const compact = await h.call('GET', `${M}/${id}?format=full&prettyPrint=false`)
      expect(compact.text).toBe(JSON.stringify(first.body))
      expect((await h.call('GET', `${M}/${id}?prettyPrint=false`)).text).toBe(compact.text)
      const picked = await h.call('GET', `${M}/${id}?fields=id,payload(mimeType,partId)`)
      expect(picked.body).toEqual({ id, payload: { mimeType: first.body.payload.mimeType, partId: '' } })
    }
    // Other messages' payloads are their own (a kept text is found by message and stored payload).
    const payloads = await Promise.all(ids.map(async (id) => (await h.call('GET', `${M}/${id}`)).body.payload))
    expect(new Set(payloads.map((p) => JSON.stringify(p))).size).toBe(ids.length)
  })

  test('answers 400 for a malformed id and 404 for an unknown one', async () => {
    const h = harness(gmailSeed)
    const bad = await h.call('GET', `${M}/not-an-id`)
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toBe('Invalid id value')
    const missing = await h.call('GET', `${M}/18c0000000000000`)
    expect(missing.status).toBe(404)
    expect(missing.body.error.status).toBe('NOT_FOUND')
  })

  test('escapes HTML in snippets as Gmail does', async () => {
    const h = harness({
      ...gmailSeed,
      gmail: { messages: [{ from: 'ben', to: ['ann'], subject: 's', text: "Tom's <b>bold</b> & co", at: '-1h' }] },
    })
    const id = (await h.call('GET', M)).body.messages[0].id
    expect((await h.call('GET', `${M}/${id}?format=minimal`)).body.snippet).toBe(
      'Tom&#39;s &lt;b&gt;bold&lt;/b&gt; &amp; co',
    )
  })
})

describe('gmail base64url fields', () => {
  const padded = (s: string) => /^[A-Za-z0-9_-]*={0,2}$/.test(s) && s.length % 4 === 0

  test('pads raw, body.data and attachment data with = as Gmail does, and accepts padded or bare input', async () => {
    const h = harness(gmailSeed)
    const mime = [
      'To: ben@example.com',
      'Subject: Pad',
      'Content-Type: multipart/mixed; boundary=zz',
      '',
      '--zz',
      'Content-Type: text/plain',
      '',
      'ab',
      '--zz',
      'Content-Type: application/octet-stream',
      'Content-Disposition: attachment; filename="a.bin"',
      'Content-Transfer-Encoding: base64',
      '',
      'YWJjZA==',
      '--zz--',
      '',
    ].join('\r\n')
    const bare = Buffer.from(mime).toString('base64url')
    expect(bare.length % 4).not.toBe(0)
    const sent = await h.call('POST', `${M}/send`, {
      json: { raw: `${bare}${'='.repeat((4 - (bare.length % 4)) % 4)}` },
    })
    expect(sent.status).toBe(200)
    const raw = (await h.call('GET', `${M}/${sent.body.id}?format=raw`)).body.raw as string
    expect(padded(raw)).toBe(true)
    expect(Buffer.from(raw, 'base64url').toString()).toContain('YWJjZA==\r\n--zz--')
    const full = (await h.call('GET', `${M}/${sent.body.id}`)).body
    expect(full.payload.parts[0].body.data).toBe('YWI=')
    const att = await h.call('GET', `${M}/${sent.body.id}/attachments/${full.payload.parts[1].body.attachmentId}`)
    expect(att.body.data).toBe('YWJjZA==')
    expect((await h.call('POST', `${M}/send`, { json: { raw: bare } })).status).toBe(200)
  })
})

describe('gmail.users.messages.attachments.get', () => {
  test('returns the stored bytes in base64url', async () => {
    const h = harness(gmailSeed)
    const id = (await h.call('GET', `${M}?q=has:attachment`)).body.messages[0].id
    const attId = (await h.call('GET', `${M}/${id}`)).body.payload.parts[1].body.attachmentId
    const att = await h.call('GET', `${M}/${id}/attachments/${attId}`)
    expect(Buffer.from(att.body.data, 'base64url').toString()).toBe('%PDF-1.4 invoice 1042')
    expect(att.body.size).toBe(21)
    expect((await h.call('GET', `${M}/${id}/attachments/ANGjdJnope`)).status).toBe(404)
  })
})

describe('gmail.users.messages.send', () => {
  test('delivers to world users without Bcc, keeps a SENT copy, and records externals as sent only', async () => {
    const h = harness(gmailSeed)
    const raw = rfc822(
      { To: 'Ben Ode <ben@example.com>, client@outside.test', Bcc: 'ben.secret@example.com', Subject: 'Plan' },
      'Here is the plan.',
    )
    const sent = await h.call('POST', `${M}/send`, { json: { raw } })
    expect(sent.status).toBe(200)
    expect(sent.body.labelIds).toEqual(['SENT'])
    const benInbox = await h.call('GET', `${M}?q=subject:plan`, { token: h.google('ben') })
    expect(benInbox.body.messages).toHaveLength(1)
    const copy = await h.call('GET', `${M}/${benInbox.body.messages[0].id}?format=raw`, { token: h.google('ben') })
    const text = Buffer.from(copy.body.raw, 'base64url').toString()
    expect(text).not.toMatch(/^Bcc:/m)
    expect(text).toMatch(/^From: Ann Lee <ann@example.com>/m)
    expect(copy.body.labelIds).toEqual(['UNREAD', 'CATEGORY_PERSONAL', 'INBOX'])
    const mine = await h.call('GET', `${M}/${sent.body.id}?format=raw`)
    expect(Buffer.from(mine.body.raw, 'base64url').toString()).toMatch(/^Bcc: ben.secret@example.com/m)
  })

  test('threads a reply by In-Reply-To and subject', async () => {
    const h = harness(gmailSeed)
    const original = (await h.call('GET', `${M}?q=subject:"team lunch"`)).body.messages[0]
    const msgId = (await h.call('GET', `${M}/${original.id}?format=metadata&metadataHeaders=Message-ID`)).body.payload
      .headers[0].value
    const reply = await h.call('POST', `${M}/send`, {
      json: {
        raw: rfc822(
          { To: 'ben@example.com', Subject: 'Re: Team lunch', 'In-Reply-To': msgId, References: msgId },
          'Yes!',
        ),
      },
    })
    expect(reply.body.threadId).toBe(original.threadId)
    const other = await h.call('POST', `${M}/send`, {
      json: { raw: rfc822({ To: 'ben@example.com', Subject: 'Something else', 'In-Reply-To': msgId }, 'Hm') },
    })
    expect(other.body.threadId).not.toBe(original.threadId)
  })
  test('joins an explicit threadId only when the subject matches', async () => {
    const h = harness(gmailSeed)
    const original = (await h.call('GET', `${M}?q=subject:"team lunch"`)).body.messages[0]
    const same = await h.call('POST', `${M}/send`, {
      json: { raw: rfc822({ To: 'ben@example.com', Subject: 'RE: team lunch' }, 'Yes!'), threadId: original.threadId },
    })
    expect(same.body.threadId).toBe(original.threadId)
    const other = await h.call('POST', `${M}/send`, {
      json: { raw: rfc822({ To: 'ben@example.com', Subject: 'Budget' }, 'Hm'), threadId: original.threadId },
    })
    expect(other.body.threadId).toBe(other.body.id)
  })

  test('rejects a body without raw, and a message without recipients', async () => {
    const h = harness(gmailSeed)
    const none = await h.call('POST', `${M}/send`, { json: {} })
    expect(none.status).toBe(400)
    expect(none.body.error.message).toBe(
      "'raw' RFC822 payload message string or uploading message via /upload/* URL required",
    )
    const noTo = await h.call('POST', `${M}/send`, { json: { raw: rfc822({ Subject: 'x' }, 'y') } })
    expect(noTo.status).toBe(400)
    expect(noTo.body.error.message).toBe('Recipient address required')
  })

  test('accepts media and multipart uploads', async () => {
    const h = harness(gmailSeed)
    const media = await h.call('POST', '/upload/gmail/v1/users/me/messages/send?uploadType=media', {
      body: 'To: ben@example.com\r\nSubject: Upload media\r\n\r\nbody',
      headers: { 'content-type': 'message/rfc822' },
    })
    expect(media.status).toBe(200)
    const multipart = await h.call('POST', '/upload/gmail/v1/users/me/messages/send?uploadType=multipart', {
      body: `--xx\r\nContent-Type: application/json\r\n\r\n{}\r\n--xx\r\nContent-Type: message/rfc822\r\n\r\nTo: ben@example.com\r\nSubject: Upload multipart\r\n\r\nbody\r\n--xx--`,
      headers: { 'content-type': 'multipart/related; boundary=xx' },
    })
    expect(multipart.status).toBe(200)
    const ben = await h.call('GET', `${M}?q=subject:upload`, { token: h.google('ben') })
    expect(ben.body.resultSizeEstimate).toBe(2)
  })
})

describe('gmail.users.messages.insert', () => {
  test('stores a message with the given labels and no delivery', async () => {
    const h = harness(gmailSeed)
    const res = await h.call('POST', M, {
      json: {
        raw: rfc822({ From: 'x@y.test', To: 'ben@example.com', Subject: 'Inserted' }, 'b'),
        labelIds: ['INBOX', 'STARRED'],
      },
    })
    expect(res.body.labelIds).toEqual(['STARRED', 'INBOX'])
    expect((await h.call('GET', `${M}?q=subject:inserted`, { token: h.google('ben') })).body.resultSizeEstimate).toBe(0)
    expect((await h.call('POST', M, { json: { raw: rfc822({ Subject: 'x' }, 'y'), labelIds: ['NOPE'] } })).status).toBe(
      400,
    )
  })
})

describe('gmail.users.messages.import', () => {
  test('imports into the inbox as unread by default', async () => {
    const h = harness(gmailSeed)
    const res = await h.call('POST', `${M}/import`, {
      json: { raw: rfc822({ From: 'old@archive.test', Subject: 'Imported' }, 'b') },
    })
    expect(res.body.labelIds).toEqual(['UNREAD', 'INBOX'])
  })

  test('takes internalDate from the Date header by default (dateHeader), from the clock with receivedTime', async () => {
    const h = harness(gmailSeed)
    const raw = rfc822({ From: 'old@archive.test', Subject: 'Old', Date: 'Tue, 01 Jan 2019 10:00:00 +0000' }, 'b')
    const byDefault = await h.call('POST', `${M}/import`, { json: { raw } })
    const got = await h.call('GET', `${M}/${byDefault.body.id}?format=minimal`)
    expect(got.body.internalDate).toBe(String(Date.parse('2019-01-01T10:00:00Z')))
    const received = await h.call('POST', `${M}/import?internalDateSource=receivedTime`, { json: { raw } })
    const got2 = await h.call('GET', `${M}/${received.body.id}?format=minimal`)
    expect(Number(got2.body.internalDate)).toBeGreaterThan(Date.parse('2026-01-01T00:00:00Z'))
    const inserted = await h.call('POST', M, { json: { raw } })
    const got3 = await h.call('GET', `${M}/${inserted.body.id}?format=minimal`)
    expect(Number(got3.body.internalDate)).toBeGreaterThan(Date.parse('2026-01-01T00:00:00Z'))
  })
})

describe('gmail seeded history', () => {
  test('gives newer seeded messages higher historyIds, whatever the seed order', async () => {
    for (const seed of [gmailSeed, 'demo'] as const) {
      const h = harness(seed)
      const ids = (await h.call('GET', `${M}?includeSpamTrash=true&maxResults=500`)).body.messages.map(
        (m: { id: string }) => m.id,
      )
      const rows = await Promise.all(
        ids.map(async (id: string) => (await h.call('GET', `${M}/${id}?format=minimal`)).body),
      )
      rows.sort((a, b) => Number(a.internalDate) - Number(b.internalDate))
      for (let i = 1; i < rows.length; i++) {
        if (rows[i].internalDate === rows[i - 1].internalDate) continue
        expect(Number(rows[i].historyId)).toBeGreaterThan(Number(rows[i - 1].historyId))
      }
    }
  })
})

describe('gmail.users.messages.modify', () => {
  test('adds and removes labels and rejects unknown labels', async () => {
    const h = harness(gmailSeed)
    const id = (await h.call('GET', `${M}?q=subject:"team lunch"`)).body.messages[0].id
    const res = await h.call('POST', `${M}/${id}/modify`, {
      json: { addLabelIds: ['STARRED'], removeLabelIds: ['INBOX'] },
    })
    expect(res.body.labelIds).toEqual(['STARRED', 'CATEGORY_PERSONAL'])
    expect((await h.call('POST', `${M}/${id}/modify`, { json: { addLabelIds: ['Label_999'] } })).status).toBe(400)
    expect((await h.call('GET', `${M}?q=is:starred`)).body.messages[0].id).toBe(id)
  })
})

describe('gmail.users.messages.batchModify', () => {
  test('changes every listed message or none', async () => {
    const h = harness(gmailSeed)
    const ids = (await h.call('GET', M)).body.messages.map((m: { id: string }) => m.id)
    expect((await h.call('POST', `${M}/batchModify`, { json: { ids, removeLabelIds: ['UNREAD'] } })).status).toBe(204)
    expect((await h.call('GET', `${M}?q=is:unread`)).body.resultSizeEstimate).toBe(0)
    const partial = await h.call('POST', `${M}/batchModify`, {
      json: { ids: [...ids, '18c0000000000000'], addLabelIds: ['STARRED'] },
    })
    expect(partial.status).toBe(404)
    expect((await h.call('GET', `${M}?q=is:starred`)).body.resultSizeEstimate).toBe(0)
  })
})

describe('gmail.users.messages.trash', () => {
  test('moves to trash (dropping INBOX) and untrash restores visibility', async () => {
    const h = harness(gmailSeed)
    const id = (await h.call('GET', `${M}?q=subject:"team lunch"`)).body.messages[0].id
    const trashed = await h.call('POST', `${M}/${id}/trash`)
    expect(trashed.body.labelIds).toContain('TRASH')
    expect(trashed.body.labelIds).not.toContain('INBOX')
    expect((await h.call('GET', `${M}?q=in:trash`)).body.messages.map((m: { id: string }) => m.id)).toEqual([id])
    expect((await h.call('GET', `${M}?q=lunch`)).body.resultSizeEstimate).toBe(0)
    const back = await h.call('POST', `${M}/${id}/untrash`)
    expect(back.body.labelIds).not.toContain('TRASH')
    expect((await h.call('GET', `${M}?q=lunch`)).body.resultSizeEstimate).toBe(1)
  })
})

describe('gmail.users.messages.untrash', () => {
  test('answers 404 for an unknown message', async () => {
    const h = harness(gmailSeed)
    expect((await h.call('POST', `${M}/18c0000000000000/untrash`)).status).toBe(404)
  })
})

describe('gmail.users.messages.delete', () => {
  test('deletes for good and records messageDeleted history', async () => {
    const h = harness(gmailSeed)
    const profile = (await h.call('GET', '/gmail/v1/users/me/profile')).body
    const id = (await h.call('GET', `${M}?q=subject:"team lunch"`)).body.messages[0].id
    expect((await h.call('DELETE', `${M}/${id}`)).status).toBe(204)
    expect((await h.call('GET', `${M}/${id}`)).status).toBe(404)
    const history = (
      await h.call('GET', `/gmail/v1/users/me/history?startHistoryId=${profile.historyId}&historyTypes=messageDeleted`)
    ).body
    expect(history.history[0].messagesDeleted[0].message.id).toBe(id)
  })
})

describe('gmail.users.messages.batchDelete', () => {
  test('deletes all listed messages', async () => {
    const h = harness(gmailSeed)
    const ids = (await h.call('GET', M)).body.messages.map((m: { id: string }) => m.id)
    expect((await h.call('POST', `${M}/batchDelete`, { json: { ids } })).status).toBe(204)
    expect((await h.call('GET', M)).body.resultSizeEstimate).toBe(0)
  })
})

describe('gmail.users.messages.send resumable upload', () => {
  test('opens a session, takes the message in chunks and sends it', async () => {
    const h = harness(gmailSeed)
    const auth = { authorization: `Bearer ${h.google('ann')}` }
    const start = await h.app.request('/upload/gmail/v1/users/me/messages/send?uploadType=resumable', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(start.status).toBe(200)
    const session = start.headers.get('location')!.replace(/^https?:\/\/[^/]+/, '')
    const raw = 'To: ben@example.com\r\nSubject: Resumable\r\n\r\nin two parts'
    const first = await h.app.request(session, {
      method: 'PUT',
      headers: { ...auth, 'content-range': `bytes 0-9/${raw.length}` },
      body: raw.slice(0, 10),
    })
    expect(first.status).toBe(308)
    const done = await h.app.request(session, {
      method: 'PUT',
      headers: { ...auth, 'content-range': `bytes 10-${raw.length - 1}/${raw.length}` },
      body: raw.slice(10),
    })
    expect(((await done.json()) as { labelIds: string[] }).labelIds).toEqual(['SENT'])
    expect((await h.call('GET', `${M}?q=subject:resumable`, { token: h.google('ben') })).body.resultSizeEstimate).toBe(
      1,
    )
    const again = await h.app.request(session, { method: 'PUT', headers: auth, body: raw })
    expect(again.status).toBe(404)
  })

  test('answers an https session URL when a TLS-terminating proxy says X-Forwarded-Proto: https', async () => {
    const h = harness(gmailSeed)
    const start = await h.app.request(
      'http://www.googleapis.com/upload/gmail/v1/users/me/messages/send?uploadType=resumable',
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${h.google('ann')}`,
          'content-type': 'application/json',
          'x-forwarded-proto': 'https',
        },
        body: '{}',
      },
    )
    expect(start.headers.get('location')).toMatch(/^https:\/\/www\.googleapis\.com\/upload\/gmail\/v1\//)
  })

  test('takes chunks by POST with X-GUploader-No-308 (the Go client) and a final bytes */total', async () => {
    const h = harness(gmailSeed)
    const auth = { authorization: `Bearer ${h.google('ann')}` }
    const start = await h.app.request('/upload/gmail/v1/users/me/messages/send?uploadType=resumable', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{}',
    })
    const session = start.headers.get('location')!.replace(/^https?:\/\/[^/]+/, '')
    const raw = 'To: ben@example.com\r\nSubject: Go chunks\r\n\r\nsent by POST'
    const chunk = (range: string, body?: string) =>
      h.app.request(session, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'message/rfc822', 'x-guploader-no-308': 'yes', 'content-range': range },
        body,
      })
    const first = await chunk('bytes 0-9/*', raw.slice(0, 10))
    expect(first.status).toBe(200)
    expect(first.headers.get('x-http-status-code-override')).toBe('308')
    expect(
      (await chunk(`bytes 10-${raw.length - 1}/*`, raw.slice(10))).headers.get('x-http-status-code-override'),
    ).toBe('308')
    const done = await chunk(`bytes */${raw.length}`)
    expect(((await done.json()) as { labelIds: string[] }).labelIds).toEqual(['SENT'])
    expect((await h.call('GET', `${M}?q=subject:chunks`, { token: h.google('ben') })).body.resultSizeEstimate).toBe(1)
  })
})

describe('gmail.users.drafts uploads', () => {
  const D = '/upload/gmail/v1/users/me/drafts'
  const related = (meta: unknown, raw: string) => ({
    body: `--xx\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(meta)}\r\n--xx\r\nContent-Type: message/rfc822\r\n\r\n${raw}\r\n--xx--`,
    headers: { 'content-type': 'multipart/related; boundary=xx' },
  })

  test('creates, updates and sends a draft with multipart uploads whose metadata is a Draft', async () => {
    const h = harness(gmailSeed)
    const thread = (await h.call('GET', `/gmail/v1/users/me/messages?q=subject:invoice`)).body.messages[0].threadId
    const created = await h.call(
      'POST',
      `${D}?uploadType=multipart`,
      related({ message: { threadId: thread } }, 'To: ben@example.com\r\nSubject: Re: Invoice 1042\r\n\r\nfirst'),
    )
    expect(created.status).toBe(200)
    expect(created.body.message.threadId).toBe(thread)
    expect(created.body.message.labelIds).toEqual(['DRAFT'])
    const updated = await h.call('PUT', `${D}/${created.body.id}?uploadType=media`, {
      body: 'To: ben@example.com\r\nSubject: Re: Invoice 1042\r\n\r\nsecond',
      headers: { 'content-type': 'message/rfc822' },
    })
    expect(updated.body.id).toBe(created.body.id)
    const sent = await h.call(
      'POST',
      `${D}/send?uploadType=multipart`,
      related({ id: created.body.id }, 'To: ben@example.com\r\nSubject: Re: Invoice 1042\r\n\r\nthird and final'),
    )
    expect(sent.status).toBe(200)
    expect(sent.body.labelIds).toContain('SENT')
    const got = await h.call('GET', `/gmail/v1/users/me/messages/${sent.body.id}`)
    expect(got.body.snippet).toBe('third and final')
    expect((await h.call('GET', '/gmail/v1/users/me/drafts')).body.drafts ?? []).toEqual([])
  })

  test('creates a draft through a resumable session and refuses a send without a draft id', async () => {
    const h = harness(gmailSeed)
    const auth = { authorization: `Bearer ${h.google('ann')}` }
    const start = await h.app.request(`${D}?uploadType=resumable`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"message":{}}',
    })
    expect(start.status).toBe(200)
    const session = start.headers.get('location')!.replace(/^https?:\/\/[^/]+/, '')
    const raw = 'To: ben@example.com\r\nSubject: Resumable draft\r\n\r\nbody'
    const done = await h.app.request(session, { method: 'PUT', headers: auth, body: raw })
    expect(done.status).toBe(200)
    const draft = (await done.json()) as { id: string; message: { id: string } }
    expect(draft.id).toMatch(/^r\d+$/)
    expect(
      (await h.call('GET', `/gmail/v1/users/me/drafts/${draft.id}`)).body.message.payload.headers.find(
        (x: { name: string }) => x.name === 'Subject',
      ).value,
    ).toBe('Resumable draft')
    const noId = await h.call('POST', `${D}/send?uploadType=media`, {
      body: raw,
      headers: { 'content-type': 'message/rfc822' },
    })
    expect(noId.status).toBe(400)
    expect((await h.call('GET', '/gmail/v1/users/me/drafts')).body.drafts).toHaveLength(1)
  })

  test('updates a draft through a resumable session whose chunks come by POST (the Go client)', async () => {
    const h = harness(gmailSeed)
    const auth = { authorization: `Bearer ${h.google('ann')}` }
    const made = await h.call('POST', '/gmail/v1/users/me/drafts', {
      json: { message: { raw: rfc822({ To: 'ben@example.com', Subject: 'v1' }, 'a') } },
    })
    const start = await h.app.request(`${D}/${made.body.id}?uploadType=resumable`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ id: made.body.id }),
    })
    const session = start.headers.get('location')!.replace(/^https?:\/\/[^/]+/, '')
    const raw = 'To: ben@example.com\r\nSubject: Second version\r\n\r\nbody'
    const chunk = (range: string, body?: string) =>
      h.app.request(session, {
        method: 'POST',
        headers: { ...auth, 'x-guploader-no-308': 'yes', 'content-range': range },
        body,
      })
    expect((await chunk('bytes 0-9/*', raw.slice(0, 10))).headers.get('x-http-status-code-override')).toBe('308')
    const done = await chunk(`bytes 10-${raw.length - 1}/${raw.length}`, raw.slice(10))
    expect(done.status).toBe(200)
    const got = await h.call('GET', `/gmail/v1/users/me/drafts/${made.body.id}?format=metadata`)
    expect(got.body.message.payload.headers.find((x: { name: string }) => x.name === 'Subject').value).toBe(
      'Second version',
    )
  })
})
