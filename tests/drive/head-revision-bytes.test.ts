import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { google, type drive_v3 } from 'googleapis'
import { startSdkServer, type SdkServer } from '../sdk/server.ts'
import type { World } from '../../envs/core/world.ts'

// A file's head revision keeps no bytes of its own: they are the file's content, stored once (docs/decisions/0421).
// Every revision still answers and downloads as when each row held its bytes, through updates, deletes of old
// revisions, copies, snapshots, restores and forks; and an upload grows the world's image by its size, not twice.

let server: SdkServer
let drive: drive_v3.Drive
/** Per-call options: the client sends uploads to Google's upload host unless told (tests/sdk/gmail.test.ts). */
let at: never

beforeAll(async () => {
  server = await startSdkServer('demo')
  drive = google.drive({ version: 'v3', auth: server.auth(), rootUrl: server.url })
  at = { rootUrl: server.url } as never
})
afterAll(() => server.close())

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex')
/** `n` bytes of every value, different for each `seed`. */
const bytesOf = (n: number, seed: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7 + seed * 31) & 255))
const fileAnswer = (r: unknown) => r as { status: number; data: drive_v3.Schema$File }

async function create(name: string, body: Buffer, extra: Record<string, unknown> = {}): Promise<string> {
  const res = fileAnswer(
    await drive.files.create(
      {
        requestBody: { name },
        media: { mimeType: 'application/octet-stream', body: Readable.from([body]) },
        fields: 'id',
        ...extra,
      },
      at,
    ),
  )
  return res.data.id!
}

async function update(client: drive_v3.Drive, fileId: string, body: Buffer, extra: Record<string, unknown> = {}) {
  const res = fileAnswer(
    await client.files.update(
      {
        fileId,
        media: { mimeType: 'application/octet-stream', body: Readable.from([body]) },
        fields: 'headRevisionId,size,md5Checksum,version',
        ...extra,
      },
      at,
    ),
  )
  return res.data
}

/** Every revision of a file as revisions.list answers it, with the bytes revisions.get alt=media serves. */
async function revisionsWithBytes(client: drive_v3.Drive, fileId: string) {
  const list = await client.revisions.list({ fileId, fields: '*' })
  return Promise.all(
    list.data.revisions!.map(async (r) => {
      const got = await client.revisions.get(
        { fileId, revisionId: r.id!, alt: 'media' },
        { responseType: 'arraybuffer' },
      )
      const bytes = Buffer.from(got.data as unknown as ArrayBuffer)
      return { id: r.id, size: r.size, keepForever: r.keepForever, md5: md5(bytes), length: bytes.length }
    }),
  )
}

const expected = (versions: [string, Buffer][], kept: string[] = []) =>
  versions.map(([id, b]) => ({
    id,
    size: String(b.length),
    keepForever: kept.includes(id),
    md5: md5(b),
    length: b.length,
  }))

async function fileBytes(client: drive_v3.Drive, fileId: string): Promise<Buffer> {
  const got = await client.files.get({ fileId, alt: 'media' }, { responseType: 'arraybuffer' })
  return Buffer.from(got.data as unknown as ArrayBuffer)
}

/** What drive_revisions holds of a file: per revision, whether its row has bytes and which. */
const storedRows = (world: World, fileId: string) =>
  (
    world.db.$client.prepare('SELECT id, content FROM drive_revisions WHERE file_id = ? ORDER BY id').all(fileId) as {
      id: string
      content: Buffer | null
    }[]
  ).map((r) => ({ id: r.id, md5: r.content === null ? null : md5(r.content) }))

describe('drive.revisions.get', () => {
  test('after three media updates every revision downloads its own bytes; the file holds the last', async () => {
    const v = [bytesOf(3000, 1), bytesOf(0, 2), bytesOf(5000, 3), bytesOf(4000, 4)]
    const id = await create('four versions.bin', v[0]!)
    const answers = []
    for (const b of v.slice(1)) answers.push(await update(drive, id, b))
    expect(answers.map((a) => [a.headRevisionId, a.size, a.md5Checksum, a.version])).toEqual([
      ['0B2', '0', md5(v[1]!), '2'],
      ['0B3', '5000', md5(v[2]!), '3'],
      ['0B4', '4000', md5(v[3]!), '4'],
    ])
    const versions = v.map((b, i) => [`0B${i + 1}`, b] as [string, Buffer])
    expect(await revisionsWithBytes(drive, id)).toEqual(expected(versions))
    expect((await fileBytes(drive, id)).equals(v[3]!)).toBe(true)
    // Old revisions hold their own bytes (the empty one too); the head's are the file's alone.
    expect(storedRows(server.entry.world, id)).toEqual([
      { id: '0B1', md5: md5(v[0]!) },
      { id: '0B2', md5: md5(v[1]!) },
      { id: '0B3', md5: md5(v[2]!) },
      { id: '0B4', md5: null },
    ])
  })

  test('a revision kept forever keeps its flag and bytes after it stops being the head', async () => {
    const v = [bytesOf(100, 5), bytesOf(200, 6), bytesOf(300, 7)]
    const id = await create('kept.bin', v[0]!, { keepRevisionForever: true })
    await update(drive, id, v[1]!)
    await drive.revisions.update({ fileId: id, revisionId: '0B2', requestBody: { keepForever: true } })
    await update(drive, id, v[2]!, { keepRevisionForever: true })
    const versions = v.map((b, i) => [`0B${i + 1}`, b] as [string, Buffer])
    expect(await revisionsWithBytes(drive, id)).toEqual(expected(versions, ['0B1', '0B2', '0B3']))
  })
})

