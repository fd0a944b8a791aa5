import { describe, expect, test } from 'vitest'
import { harness, type Harness } from '../../envs/core/testing/harness.ts'
import { statementsDuring } from '../../envs/core/db.ts'
import { Rng } from '../../envs/core/rng.ts'
import { headEnd } from '../../envs/gmail/mime/parse.ts'
import { rewriteHeaders } from '../../envs/gmail/deliver.ts'
import { labelsOf } from '../../envs/gmail/store/messages.ts'
import { searchPage } from '../../envs/gmail/store/search.ts'
import { findUserById } from '../../envs/core/users.ts'
import { gmailSeed, rfc822 } from './fixtures.ts'

const M = '/gmail/v1/users/me/messages'

const latin1 = (v: string) => Buffer.from(v, 'utf8').toString('latin1')

/** rewriteHeaders as it was before it copied the body as bytes (the whole message through a latin1 string). */
function rewriteReference(raw: Buffer, changes: Record<string, string | null>, prepend: Record<string, string> = {}) {
  const text = raw.toString('latin1')
  const m = /\r?\n\r?\n/.exec(text)
  const head = m ? text.slice(0, m.index) : text
  const rest = m ? text.slice(m.index) : '\r\n\r\n'
  const lines: string[] = []
  let skipping = false
  const lower = Object.fromEntries(Object.entries(changes).map(([k, v]) => [k.toLowerCase(), v]))
  const done = new Set<string>()
  for (const line of head.split(/\r?\n/)) {
    if (/^[ \t]/.test(line)) {
      if (!skipping) lines.push(line)
      continue
    }
    const name = line.slice(0, line.indexOf(':')).trim().toLowerCase()
    skipping = false
    if (name in lower) {
      skipping = true
      const value = lower[name]
      if (value !== null && !done.has(name)) lines.push(`${line.slice(0, line.indexOf(':'))}: ${latin1(value!)}`)
      done.add(name)
      continue
    }
    lines.push(line)
  }
  for (const [k, v] of Object.entries(changes))
    if (v !== null && !done.has(k.toLowerCase())) lines.push(`${k}: ${latin1(v)}`)
  const pre = Object.entries(prepend).map(([k, v]) => `${k}: ${v}`)
  return Buffer.from([...pre, ...lines].join('\r\n') + rest, 'latin1')
}

/** Messages whose labels and dates vary, some trashed or spam, a few sharing a second. */
async function mailbox(h: Harness, n: number) {
  const rng = new Rng(11)
  for (let i = 0; i < n; i++) {
    const date = `Mon, ${1 + (i % 20)} Mar 2026 ${String(i % 24).padStart(2, '0')}:00:00 +0000`
    const from = rng.pick(['a@x.test', 'b@y.test'])
    const raw = rfc822({ From: from, To: 'ann@example.com', Subject: `report ${i % 7}`, Date: date }, `item ${i}`)
    const inbox = rng.chance(0.5) ? ['INBOX', 'UNREAD'] : ['INBOX']
    const labelIds = rng.chance(0.1) ? ['TRASH'] : rng.chance(0.05) ? ['SPAM'] : inbox
    const res = await h.call('POST', `${M}?internalDateSource=dateHeader`, { json: { raw, labelIds } })
    expect(res.status, res.text).toBe(200)
  }
}

async function pages(h: Harness, query: string, size: number) {
  const out: { ids: string[]; estimate: number }[] = []
  let token: string | undefined
  do {
    const res = await h.call('GET', `${M}?maxResults=${size}&${query}${token ? `&pageToken=${token}` : ''}`)
    expect(res.status, res.text).toBe(200)
    const ids = ((res.body.messages ?? []) as { id: string }[]).map((m) => m.id)
    out.push({ ids, estimate: res.body.resultSizeEstimate })
    token = res.body.nextPageToken
  } while (token)
  return out
}

describe('gmail.users.messages.list cost paths', () => {
  test('pages read with their estimate give the same ids and estimates as pages counted apart', async () => {
    const h = harness(gmailSeed)
    await mailbox(h, 260)
    const queries = [
      '',
      'q=report',
      'q=subject:report%203',
      'labelIds=INBOX',
      'q=is:unread',
      'includeSpamTrash=true',
      'q=-from:a',
    ]
    for (const query of queries) {
      const small = await pages(h, query, 10) // counted apart (below the merged size)
      const big = await pages(h, query, 60) // read with the estimate
      const huge = await pages(h, query, 250)
      const ids = small.flatMap((p) => p.ids)
      expect(
        big.flatMap((p) => p.ids),
        query,
      ).toEqual(ids)
      expect(
        huge.flatMap((p) => p.ids),
        query,
      ).toEqual(ids)
      // Each page's estimate: the pages before it plus the matches from its start, capped at 201 (exact on the last).
      const expected = (size: number, k: number) => {
        const left = ids.length - k * size
        return left <= size ? ids.length : k * size + Math.min(left, 201)
      }
      big.forEach((p, k) => expect(p.estimate, `${query} page ${k}`).toBe(expected(60, k)))
      small.forEach((p, k) => expect(p.estimate, `${query} page ${k}`).toBe(expected(10, k)))
      huge.forEach((p, k) => expect(p.estimate, `${query} page ${k}`).toBe(expected(250, k)))
    }
  })

  test('binds no LIKE pattern or row count as a bare parameter (SQLite recompiles such a statement per run)', async () => {
    const h = harness(gmailSeed)
    await mailbox(h, 30)
    const db = h.entry.world.db
    const ann = findUserById(db, 'ann')!
    for (const q of ['from:a subject:report', 'to:ann report', 'filename:x list:y cc:z', 'report -from:b']) {
      for (const size of [5, 100]) {
        const { sql } = statementsDuring(db.$client, () => searchPage(db, ann, { q }, size))
        const search = sql.filter((s) => s.includes('gmail_messages m'))
        expect(search.length, q).toBeGreaterThan(0)
        for (const s of search) expect(s, q).not.toMatch(/LIKE \?|LIMIT \?/)
      }
    }
  })
})

