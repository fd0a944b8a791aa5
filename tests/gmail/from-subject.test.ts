import { describe, expect, test } from 'vitest'
import { harness, type Harness } from '../../envs/core/testing/harness.ts'
import { statementsDuring } from '../../envs/core/db.ts'
import { findUserById } from '../../envs/core/users.ts'
import { Rng } from '../../envs/core/rng.ts'
import { searchPage } from '../../envs/gmail/store/search.ts'
import { parseMime, parseTopHeaders } from '../../envs/gmail/mime/parse.ts'
import { gmailSeed, rfc822 } from './fixtures.ts'

const M = '/gmail/v1/users/me/messages'
const FROM = [
  'Alice <alice@example.com>',
  'bob@example.com',
  '"Carol Q" <carol@example.com>',
  'ALICE@EXAMPLE.COM',
  'Zoë <zoe@exämple.test>',
]
const SUBJECTS = ['Quarterly report', 'status 3', 'Re: report', 'REPORT final', 'élé report', 'reports', 'misc']

/** Messages from a few senders and subjects, some trashed or spam, all at the same second now and then. */
async function mailbox(h: Harness) {
  const rng = new Rng(5)
  for (let i = 0; i < 60; i++) {
    const subject = `${rng.pick(SUBJECTS)} ${i % 4}`
    const date = `Mon, ${1 + (i % 9)} Mar 2026 10:00:00 +0000`
    const raw = rfc822({ From: rng.pick(FROM), To: 'ann@example.com', Subject: subject, Date: date }, `item ${i}`)
    const labelIds = rng.chance(0.15) ? ['TRASH'] : rng.chance(0.1) ? ['SPAM'] : ['INBOX']
    const res = await h.call('POST', `${M}?internalDateSource=dateHeader`, { json: { raw, labelIds } })
    expect(res.status, res.text).toBe(200)
  }
}

/** Subjects and senders of a search's matches, walked two at a time. */
async function walk(h: Harness, q: string) {
  const ids: string[] = []
  let token: string | undefined
  do {
    const res = await h.call('GET', `${M}?maxResults=2&q=${encodeURIComponent(q)}${token ? `&pageToken=${token}` : ''}`)
    expect(res.status, res.text).toBe(200)
    ids.push(...((res.body.messages ?? []) as { id: string }[]).map((m) => m.id))
    token = res.body.nextPageToken
  } while (token)
  return ids
}

describe('gmail.users.messages.list from: and subject:', () => {
  test('matches sender and subject words, case-insensitively, newest first, page by page', async () => {
    const h = harness(gmailSeed)
    await mailbox(h)
    const all = await walk(h, 'in:anywhere')
    const heads = new Map<string, { from: string; subject: string; labels: string[] }>()
    for (const id of all) {
      const m = (await h.call('GET', `${M}/${id}?format=metadata`)).body
      const headers = m.payload.headers as { name: string; value: string }[]
      const header = (n: string) => (headers.find((x) => x.name === n)?.value ?? '').toLowerCase()
      heads.set(id, { from: header('From'), subject: header('Subject'), labels: m.labelIds })
    }
    const visible = (id: string) => !heads.get(id)!.labels.some((l) => l === 'TRASH' || l === 'SPAM')
    const word = (s: string, w: string) => s.split(/[^\p{L}\p{N}]+/u).includes(w)
    const cases: [string, (x: { from: string; subject: string }) => boolean][] = [
      [
        'from:alice@example.com subject:report',
        (x) => x.from.includes('alice@example.com') && word(x.subject, 'report'),
      ],
      ['from:ALICE subject:REPORT', (x) => x.from.includes('alice') && word(x.subject, 'report')],
      ['from:carol', (x) => x.from.includes('carol')],
      ['subject:report -from:bob', (x) => word(x.subject, 'report') && !x.from.includes('bob')],
      ['subject:élé', (x) => word(x.subject, 'élé')],
      ['from:exämple', (x) => x.from.includes('exämple')],
      ['from:alice OR subject:status', (x) => x.from.includes('alice') || word(x.subject, 'status')],
    ]
    for (const [q, wanted] of cases) {
      const expected = all.filter((id) => visible(id) && wanted(heads.get(id)!))
      expect(expected.length, q).toBeGreaterThan(0)
      expect(await walk(h, q), q).toEqual(expected)
    }
  })

  test('judges from: and subject: on the date index alone, reading no message rows', () => {
    const h = harness(gmailSeed)
    const db = h.entry.world.db
    const ann = findUserById(db, 'ann')!
    const seen = statementsDuring(db.$client, () => searchPage(db, ann, { q: 'from:priya subject:invoice' }, 10))
    const sql = seen.sql.find((s) => s.includes('FROM gmail_messages m'))!
    const explain = db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    const plan = explain.all('ann', '%priya%', '% invoice %') as { detail: string }[]
    expect(plan[0]!.detail).toBe('SEARCH m USING COVERING INDEX gmail_messages_by_date_from_subject (user_id=?)')
  })
})