describe('drive.revisions.delete', () => {
  test('deleting an old revision leaves the others and the head downloadable; the head is refused', async () => {
    const v = [bytesOf(1000, 8), bytesOf(1100, 9), bytesOf(1200, 10)]
    const id = await create('pruned.bin', v[0]!)
    await update(drive, id, v[1]!)
    await update(drive, id, v[2]!)
    expect((await drive.revisions.delete({ fileId: id, revisionId: '0B2' })).status).toBe(204)
    const head = await drive.revisions
      .delete({ fileId: id, revisionId: '0B3' })
      .catch((e: { response: { status: number; data: unknown } }) => e.response)
    expect(head).toMatchObject({ status: 400, data: { error: { errors: [{ reason: 'cannotDeleteHeadRevision' }] } } })
    expect(await revisionsWithBytes(drive, id)).toEqual(
      expected([
        ['0B1', v[0]!],
        ['0B3', v[2]!],
      ]),
    )
    expect((await fileBytes(drive, id)).equals(v[2]!)).toBe(true)
  })
})

describe('drive.files.copy', () => {
  test('a copy has one revision with the source bytes; the source keeps all of its own', async () => {
    const v = [bytesOf(700, 11), bytesOf(800, 12)]
    const id = await create('source.bin', v[0]!)
    await update(drive, id, v[1]!)
    const copy = (await drive.files.copy({ fileId: id, requestBody: { name: 'copy.bin' }, fields: 'id' })).data.id!
    expect(await revisionsWithBytes(drive, copy)).toEqual(expected([['0B1', v[1]!]]))
    await update(drive, copy, v[0]!)
    expect(await revisionsWithBytes(drive, copy)).toEqual(
      expected([
        ['0B1', v[1]!],
        ['0B2', v[0]!],
      ]),
    )
    expect(await revisionsWithBytes(drive, id)).toEqual(
      expected([
        ['0B1', v[0]!],
        ['0B2', v[1]!],
      ]),
    )
  })
})

describe('snapshots and forks', () => {
  test('a restored snapshot and a fork serve each revision bytes as they stood', async () => {
    const v = [bytesOf(900, 13), bytesOf(950, 14), bytesOf(990, 15)]
    const id = await create('history.bin', v[0]!)
    await update(drive, id, v[1]!)
    server.worlds.snapshot(server.entry.id, 'two-versions')
    const fork = server.worlds.fork(server.entry.id, 'sdk_fork')
    await update(drive, id, v[2]!)
    const three = v.map((b, i) => [`0B${i + 1}`, b] as [string, Buffer])
    expect(await revisionsWithBytes(drive, id)).toEqual(expected(three))

    // The fork went on from two versions: its own third version leaves the original's alone.
    const forkToken = server.worlds.credentials(fork.id).find((t) => t.id === server.tokens[0]!.id)!.googleToken!
    const auth = new google.auth.OAuth2()
    auth.setCredentials({ access_token: forkToken, expiry_date: Date.now() + 3_600_000 })
    const forked = google.drive({ version: 'v3', auth, rootUrl: server.url })
    expect(await revisionsWithBytes(forked, id)).toEqual(expected(three.slice(0, 2)))
    await update(forked, id, v[0]!)
    expect(await revisionsWithBytes(forked, id)).toEqual(expected([...three.slice(0, 2), ['0B3', v[0]!]]))
    expect((await fileBytes(forked, id)).equals(v[0]!)).toBe(true)
    expect(await revisionsWithBytes(drive, id)).toEqual(expected(three))

    server.worlds.restore(server.entry.id, 'two-versions')
    expect(await revisionsWithBytes(drive, id)).toEqual(expected(three.slice(0, 2)))
    expect((await fileBytes(drive, id)).equals(v[1]!)).toBe(true)
    await update(drive, id, v[2]!)
    expect(await revisionsWithBytes(drive, id)).toEqual(expected(three))
  })
})

describe('storage', () => {
  test('an upload and a media update each grow the image by about their size, not twice', async () => {
    // A world of its own, with no free pages an upload could reuse: the image grows by what is written.
    const own = await startSdkServer('demo')
    try {
      const client = google.drive({ version: 'v3', auth: own.auth(), rootUrl: own.url })
      const sqlite = own.entry.world.db.$client
      const pragma = (name: string) => sqlite.pragma(name, { simple: true }) as number
      const image = () => pragma('page_count') * pragma('page_size')
      expect(pragma('freelist_count')).toBeLessThan(8)
      const size = 2 * 1024 * 1024
      const before = image()
      const created = fileAnswer(
        await client.files.create(
          {
            requestBody: { name: 'once.bin' },
            media: { mimeType: 'application/octet-stream', body: Readable.from([bytesOf(size, 16)]) },
            fields: 'id',
          },
          { rootUrl: own.url } as never,
        ),
      ).data.id!
      const afterCreate = image()
      await client.files.update(
        {
          fileId: created,
          media: { mimeType: 'application/octet-stream', body: Readable.from([bytesOf(size, 17)]) },
        },
        { rootUrl: own.url } as never,
      )
      const afterUpdate = image()
      expect(afterCreate - before).toBeGreaterThan(0.9 * size)
      expect(afterCreate - before).toBeLessThan(1.25 * size)
      expect(afterUpdate - afterCreate).toBeGreaterThan(0.9 * size)
      expect(afterUpdate - afterCreate).toBeLessThan(1.25 * size)
    } finally {
      await own.close()
    }
  })
})
