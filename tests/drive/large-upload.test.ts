import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createHash } from 'node:crypto'
import { request } from 'node:http'
import { Readable } from 'node:stream'
import { google, type drive_v3, type gmail_v1 } from 'googleapis'
import { startSdkServer, type SdkServer } from '../sdk/server.ts'
import { stmt } from '../../envs/core/db.ts'
import { MAX_FULL_TEXT_BYTES } from '../../envs/drive/store/files.ts'

// Large uploads over a real socket (docs/decisions/0416): the answers, the stored bytes, their checksums, the
// searchable text and the action log's head of the body are what they were when every copy was made in full.

let server: SdkServer
let drive: drive_v3.Drive
let gmail: gmail_v1.Gmail
let token: string
/** Per-call options: the clients send uploads to Google's upload host unless told (tests/sdk/gmail.test.ts). */
let at: never

beforeAll(async () => {
  server = await startSdkServer('demo')
  drive = google.drive({ version: 'v3', auth: server.auth(), rootUrl: server.url })
  gmail = google.gmail({ version: 'v1', auth: server.auth(), rootUrl: server.url })
  token = server.tokens[0]!.googleToken!
  at = { rootUrl: server.url } as never
})
afterAll(() => server.close())

const digests = (b: Buffer) => ({
  md5Checksum: createHash('md5').update(b).digest('hex'),
  sha1Checksum: createHash('sha1').update(b).digest('hex'),
  sha256Checksum: createHash('sha256').update(b).digest('hex'),
})
/** With per-call options the clients' overloads type the answer loosely (tests/sdk/gmail.test.ts). */
const fileAnswer = (r: unknown) => r as { status: number; data: drive_v3.Schema$File }
const messageAnswer = (r: unknown) => r as { status: number; data: gmail_v1.Schema$Message }
const FIELDS = 'id,name,mimeType,size,md5Checksum,sha1Checksum,sha256Checksum,version'

/** A text of `bytes` UTF-8 bytes or a little more: `head`, three-byte and four-byte characters, then `tail`. */
function bigText(bytes: number, head: string, tail: string): string {
  const unit = 'ab€😀 '
  return `${head} ${unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit)))} ${tail}`
}

async function media(id: string): Promise<Buffer> {
  const res = await fetch(`${server.url}drive/v3/files/${id}?alt=media`, {
    headers: { authorization: `Bearer ${token}` },
  })
  expect(res.status).toBe(200)
  return Buffer.from(await res.arrayBuffer())
}

async function foundBy(word: string): Promise<string[]> {
  const res = await drive.files.list({ q: `fullText contains '${word}'`, fields: 'files(id)' })
  return res.data.files!.map((f) => f.id!)
}

/** What the action log kept of the last call's body. */
const lastLoggedBody = () =>
  stmt(server.entry.world.db, 'SELECT body FROM world_action_log ORDER BY rowid DESC LIMIT 1').pluck().get() as string

/** What the log kept of a text body before 0416: the whole text decoded, then its head cut at 64 Ki code units. */
const headOf = (bytes: Buffer) => {
  const text = new TextDecoder().decode(bytes)
  return text.length > 65536 ? `${text.slice(0, 65536)}…[truncated]` : text
}

