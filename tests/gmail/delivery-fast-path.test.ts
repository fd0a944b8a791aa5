import { describe, expect, test } from 'vitest'
import { Rng } from '../../envs/core/rng.ts'
import { harness } from '../../envs/core/testing/harness.ts'
import { parseCopy, parseMime } from '../../envs/gmail/mime/parse.ts'
import { rewriteHeaders, withDeliveredTo } from '../../envs/gmail/deliver.ts'
import { CopyMemo, findMessage, findMessageView, insertMessage, labelsOf } from '../../envs/gmail/store/messages.ts'
import { toMessage, type Format } from '../../envs/gmail/map.ts'
import { b64, gmailSeed, rfc822 } from './fixtures.ts'
import { delegatedToken } from '../support/delegation.ts'

// Delivery's shortcuts (docs/decisions/0321) against what they replace: a copy's parse, stored columns and answers
// must be what a fresh parse and read give, so responses and world bytes stay the same.

const pick = <T>(rng: Rng, xs: readonly T[]) => xs[rng.int(0, xs.length - 1)]!

/** A random message: top-level headers (Bcc folded or not, content headers or not), LF or CRLF, maybe multipart. */
function randomMessage(rng: Rng): string {
  const eol = rng.chance(0.8) ? '\r\n' : '\n'
  const from = pick(rng, ['ann@example.com', 'Ann Lee <ann@example.com>', '"Lee, Ann" <ann@example.com>'])
  const to = pick(rng, ['ben@example.com', 'ben@example.com, cy@example.org', 'Ben <ben@example.com>'])
  const headers = [`From: ${from}`, `To: ${to}`]
  if (rng.chance(0.5)) headers.push(`Bcc: cy@example.org${rng.chance(0.3) ? `,${eol} dee@example.org` : ''}`)
  if (rng.chance(0.3)) headers.push(`Cc: ${pick(rng, ['dee@example.org', 'Zoë <zoe@example.org>'])}`)
  headers.push(`Subject: ${pick(rng, ['Invoice 1042', '=?UTF-8?B?w6lsw6h2ZQ==?=', 'Re: lunch', ''])}`)
  if (rng.chance(0.2)) headers.push(`bcc: second@example.org`)
  const multipart = rng.chance(0.4)
  if (multipart) headers.push('MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="BB"')
  else if (rng.chance(0.6)) headers.push(`Content-Type: ${pick(rng, ['text/plain; charset=UTF-8', 'text/html', 'x'])}`)
  const encoding = pick(rng, ['base64', 'quoted-printable'])
  if (!multipart && rng.chance(0.3)) headers.push(`Content-Transfer-Encoding: ${encoding}`)
  if (!multipart && rng.chance(0.1)) headers.push('Content-Disposition: attachment; filename="a.txt"')
  const text = pick(rng, ['Hello there.', 'Caf=E9 =3D soft=\r\nbreak', 'aGVsbG8gd29ybGQ=', '<p>Hi &amp; bye</p>', ''])
  const pdf = `Content-Type: application/pdf; name="x.pdf"${eol}Content-Transfer-Encoding: base64`
  const body = multipart
    ? `--BB${eol}Content-Type: text/plain${eol}${eol}${text}${eol}--BB${eol}${pdf}${eol}${eol}JVBERi0xLjQ=${eol}` +
      `--BB--${eol}`
    : text
  const blank = rng.chance(0.9) ? `${eol}${eol}` : eol
  return `${headers.join(eol)}${blank}${body}`
}

/** The copies delivery and forwarding make of a message, and two that change its body or content headers. */
const copiesOf = (raw: Buffer) => [
  withDeliveredTo(raw, 'ben@example.com'),
  withDeliveredTo(rewriteHeaders(raw, { Bcc: null }), 'cy@example.org'),
  rewriteHeaders(raw, { 'Delivered-To': null, 'X-Forwarded-To': 'd@x.test', 'X-Forwarded-For': 'a@x.test d@x.test' }),
  rewriteHeaders(raw, { 'Content-Type': 'text/html' }),
  Buffer.concat([raw, Buffer.from('\r\nmore', 'latin1')]),
]