describe('gmail header rewrites', () => {
  test('write the bytes the whole-message rewrite wrote, however the header block ends', () => {
    const rng = new Rng(3)
    const pieces = [
      'From: a@b.c',
      'To: x@y.z,\r\n\tw@v.u',
      'Bcc: h@i.j',
      'bcc: k@l.m',
      ' folded',
      'Subject: caf\u00e9',
      'bad',
      'Message-ID: <m1@client.test>',
      'FROM: Someone <s@x.test>',
      'Date: Mon, 9 Mar 2026 10:00:00 +0000',
      'X-Lone: a\rb',
      ':no name',
      '\tfolded by a tab',
    ]
    const ends = ['\r\n\r\n', '\n\n', '\r\n\n', '\n\r\n', '\r\n', '', '\r\r\n\r\n']
    for (let i = 0; i < 2000; i++) {
      const head = Array.from({ length: rng.int(0, 6) }, () => rng.pick([...pieces, ''])).join(rng.pick(['\r\n', '\n']))
      const body = rng.pick(['', 'body\r\n\r\nmore \u00ff', '--b\r\nContent-Type: text/plain\r\n\r\ninner'])
      const raw = Buffer.from(`${head}${rng.pick(ends)}${body}`, rng.pick(['utf8', 'latin1'] as const))
      const options: Record<string, string | null>[] = [
        { Bcc: null },
        { From: 'Zoë <z@x.test>', Date: 'now' },
        {},
        { From: 'ann@example.com', 'Message-ID': '<id@mail.example.com>' },
        { From: 'Ann <ann@example.com>', Date: 'Tue, 10 Mar 2026 15:00:00 +0000', 'Message-ID': '<x@y>' },
        { Bcc: null, BCC: 'kept@x.test', 'X-New': 'v' },
      ]
      const changes = rng.pick(options)
      const prepends: Record<string, string>[] = [{}, { 'Delivered-To': 'ann@example.com' }]
      const prepend = rng.pick(prepends)
      const label = JSON.stringify(raw.toString('latin1'))
      expect(rewriteHeaders(raw, changes, prepend).equals(rewriteReference(raw, changes, prepend)), label).toBe(true)
      expect(headEnd(raw) <= raw.length, label).toBe(true)
    }
  })
})

describe('gmail.users.messages.modify label sets', () => {
  test('answer and record the labels a fresh read gives, through add, remove and re-add', async () => {
    const h = harness(gmailSeed)
    await mailbox(h, 3)
    const db = h.entry.world.db
    const label = await h.call('POST', '/gmail/v1/users/me/labels', { json: { name: 'Keep' } })
    const id = ((await h.call('GET', M)).body.messages as { id: string }[])[0]!.id
    const steps: [string[], string[]][] = [
      [['STARRED', label.body.id, 'STARRED'], ['INBOX']],
      [
        ['INBOX', 'IMPORTANT'],
        ['UNREAD', 'STARRED'],
      ],
      [[], ['INBOX']],
      [['UNREAD'], ['UNREAD']],
      [['INBOX', 'UNREAD'], []],
      [[], [label.body.id, 'IMPORTANT', 'INBOX']],
    ]
    for (const [addLabelIds, removeLabelIds] of steps) {
      const res = await h.call('POST', `${M}/${id}/modify`, { json: { addLabelIds, removeLabelIds } })
      expect(res.status, res.text).toBe(200)
      const stored = labelsOf(db, 'ann', id)
      expect(res.body.labelIds).toEqual(stored)
      const sql = "SELECT message_label_ids FROM gmail_history WHERE user_id = 'ann' ORDER BY id DESC LIMIT 1"
      const last = db.$client.prepare(sql).pluck().get()
      expect(JSON.parse(last as string)).toEqual(stored)
    }
    const json = { ids: [id, id], addLabelIds: ['STARRED'], removeLabelIds: ['INBOX'] }
    const batch = await h.call('POST', `${M}/batchModify`, { json })
    expect(batch.status).toBe(204)
    expect((await h.call('GET', `${M}/${id}?format=minimal`)).body.labelIds).toEqual(labelsOf(db, 'ann', id))
    const unknown = await h.call('POST', `${M}/ffffffff/modify`, { json: { addLabelIds: ['STARRED'] } })
    expect(unknown.status).toBe(404)
  })
})