/** Inserts one message per From/To pair (subject `n<k>`); returns the subjects a search finds, newest first. */
async function addressed(h: Harness, pairs: [from: string, to: string][]) {
  for (const [k, [from, to]] of pairs.entries()) {
    const date = `Mon, ${1 + k} Mar 2026 10:00:00 +0000`
    const raw = rfc822({ From: from, To: to, Subject: `n${k}`, Date: date }, 'hi')
    const res = await h.call('POST', `${M}?internalDateSource=dateHeader`, { json: { raw, labelIds: ['INBOX'] } })
    expect(res.status, res.text).toBe(200)
  }
  return async (q: string) => {
    const res = await h.call('GET', `${M}?q=${encodeURIComponent(q)}`)
    expect(res.status, res.text).toBe(200)
    const ids = ((res.body.messages ?? []) as { id: string }[]).map((m) => m.id)
    const subjects: string[] = []
    for (const id of ids) {
      const m = (await h.call('GET', `${M}/${id}?format=metadata&metadataHeaders=Subject`)).body
      subjects.push(m.payload.headers[0].value)
    }
    return subjects
  }
}

describe('gmail.users.messages.list from: and to: with a whole address', () => {
  const NO_MAIL = { ...gmailSeed, gmail: {} }
  const PAIRS: [string, string][] = [
    ['Alice <alice@example.com>', 'bob@example.com'],
    ['malice@example.com', 'Bob B <mbob@example.com>'],
    ['ALICE@EXAMPLE.COM', 'bob@example.com.evil.test'],
    ['alice@example.com.evil.test', 'x@y.test, "Bob" <BOB@example.com>'],
    ['"alice@example.com" <other@z.test>', 'ann@example.com'],
    ['Alice Jones <alice.jones@example.com>', 'ann@example.com'],
  ]

  test('match that address only, in any case, not a longer address that contains it', async () => {
    const search = await addressed(harness(NO_MAIL), PAIRS)
    expect(await search('from:alice@example.com')).toEqual(['n2', 'n0'])
    expect(await search('from:Alice@Example.COM')).toEqual(['n2', 'n0'])
    expect(await search('to:bob@example.com')).toEqual(['n3', 'n0'])
    expect(await search('to:ann@example.com')).toEqual(['n5', 'n4'])
    expect(await search('to:me')).toEqual(['n5', 'n4'])
    expect(await search('-from:alice@example.com to:ann@example.com')).toEqual(['n5', 'n4'])
    expect(await search('from:alice@example.com OR to:mbob@example.com')).toEqual(['n2', 'n1', 'n0'])
  })

  test('a name or part of an address still matches anywhere in the header', async () => {
    const search = await addressed(harness(NO_MAIL), PAIRS)
    expect(await search('from:alice')).toEqual(['n5', 'n4', 'n3', 'n2', 'n1', 'n0'])
    expect(await search('from:example.com')).toEqual(['n5', 'n4', 'n3', 'n2', 'n1', 'n0'])
    expect(await search('from:jones')).toEqual(['n5'])
    expect(await search('to:bob')).toEqual(['n3', 'n2', 'n1', 'n0'])
  })

  test("walks one sender's entries of the from index, reading no message rows", () => {
    const h = harness(gmailSeed)
    const db = h.entry.world.db
    const ann = findUserById(db, 'ann')!
    const cases: [string, string[]][] = [
      ['from:priya@acme.test subject:invoice', ['ann', 'priya@acme.test', '% invoice %']],
      ['from:me', ['ann', 'ann@example.com']],
    ]
    for (const [q, params] of cases) {
      const seen = statementsDuring(db.$client, () => searchPage(db, ann, { q }, 10))
      const sql = seen.sql.find((s) => s.includes('FROM gmail_messages m'))!
      const plan = db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]
      expect(plan[0]!.detail, q).toBe(
        'SEARCH m USING COVERING INDEX gmail_messages_by_from (user_id=? AND from_email=?)',
      )
    }
  })

  test('judges a whole address under OR on the date index alone', () => {
    const h = harness(gmailSeed)
    const db = h.entry.world.db
    const ann = findUserById(db, 'ann')!
    const q = 'from:priya@acme.test OR subject:invoice'
    const seen = statementsDuring(db.$client, () => searchPage(db, ann, { q }, 10))
    const sql = seen.sql.find((s) => s.includes('FROM gmail_messages m'))!
    const plan = db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('ann', 'priya@acme.test', '% invoice %') as {
      detail: string
    }[]
    expect(plan[0]!.detail).toBe('SEARCH m USING COVERING INDEX gmail_messages_by_date_from_subject (user_id=?)')
  })
})