describe('gmail delivery fast paths', () => {
  test("parseCopy gives parseMime's tree for every copy it accepts, and accepts delivery copies", () => {
    const rng = new Rng(321)
    const reused = [0, 0, 0, 0, 0]
    for (let i = 0; i < 1500; i++) {
      const raw = Buffer.from(randomMessage(rng), 'latin1')
      const known = { raw, root: parseMime(raw) }
      copiesOf(raw).forEach((copy, k) => {
        const fast = parseCopy(copy, known)
        if (fast) reused[k]!++
        expect(fast ?? parseMime(copy), JSON.stringify(copy.toString('latin1'))).toEqual(parseMime(copy))
      })
    }
    // Delivery's copies are read from the known tree (not when a rewrite adds a blank line the message lacked); a
    // changed body or Content-Type mostly is not.
    expect(Math.min(...reused.slice(0, 3))).toBeGreaterThan(1400)
    expect(reused[3]).toBeLessThan(1000)
    expect(reused[4]).toBeLessThan(300)
  })

  test('storing copies with a shared CopyMemo writes the bytes storing each on its own writes', () => {
    const [shared, alone] = [harness(gmailSeed), harness(gmailSeed)]
    const rng = new Rng(3210)
    for (let i = 0; i < 150; i++) {
      const raw = Buffer.from(randomMessage(rng), 'latin1')
      const [copyBen, copyAnn, forwarded] = copiesOf(raw)
      const copies: [string, Buffer][] = [
        ['ann', raw],
        ['ben', copyBen!],
        ['ann', copyAnn!],
        ['ben', forwarded!],
      ]
      const memo = new CopyMemo()
      for (const [h, opts] of [
        [shared, { memo }],
        [alone, {}],
      ] as const) {
        h.entry.world.tx((db) => {
          for (const [user, bytes] of copies) insertMessage(db, user, { raw: bytes, labelIds: ['INBOX'] }, opts)
        })
      }
    }
    const bytes = (h: typeof shared) => h.entry.world.db.$client.serialize()
    expect(bytes(shared).equals(bytes(alone))).toBe(true)
  })

  test('a memo kept across messages writes the bytes storing each message on its own writes', () => {
    // Seeds store hundreds of messages, most with a body an earlier one had (acrossMessages): a message is read as
    // a copy of the one with its body bytes, and search words are joined from each part's words.
    const [shared, alone] = [harness(gmailSeed), harness(gmailSeed)]
    const rng = new Rng(6543)
    const memo = new CopyMemo({ acrossMessages: true })
    const bodies = [
      'Hello there.',
      'Straße gesperrt, Zoë fährt.',
      'ΟΔΟΣ\nΣ',
      'ﬁle ① two',
      '',
      'Caf=E9 =3D soft=\r\nbreak',
    ]
    let reused = 0
    for (let i = 0; i < 300; i++) {
      const subject = pick(rng, ['Invoice 1042', 'Ünïcode ΣΑΣ', 'Re: lunch', '', 'ΟΔΟΣ', 'x'])
      const text = pick(rng, bodies)
      // Mostly the content headers a body was first stored with (as a seed builds them), sometimes others.
      const types = [
        '',
        'Content-Type: text/plain; charset=UTF-8\r\n',
        'Content-Type: text/html\r\n',
        'Content-Transfer-Encoding: quoted-printable\r\n',
      ]
      const type = rng.chance(0.8) ? types[bodies.indexOf(text) % types.length] : pick(rng, types)
      const raw = rng.chance(0.2)
        ? Buffer.from(randomMessage(rng), 'latin1')
        : Buffer.from(
            `From: ann@example.com\r\nTo: ben@example.com\r\nSubject: ${subject}\r\n${type}\r\n${text}`,
            'utf8',
          )
      const copies: [string, Buffer][] = [
        ['ann', raw],
        ['ben', withDeliveredTo(raw, 'ben@example.com')],
      ]
      for (const [h, opts] of [
        [shared, { memo }],
        [alone, {}],
      ] as const) {
        h.entry.world.tx((db) => {
          for (const [user, bytes] of copies) insertMessage(db, user, { raw: bytes, labelIds: ['INBOX'] }, opts)
        })
      }
      // Not parsed: read as a copy of an earlier message (the last one, or the one with its body).
      if (memo.last!.raw !== raw) reused++
    }
    expect(reused).toBeGreaterThan(120)
    const bytes = (h: typeof shared) => h.entry.world.db.$client.serialize()
    expect(bytes(shared).equals(bytes(alone))).toBe(true)
  })

  test('a message is rendered from the columns findMessageView reads as from the whole row', async () => {
    const h = harness(gmailSeed)
    const raw = rfc822({ From: 'ann@example.com', To: 'ben@example.com, x@y.test', Subject: 'Files' }, 'see attached')
    await h.call('POST', '/gmail/v1/users/me/messages/send', { token: h.google('ann'), json: { raw } })
    const db = h.entry.world.db
    const ids = db.$client.prepare('SELECT user_id, id FROM gmail_messages').raw().all() as [string, string][]
    expect(ids.length).toBeGreaterThan(5)
    for (const [user, id] of ids) {
      for (const format of ['full', 'raw', 'minimal', 'metadata'] as Format[]) {
        const view = findMessageView(db, user, id, format === 'raw')!
        const row = findMessage(db, user, id)!
        const labels = labelsOf(db, user, id)
        expect(toMessage(view, labels, format, ['Subject'])).toEqual(toMessage(row, labels, format, ['Subject']))
      }
    }
  })
})

