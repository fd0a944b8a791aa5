import { describe, expect, test } from 'vitest'
import { parseQuery } from '../../envs/gmail/query/parse.ts'
import { harness } from '../../envs/core/testing/harness.ts'
import { gmailSeed } from './fixtures.ts'

describe('gmail search grammar', () => {
  test.each([
    [
      'a b',
      {
        kind: 'and',
        items: [
          { kind: 'term', op: null, value: 'a', phrase: false },
          { kind: 'term', op: null, value: 'b', phrase: false },
        ],
      },
    ],
    [
      'a OR b',
      {
        kind: 'or',
        items: [
          { kind: 'term', op: null, value: 'a', phrase: false },
          { kind: 'term', op: null, value: 'b', phrase: false },
        ],
      },
    ],
    ['-from:x', { kind: 'not', item: { kind: 'term', op: 'from', value: 'x', phrase: false } }],
    ['subject:"big news"', { kind: 'term', op: 'subject', value: 'big news', phrase: true }],
    [
      '{a b}',
      {
        kind: 'or',
        items: [
          { kind: 'term', op: null, value: 'a', phrase: false },
          { kind: 'term', op: null, value: 'b', phrase: false },
        ],
      },
    ],
    [
      'subject:(x y)',
      {
        kind: 'and',
        items: [
          { kind: 'term', op: 'subject', value: 'x', phrase: false },
          { kind: 'term', op: 'subject', value: 'y', phrase: false },
        ],
      },
    ],
    [
      'meet at 12:30',
      {
        kind: 'and',
        items: [
          { kind: 'term', op: null, value: 'meet', phrase: false },
          { kind: 'term', op: null, value: 'at', phrase: false },
          { kind: 'term', op: null, value: '12:30', phrase: false },
        ],
      },
    ],
  ])('parses %s', (q, ast) => {
    expect(parseQuery(q)).toEqual(ast)
  })

  test('binds OR looser than implicit AND', () => {
    expect(parseQuery('a b OR c')).toMatchObject({ kind: 'or', items: [{ kind: 'and' }, { kind: 'term', value: 'c' }] })
  })

  test('never throws on unbalanced input', () => {
    for (const q of ['(((', ')))', '"unterminated', 'from:', '- -', '{', 'OR OR'])
      expect(() => parseQuery(q)).not.toThrow()
  })
})

describe('gmail.users.messages.list search operators', () => {
  const cases: [string, string[]][] = [
    ['invoice', ['Re: Invoice 1042', 'Invoice 1042']],
    ['from:priya', ['Invoice 1042']],
    ['from:acme.test has:attachment', ['Invoice 1042']],
    ['to:priya@acme.test', ['Re: Invoice 1042']],
    ['subject:(lunch OR invoice) -from:ben', ['Re: Invoice 1042', 'Invoice 1042']],
    ['{lunch invoice} -in:sent', ['Team lunch', 'Invoice 1042']],
    ['label:clients-acme', ['Invoice 1042']],
    ['label:"clients/acme"', ['Invoice 1042']],
    ['filename:pdf', ['Invoice 1042']],
    ['is:read', ['Team lunch', 'Re: Invoice 1042']],
    ['is:unread', ['Invoice 1042']],
    ['in:sent', ['Re: Invoice 1042']],
    ['after:2026/03/03 before:2026/03/10', ['Team lunch', 'Re: Invoice 1042']],
    ['after:2026-03-05', ['Team lunch']],
    [`before:${Date.parse('2026-03-03T00:00:00Z') / 1000}`, ['Invoice 1042']],
    ['newer_than:2d', ['Team lunch']],
    ['older_than:5d', ['Re: Invoice 1042', 'Invoice 1042']],
    ['larger:600', ['Invoice 1042']],
    ['larger:1K', []],
    ['smaller:600', ['Team lunch', 'Re: Invoice 1042']],
    ['"confirm invoice"', ['Invoice 1042']],
    ['category:primary lunch', ['Team lunch']],
    ['in:anywhere password', ['Password expires today']],
    ['password', []],
    ['from:me', ['Re: Invoice 1042']],
    ['-in:trash', ['Team lunch', 'Re: Invoice 1042', 'Invoice 1042']],
    ['-in:spam password', []],
    ['deliveredto:ann@example.com', ['Team lunch', 'Invoice 1042']],
    ['to:"Priya Raman"', ['Re: Invoice 1042']],
    ['to:raman', ['Re: Invoice 1042']],
    ['subject:Invoice-1042', ['Re: Invoice 1042', 'Invoice 1042']],
    ['invoice_1042', ['Re: Invoice 1042', 'Invoice 1042']],
    ['subject:voice', []],
    ['nvoice', []],
    ['subject:"lunch team"', []],
    ['subject:--', ['Team lunch', 'Re: Invoice 1042', 'Invoice 1042']],
  ]
  test.each(cases)('q=%s', async (q, subjects) => {
    const h = harness(gmailSeed)
    const res = await h.call('GET', `/gmail/v1/users/me/messages?q=${encodeURIComponent(q)}`)
    const got: string[] = []
    for (const m of res.body.messages ?? []) {
      got.push(
        (await h.call('GET', `/gmail/v1/users/me/messages/${m.id}?format=metadata&metadataHeaders=Subject`)).body
          .payload.headers[0].value,
      )
    }
    expect(got).toEqual(subjects)
  })
})

// `rfc822msgid:` is the one operator with digits in its name: it must parse as an operator, not as a search word.
describe('gmail rfc822msgid: search', () => {
  test('parses as an operator', () => {
    expect(parseQuery('rfc822msgid:a1@b.test')).toEqual({
      kind: 'term',
      op: 'rfc822msgid',
      value: 'a1@b.test',
      phrase: false,
    })
  })

  test('finds exactly the message with that Message-ID, with or without angle brackets, any case', async () => {
    const h = harness(gmailSeed)
    const all = (await h.call('GET', '/gmail/v1/users/me/messages?includeSpamTrash=true')).body.messages as {
      id: string
    }[]
    for (const { id } of all) {
      const meta = await h.call('GET', `/gmail/v1/users/me/messages/${id}?format=metadata&metadataHeaders=Message-ID`)
      const header = meta.body.payload.headers[0].value as string
      expect(header).toMatch(/^<.+@.+>$/)
      for (const form of [header, header.slice(1, -1), header.slice(1, -1).toUpperCase()]) {
        const q = `rfc822msgid:${form}`
        const res = await h.call('GET', `/gmail/v1/users/me/messages?includeSpamTrash=true&q=${encodeURIComponent(q)}`)
        expect(
          res.body.messages?.map((m: { id: string }) => m.id),
          q,
        ).toEqual([id])
      }
    }
  })
})