describe('gmail top-level headers', () => {
  test('are the headers parseMime gives the whole message, however the header block ends', () => {
    const rng = new Rng(9)
    const pieces = [
      'From: a@b.c',
      'To: x@y.z,\r\n\tw@v.u',
      'Subject: =?UTF-8?B?w6lsw6k=?= hi',
      'X: caf\u00e9',
      ' folded',
      'bad line',
      '',
    ]
    const ends = ['\r\n\r\n', '\n\n', '\r\n\n', '\n\r\n', '\r\n', '', '\r\r\n\r\n']
    for (let i = 0; i < 400; i++) {
      const head = Array.from({ length: rng.int(0, 5) }, () => rng.pick(pieces)).join(rng.pick(['\r\n', '\n']))
      const body = rng.pick(['', 'body\r\n\r\nmore', 'Content-Type: text/plain\r\n\r\ninner'])
      const raw = Buffer.from(`${head}${rng.pick(ends)}${body}`, rng.pick(['utf8', 'latin1'] as const))
      expect(parseTopHeaders(raw), JSON.stringify(raw.toString('latin1'))).toEqual(parseMime(raw).headers)
    }
  })

  test('decide who messages.send delivers to: a To inside a body part reaches nobody', async () => {
    const h = harness(gmailSeed)
    const raw = Buffer.from(
      'To: ben@example.com\r\nSubject: outer\r\n' +
        'Content-Type: multipart/mixed; boundary=b\r\n\r\n' +
        '--b\r\nTo: ann@example.com\r\nContent-Type: message/rfc822\r\n\r\nTo: ann@example.com\r\n\r\nhi\r\n--b--\r\n',
    ).toString('base64url')
    const sent = await h.call('POST', `${M}/send`, { json: { raw } })
    expect(sent.status, sent.text).toBe(200)
    expect(sent.body.labelIds).toEqual(['SENT'])
    const inbox = async (user: string) =>
      ((await h.call('GET', `${M}?q=subject:outer`, { token: h.google(user) })).body.messages ?? []).length
    expect(await inbox('ben')).toBe(1)
    expect(await inbox('ann')).toBe(1) // her SENT copy only
    const got = await h.call('GET', `${M}/${sent.body.id}?format=metadata&metadataHeaders=From`)
    expect(got.body.payload.headers).toEqual([{ name: 'From', value: 'Ann Lee <ann@example.com>' }])
  })
})