describe('gmail.users.messages.insert', () => {
  test('answers the label ids a read of the stored message gives', async () => {
    const h = harness(gmailSeed)
    const cases: [string, string[] | undefined][] = [
      ['', ['INBOX', 'STARRED', 'UNREAD', 'INBOX']],
      ['?deleted=true', ['INBOX', 'UNREAD']],
      ['', []],
      ['/import', undefined],
      ['/import?deleted=true', undefined],
      ['', ['IMPORTANT', 'TRASH', 'STARRED']],
    ]
    for (const [suffix, labelIds] of cases) {
      const raw = b64(`From: x@y.test\r\nTo: ann@example.com\r\nSubject: s\r\n\r\nbody`)
      const res = await h.call('POST', `/gmail/v1/users/me/messages${suffix}`, { json: { raw, labelIds } })
      expect(res.status, res.text).toBe(200)
      const read = await h.call('GET', `/gmail/v1/users/me/messages/${res.body.id}?format=minimal`)
      expect(res.body.labelIds, suffix).toEqual(read.body.labelIds)
    }
  })
})

describe('gmail.users.messages.send', () => {
  test('keeps a From naming the account or an alias and replaces any other', async () => {
    const h = harness(gmailSeed)
    const alias = { sendAsEmail: 'sales@example.com', displayName: 'Sales' }
    const token = delegatedToken(h, 'ann')
    expect((await h.call('POST', '/gmail/v1/users/me/settings/sendAs', { token, json: alias })).status).toBe(200)
    const cases = [
      ['ANN@Example.com', 'ANN@Example.com'],
      ['Sales <sales@example.com>', 'Sales <sales@example.com>'],
      ['other@example.com', 'Ann Lee <ann@example.com>'],
      ['', 'Ann Lee <ann@example.com>'],
    ]
    for (const [from, kept] of cases) {
      const headers: Record<string, string> = { To: 'x@y.test', Subject: `from ${from}` }
      if (from) headers.From = from
      const res = await h.call('POST', '/gmail/v1/users/me/messages/send', { json: { raw: rfc822(headers, 'hi') } })
      expect(res.status, res.text).toBe(200)
      const got = await h.call('GET', `/gmail/v1/users/me/messages/${res.body.id}?format=metadata&metadataHeaders=From`)
      expect(got.body.payload.headers, from).toEqual([{ name: 'From', value: kept }])
    }
  })
})
