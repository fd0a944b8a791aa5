import { describe, expect, test } from 'vitest'
import { addressParser, decodeWords } from 'postal-mime'
import { Rng } from '../../envs/core/rng.ts'
import { harness } from '../../envs/core/testing/harness.ts'
import { bodyText, parseMime, parseParams, partText, type MimePart } from '../../envs/gmail/mime/parse.ts'
import { addressSearchText, parseAddressList, simpleMailboxes } from '../../envs/gmail/mime/address.ts'
import { wordsOf } from '../../envs/gmail/query/words.ts'
import { wrap76 } from '../../envs/gmail/mime/build.ts'
import { findMessage, snippetOf } from '../../envs/gmail/store/messages.ts'
import { gmailSeed } from './fixtures.ts'
import { referenceQp } from './reference-qp.ts'

// The message store's faster paths (docs/decisions/0318) against the code they replaced, kept here as references:
// each must give the same values for the same input, so stored rows stay byte-identical.

function referenceWordsOf(text: string): string {
  const words = text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
  return words.length ? ` ${words.join(' ')} ` : ' '
}

function referenceSnippetOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim().slice(0, 200)
  return flat
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

function referenceParseParams(value: string): { value: string; params: Record<string, string> } {
  const [head = '', ...rest] = value.split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/)
  const params: Record<string, string> = {}
  for (const piece of rest) {
    const eq = piece.indexOf('=')
    if (eq < 0) continue
    let key = piece.slice(0, eq).trim().toLowerCase()
    let val = piece
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/s, '$1')
    if (key.endsWith('*')) {
      key = key.slice(0, -1)
      const m = /^([^']*)'[^']*'(.*)$/.exec(val)
      try {
        val = decodeURIComponent(m ? m[2]! : val)
      } catch {
        // keep as is
      }
    }
    params[key] = val
  }
  return { value: head.trim().toLowerCase(), params }
}

const header = (headers: MimePart['headers'], name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value

function referenceParseMime(raw: Buffer, depth = 0): MimePart {
  const text = raw.toString('latin1')
  const m = /\r?\n\r?\n/.exec(text)
  const [head, body] = m ? [text.slice(0, m.index), raw.subarray(m.index + m[0].length)] : [text, Buffer.alloc(0)]
  const lines: { name: string; value: string }[] = []
  for (const line of head.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && lines.length > 0) {
      lines[lines.length - 1]!.value += ` ${line.trim()}`
      continue
    }
    const i = line.indexOf(':')
    if (i <= 0) continue
    lines.push({ name: line.slice(0, i).trim(), value: line.slice(i + 1).trim() })
  }
  const headers = lines.map((h) => {
    const utf8 = Buffer.from(h.value, 'latin1').toString('utf8')
    let value = utf8
    try {
      value = decodeWords(utf8)
    } catch {
      // keep as is
    }
    return { name: h.name, value }
  })
  const ct = referenceParseParams(header(headers, 'content-type') ?? 'text/plain; charset=us-ascii')
  const disposition = referenceParseParams(header(headers, 'content-disposition') ?? '')
  const filename = disposition.params.filename ?? ct.params.name ?? ''
  const mimeType = /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(ct.value) ? ct.value : 'text/plain'
  const base = {
    headers,
    mimeType,
    filename,
    isAttachment: disposition.value === 'attachment' || filename !== '',
    charset: (ct.params.charset ?? 'utf-8').toLowerCase(),
  }
  const boundary = ct.params.boundary
  if (mimeType.startsWith('multipart/') && boundary && depth < 20) {
    const parts = referenceSplit(body, boundary).map((p) => referenceParseMime(p, depth + 1))
    return { ...base, isAttachment: false, body: null, parts }
  }
  const encoding = (header(headers, 'content-transfer-encoding') ?? '7bit').toLowerCase()
  const decoded =
    encoding === 'base64'
      ? Buffer.from(body.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? referenceQp(body)
        : body
  return { ...base, body: decoded, parts: [] }
}

function referenceSplit(body: Buffer, boundary: string): Buffer[] {
  const text = body.toString('latin1')
  const delimiter = `--${boundary}`
  const parts: Buffer[] = []
  let pos = text.indexOf(delimiter)
  while (pos >= 0) {
    const lineEnd = text.indexOf('\n', pos)
    if (text.startsWith(`${delimiter}--`, pos) || lineEnd < 0) break
    const next = text.indexOf(`\n${delimiter}`, lineEnd)
    const end = next < 0 ? text.length : next
    parts.push(Buffer.from(text.slice(lineEnd + 1, end).replace(/\r$/, ''), 'latin1'))
    if (next < 0) break
    pos = next + 1
  }
  return parts
}

/** Postal-mime's mailboxes of a list, as mailboxesOf read them before simple lists skipped the parser. */
function referenceMailboxes(value: string): { name: string; address: string }[] {
  const out: { name: string; address: string }[] = []
  const visit = (items: ReturnType<typeof addressParser>) => {
    for (const item of items) {
      if ('group' in item && Array.isArray(item.group)) visit(item.group as ReturnType<typeof addressParser>)
      else if ('address' in item && item.address && /@/.test(item.address)) {
        out.push({ name: item.name ?? '', address: item.address })
      }
    }
  }
  visit(addressParser(value))
  return out
}

function referencePartText(part: MimePart): string {
  if (!part.body) return ''
  try {
    return new TextDecoder(part.charset === 'us-ascii' ? 'utf-8' : part.charset).decode(part.body)
  } catch {
    return part.body.toString('utf8')
  }
}

const utf8AsLatin1 = (s: string) => Buffer.from(s, 'utf8').toString('latin1')

/** Random text over characters the fast paths treat specially (ASCII, whitespace, quotes, non-ASCII, `=?`). */
function randomText(rng: Rng, max: number): string {
  const atoms = [
    'a',
    'Z',
    '7',
    ' ',
    '  ',
    '\t',
    '\r\n',
    '\n',
    '-',
    '_',
    '.',
    ',',
    ';',
    '"',
    "'",
    '=',
    '?',
    '=?',
    '&',
    '<',
    '>',
    'é',
    'Ä',
    '日本',
    'ﬁ',
    '２',
    '\u00a0',
    '\u2028',
    '\ufeff',
    '😀',
    'x@y.z',
    '\u0000',
    'Straße',
  ]
  let out = ''
  for (let n = rng.int(0, max); n > 0; n--) out += rng.pick(atoms)
  return out
}

function randomParams(rng: Rng): string {
  const pieces = [rng.pick(['text/plain', 'Multipart/Mixed', 'TEXT/HTML', 'application/pdf', 'bogus', ''])]
  for (let n = rng.int(0, 4); n > 0; n--) {
    const key = rng.pick(['charset', 'Name', 'name*', 'filename', 'boundary', 'format', 'x'])
    const value = rng.pick([
      'utf-8',
      '"UTF-8"',
      '"a;b.txt"',
      "UTF-8''r%C3%A9sum%C3%A9.pdf",
      '"un"closed',
      'x"y',
      '"q;"',
      '%E0%A4%A',
      '',
      '"weird \\" quote"',
    ])
    pieces.push(rng.chance(0.8) ? `${key}=${value}` : key)
  }
  return pieces.join(rng.pick([';', '; ', ' ;  ']))
}

const ENCODED = [
  `=?UTF-8?B?${Buffer.from('Überweisung 請求書').toString('base64')}?=`,
  '=?ISO-8859-1?Q?Andr=E9?=',
  '=?utf-8?q?caf=C3=A9?= =?utf-8?q?_au_lait?=',
  '=?bogus?B?????=',
  'a=?b',
]

function randomHeaderValue(rng: Rng): string {
  const kind = rng.int(0, 4)
  if (kind === 0) return rng.pick(ENCODED)
  if (kind === 1) return utf8AsLatin1(randomText(rng, 8))
  if (kind === 2) return `${rng.pick(['Ann', '"Lee, A."', 'Zoë'])} <ann@example.com>, bob@example.com`
  return randomText(rng, 6).replace(/[^\x20-\x7e]/g, 'x')
}

/** A random RFC 822 message: headers (folded, repeated, odd case), LF or CRLF, maybe multipart, several encodings. */
function randomMessage(rng: Rng, depth = 0): string {
  const eol = rng.chance(0.8) ? '\r\n' : '\n'
  const headers: string[] = []
  const names = [
    'Subject',
    'From',
    'To',
    'Cc',
    'Bcc',
    'SUBJECT',
    'to',
    'Delivered-To',
    'List-ID',
    'Message-ID',
    'In-Reply-To',
    'References',
    'Date',
    'X-Other',
    'Content-Transfer-Encoding',
    'content-disposition',
  ]
  for (let n = rng.int(0, 8); n > 0; n--) {
    headers.push(`${rng.pick(names)}:${rng.pick([' ', '', '  '])}${randomHeaderValue(rng)}`)
    if (rng.chance(0.15)) headers.push(`${rng.pick([' ', '\t'])}${randomHeaderValue(rng)}`)
  }
  if (rng.chance(0.1)) headers.unshift(' leading: continuation')
  const multipart = depth < 2 && rng.chance(0.3)
  const boundary = rng.pick(['b1', 'b;2=x', 'inner'])
  headers.push(
    multipart
      ? `Content-Type: multipart/${rng.pick(['mixed', 'alternative'])}; boundary="${boundary}"`
      : `Content-Type: ${randomParams(rng)}`,
  )
  const encoding = rng.pick(['base64', 'Quoted-Printable', '7bit'])
  if (!multipart && rng.chance(0.4)) headers.push(`Content-Transfer-Encoding: ${encoding}`)
  if (!multipart && rng.chance(0.2)) headers.push(`Content-Disposition: ${randomParams(rng)}`)
  const blank = rng.pick([`${eol}${eol}`, '\r\n\n', '\n\r\n', `${eol}`])
  let body: string
  if (multipart) {
    const parts = Array.from({ length: rng.int(1, 3) }, () => randomMessage(rng, depth + 1))
    body = `preamble${eol}${parts.map((p) => `--${boundary}${eol}${p}${eol}`).join('')}--${boundary}--${eol}`
  } else {
    const text = randomText(rng, 40)
    body = rng.chance(0.3)
      ? Buffer.from(text)
          .toString('base64')
          .replace(/.{1,20}/g, `$&${eol}`)
      : rng.chance(0.3)
        ? 'Caf=E9 =3D soft=\r\nbreak =ZZ'
        : utf8AsLatin1(text)
  }
  return `${headers.join(eol)}${blank}${body}`
}

describe('gmail message store fast paths', () => {
  test('wordsOf gives the words the Unicode split gives, ASCII or not', () => {
    const rng = new Rng(318)
    const cases = ['', ' ', '---', 'Invoice-1042', 'ÀB ﬁne ２０２６', 'a\u0000b', 'ABC def_ghi']
    for (let i = 0; i < 3000; i++) cases.push(randomText(rng, 30))
    for (const text of cases) expect(wordsOf(text), JSON.stringify(text)).toBe(referenceWordsOf(text))
  })

  test('snippetOf collapses and escapes the start of a text as the whole-text pass did', () => {
    const rng = new Rng(3180)
    const cases = ['', ' x ', `${' '.repeat(5000)}tail`, `${'ab '.repeat(400)}`, `${'é'.repeat(1023)}😀 z`]
    for (let i = 0; i < 2000; i++) {
      const long = rng.chance(0.5) ? `${randomText(rng, 10)} `.repeat(rng.int(1, 120)) : randomText(rng, 400)
      cases.push(long, `${' \n'.repeat(rng.int(0, 600))}${long}`)
    }
    for (const text of cases) expect(snippetOf(text), JSON.stringify(text.slice(0, 80))).toBe(referenceSnippetOf(text))
  })

  test('wrap76 cuts base64 into the lines the regex wrote', () => {
    const rng = new Rng(76)
    for (let n = 0; n < 400; n++) {
      const b64 = Buffer.from(Array.from({ length: n }, () => rng.int(0, 255))).toString('base64')
      expect(wrap76(b64)).toBe(b64.replace(/.{1,76}/g, '$&\r\n'))
    }
  })

  test('parseParams splits outside quotes as the lookahead split did', () => {
    const rng = new Rng(31800)
    for (let i = 0; i < 3000; i++) {
      const value = randomParams(rng)
      expect(parseParams(value), value).toEqual(referenceParseParams(value))
    }
  })

  test('parseMime gives the tree, text and snippet of the whole-message parse', () => {
    const rng = new Rng(318000)
    for (let i = 0; i < 1500; i++) {
      const raw = Buffer.from(randomMessage(rng), 'latin1')
      const root = parseMime(raw)
      const reference = referenceParseMime(raw)
      expect(root, JSON.stringify(raw.toString('latin1'))).toEqual(reference)
      expect(bodyText(root)).toBe(bodyText(reference))
      for (const part of leaves(root)) expect(partText(part)).toBe(referencePartText(part))
    }
  })

  test('simple address lists give the mailboxes postal-mime gives, and only they skip it', () => {
    const rng = new Rng(3180000)
    const names = [
      'Priya Raman',
      "O'Brien",
      'a.b-c d_e',
      'Zoë',
      '"Lee, A."',
      '"Ann Lee"',
      'x@y',
      'Ann  Lee',
      '=?utf-8?q?a?=',
      'Ann (HR)',
      'team: x',
      'a;b',
      '',
    ]
    const addresses = ['priya@acme.test', 'a.b+c%d@x-y.z', 'a@b@c', '@x', 'x@', 'no-at', 'é@x.y', 'a_b@c_d.']
    let simple = 0
    for (let i = 0; i < 4000; i++) {
      const items = Array.from({ length: rng.int(1, 4) }, () => {
        const address = rng.chance(0.7) ? addresses[rng.int(0, 1)]! : rng.pick(addresses)
        const name = rng.chance(0.7) ? names[rng.int(0, 2)]! : rng.pick(names)
        return name ? `${name}${rng.chance(0.8) ? ' ' : rng.pick(['', '  '])}<${address}>` : address
      })
      const value = items.join(rng.chance(0.8) ? rng.pick([', ', ',']) : rng.pick([' , ', ';', ',  ']))
      const fast = simpleMailboxes(value)
      if (fast === undefined) continue
      simple++
      expect(fast, value).toEqual(referenceMailboxes(value))
    }
    expect(simple).toBeGreaterThan(300)
    expect(simpleMailboxes('Priya Raman <priya@acme.test>, bob@example.com')).toEqual([
      { name: 'Priya Raman', address: 'priya@acme.test' },
      { name: '', address: 'bob@example.com' },
    ])
    expect(addressSearchText('Priya Raman <Priya@Acme.test>, bob@example.com')).toBe(
      'priya raman <priya@acme.test>, <bob@example.com>',
    )
    expect(parseAddressList('A <x@y.z>, x@y.z, B <w@v.u>')).toEqual(['x@y.z', 'w@v.u'])
  })
})

describe('gmail.users.messages.insert', () => {
  test('stores the columns the whole-message derivation gives', async () => {
    const h = harness(gmailSeed)
    const token = h.google('ann')
    const rng = new Rng(31)
    for (let i = 0; i < 150; i++) {
      const source = randomMessage(rng)
      const raw = Buffer.from(source, 'latin1')
      const res = await h.call('POST', '/gmail/v1/users/me/messages', {
        token,
        json: { raw: raw.toString('base64url'), labelIds: ['INBOX'] },
      })
      expect(res.status, res.text).toBe(200)
      const row = findMessage(h.entry.world.db, 'ann', res.body.id)!
      const root = referenceParseMime(raw)
      const first = (name: string) => header(root.headers, name) ?? ''
      const text = bodyText(root)
      const files = leaves(root)
        .filter((p) => p.isAttachment)
        .map((p) => p.filename)
      const words = [first('subject'), first('from'), first('to'), first('cc'), text, files.join(' ')].join('\n')
      expect(
        {
          subject: row.subject,
          fromAddr: row.fromAddr,
          deliveredTo: row.deliveredTo,
          snippet: row.snippet,
          messageIdHeader: row.messageIdHeader,
          listId: row.listId,
          subjectWords: row.subjectWords,
          toAddrs: row.toAddrs,
          ccAddrs: row.ccAddrs,
          bccAddrs: row.bccAddrs,
          searchText: row.searchText,
        },
        JSON.stringify(source),
      ).toEqual({
        subject: first('subject'),
        fromAddr: first('from').toLowerCase(),
        deliveredTo: first('delivered-to').toLowerCase(),
        snippet: referenceSnippetOf(text),
        messageIdHeader: first('message-id'),
        listId: first('list-id').toLowerCase(),
        subjectWords: referenceWordsOf(first('subject')),
        toAddrs: referenceSearchText(first('to')),
        ccAddrs: referenceSearchText(first('cc')),
        bccAddrs: referenceSearchText(first('bcc')),
        searchText: referenceWordsOf(words),
      })
    }
  })
})

const leaves = (p: MimePart): MimePart[] => (p.parts.length ? p.parts.flatMap(leaves) : [p])

function referenceSearchText(value: string): string {
  if (!value) return ''
  let boxes: { name: string; address: string }[]
  try {
    boxes = referenceMailboxes(value)
  } catch {
    return ''
  }
  return boxes.map((m) => `${m.name ? `${m.name} ` : ''}<${m.address}>`.toLowerCase()).join(', ')
}