describe('drive.files.create', () => {
  test.each([
    ['a small', 2_000],
    ['a 6 MB', 6_000_000],
  ])('%s text/plain multipart upload answers, stores and finds its bytes as before', async (_, size) => {
    const text = bigText(size, 'kestrel', 'osprey')
    const bytes = Buffer.from(text)
    const res = fileAnswer(
      await drive.files.create(
        {
          requestBody: { name: 'big.txt', mimeType: 'text/plain' },
          media: { mimeType: 'text/plain', body: text },
          fields: FIELDS,
        },
        at,
      ),
    )
    expect(res.status).toBe(200)
    expect(res.data).toEqual({
      id: res.data.id,
      name: 'big.txt',
      mimeType: 'text/plain',
      size: String(bytes.length),
      version: '1',
      ...digests(bytes),
    })
    expect((await media(res.data.id!)).equals(bytes)).toBe(true)
    expect(await foundBy('kestrel')).toContain(res.data.id)
    // Past the first MiB the text is not searched (0407); within it, it is.
    if (bytes.length > MAX_FULL_TEXT_BYTES) expect(await foundBy('osprey')).not.toContain(res.data.id)
    else expect(await foundBy('osprey')).toContain(res.data.id)
  })

  test('an octet-stream upload of every byte value keeps its bytes and checksums', async () => {
    const bytes = Buffer.from(Array.from({ length: 3_000_000 }, (_, i) => (i * 31 + (i >> 8)) % 256))
    const res = fileAnswer(
      await drive.files.create(
        {
          requestBody: { name: 'blob.bin' },
          media: { mimeType: 'application/octet-stream', body: Readable.from([bytes]) },
          fields: FIELDS,
        },
        at,
      ),
    )
    expect(res.data).toMatchObject({ name: 'blob.bin', size: String(bytes.length), ...digests(bytes) })
    expect((await media(res.data.id!)).equals(bytes)).toBe(true)
  })

  test.each([
    ['a three-byte character across the cut', Buffer.from('x' + '€'.repeat(70_000))],
    ['four-byte characters across the cut', Buffer.from('xy' + '😀'.repeat(50_000))],
    [
      'a byte order mark and malformed bytes',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.alloc(300_000, 0xe2)]),
    ],
    [
      'a sequence cut short where the head ends',
      Buffer.concat([Buffer.alloc(196_615, 'a'), Buffer.from('€'.repeat(10))]),
    ],
    ['a body just over the log head', Buffer.alloc(65_537, 'q')],
  ])('a text/plain media upload logs the head of its text as before: %s', async (_, bytes) => {
    const res = await fetch(`${server.url}upload/drive/v3/files?uploadType=media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body: bytes,
    })
    expect(res.status).toBe(200)
    expect(lastLoggedBody()).toBe(headOf(bytes))
  })

  test('a body announced past 64 MiB is refused before it is read: 413 in the Drive envelope', async () => {
    const url = new URL(`${server.url}upload/drive/v3/files?uploadType=multipart`)
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'multipart/related; boundary=b',
          'content-length': String(64 * 1024 * 1024 + 1),
        },
      })
      req.on('response', (res) => {
        let body = ''
        res.on('data', (d: Buffer) => (body += d.toString()))
        res.on('end', () => resolve({ status: res.statusCode!, body }))
      })
      req.on('error', reject)
      req.write('--b\r\n')
    })
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 413 } })
  })
})

describe('drive.files.update', () => {
  test('a media update answers new size and checksums, serves the new bytes, searches its first MiB', async () => {
    const first = fileAnswer(
      await drive.files.create(
        {
          requestBody: { name: 'grow.txt', mimeType: 'text/plain' },
          media: { mimeType: 'text/plain', body: 'little heron' },
          fields: 'id',
        },
        at,
      ),
    )
    const id = first.data.id!
    const text = bigText(3_000_000, 'plover', 'curlew')
    const bytes = Buffer.from(text)
    const res = fileAnswer(
      await drive.files.update({ fileId: id, media: { mimeType: 'text/plain', body: text }, fields: FIELDS }, at),
    )
    expect(res.data).toEqual({
      id,
      name: 'grow.txt',
      mimeType: 'text/plain',
      size: String(bytes.length),
      version: '2',
      ...digests(bytes),
    })
    expect((await media(id)).equals(bytes)).toBe(true)
    expect(await foundBy('plover')).toContain(id)
    expect(await foundBy('heron')).not.toContain(id)
    // As a created file's (0407): the text past the first MiB is not searched (before 0416 an update kept it all).
    expect(await foundBy('curlew')).not.toContain(id)
    const kept = stmt(server.entry.world.db, 'SELECT full_text FROM drive_files WHERE id = ?').pluck().get(id) as string
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(MAX_FULL_TEXT_BYTES)
  })
})

describe('gmail.users.messages.insert', () => {
  test.each([
    ['mailer lines', (b64: string) => b64.replace(/.{76}/g, '$&\r\n')],
    [
      'stray and base64url characters and an inner =',
      (b64: string) => `${b64.slice(0, 1000)}!-_*\t${b64.slice(1000, 2000)}=${b64.slice(2000)}`,
    ],
  ])('a large base64 attachment (%s) reads back as it decoded before', async (_, wrap) => {
    const bytes = Buffer.from(Array.from({ length: 2_000_000 }, (_, i) => (i * 7 + (i >> 10)) % 256))
    const encoded = wrap(bytes.toString('base64'))
    const raw = [
      'From: alice@example.com',
      'To: bob@example.com',
      'Subject: big attachment',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary=MM',
      '',
      '--MM',
      'Content-Type: text/plain',
      '',
      'see attached',
      '--MM',
      'Content-Type: application/octet-stream',
      'Content-Disposition: attachment; filename=a.bin',
      'Content-Transfer-Encoding: base64',
      '',
      encoded,
      '--MM--',
      '',
    ].join('\r\n')
    const res = messageAnswer(
      await gmail.users.messages.insert(
        {
          userId: 'me',
          requestBody: {},
          media: { mimeType: 'message/rfc822', body: raw },
        },
        at,
      ),
    )
    expect(res.status).toBe(200)
    const full = await gmail.users.messages.get({ userId: 'me', id: res.data.id! })
    const part = full.data.payload!.parts!.find((p) => p.filename === 'a.bin')!
    const expected = Buffer.from(encoded.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64')
    expect(part.body!.size).toBe(expected.length)
    const att = await gmail.users.messages.attachments.get({
      userId: 'me',
      messageId: res.data.id!,
      id: part.body!.attachmentId!,
    })
    expect(Buffer.from(att.data.data!, 'base64url').equals(expected)).toBe(true)
  })
})
