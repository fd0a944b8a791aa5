import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { google, type docs_v1, type drive_v3 } from 'googleapis'
import { startSdkServer, type SdkServer } from '../sdk/server.ts'
import { stmt } from '../../envs/core/db.ts'
import { MAX_FULL_TEXT_BYTES } from '../../envs/drive/store/files.ts'

// files.copy moves a file's bytes inside SQLite (docs/decisions/0432): no statement the copy runs hands a buffer of
// the file's size to JavaScript or takes one from it, refused copies included; the copy answers, stores and serves
// what a copy made from the bytes in hand did (size and checksums as the source's, full text cut at the first MiB).

let server: SdkServer
let alice: drive_v3.Drive
let bob: drive_v3.Drive
let docs: docs_v1.Docs
/** Per-call options: the client sends uploads to Google's upload host unless told (tests/sdk/gmail.test.ts). */
let at: never

beforeAll(async () => {
  server = await startSdkServer('demo')
  alice = google.drive({ version: 'v3', auth: server.auth('alice'), rootUrl: server.url })
  bob = google.drive({ version: 'v3', auth: server.auth('bob'), rootUrl: server.url })
  docs = google.docs({ version: 'v1', auth: server.auth('alice'), rootUrl: server.url })
  at = { rootUrl: server.url } as never
})
afterAll(() => server.close())

/** Larger than the text head a copy reads (MAX_FULL_TEXT_BYTES + 1), smaller than the files copied. */
const BIG = 2 * 1024 * 1024
const SIZE = 3 * 1024 * 1024 + 5

const digests = (b: Buffer) => ({
  md5Checksum: createHash('md5').update(b).digest('hex'),
  sha1Checksum: createHash('sha1').update(b).digest('hex'),
  sha256Checksum: createHash('sha256').update(b).digest('hex'),
})
/** `n` bytes of every value, different for each `seed`. */
const bytesOf = (n: number, seed: number) => {
  const b = Buffer.alloc(n)
  for (let i = 0; i < n; i++) b[i] = (i * 7 + seed * 31 + (i >> 11)) & 255
  return b
}
const fileAnswer = (r: unknown) => r as { status: number; data: drive_v3.Schema$File }
const FIELDS = 'id,name,mimeType,size,md5Checksum,sha1Checksum,sha256Checksum,version,headRevisionId,driveId,parents'

async function upload(client: drive_v3.Drive, name: string, mimeType: string, body: Buffer, extra = {}) {
  const res = fileAnswer(
    await client.files.create(
      { requestBody: { name, mimeType, ...extra }, media: { mimeType, body: Readable.from([body]) }, fields: 'id' },
      at,
    ),
  )
  return res.data.id!
}

async function media(client: drive_v3.Drive, fileId: string): Promise<Buffer> {
  const got = await client.files.get({ fileId, alt: 'media', supportsAllDrives: true }, { responseType: 'arraybuffer' })
  return Buffer.from(got.data as unknown as ArrayBuffer)
}

/**
 * Buffers of at least BIG bytes that statements took from JavaScript or gave to it while `fn` ran, as
 * `<method> <length>: <statement>`: every prepared statement's run/get/all (better-sqlite3's prototype) is watched.
 */
async function bigBuffersAcross<T>(fn: () => Promise<T>): Promise<{ result: T; crossed: string[] }> {
  const db = server.entry.world.db as unknown as { $client: { prepare(sql: string): object } }
  const proto = Object.getPrototypeOf(db.$client.prepare('SELECT 1')) as Record<string, (...a: unknown[]) => unknown>
  const crossed: string[] = []
  const sizes: number[] = []
  const look = (v: unknown, depth = 0): void => {
    if (v instanceof Uint8Array) {
      if (v.length >= BIG) sizes.push(v.length)
    } else if (v && typeof v === 'object' && depth < 3) for (const x of Object.values(v)) look(x, depth + 1)
  }
  const names = ['run', 'get', 'all'] as const
  const originals = names.map((name) => proto[name]!)
  names.forEach((name, i) => {
    const original = originals[i]!
    proto[name] = function (this: unknown, ...args: unknown[]) {
      look(args)
      const out = original.apply(this, args)
      look(out)
      for (const n of sizes.splice(0)) crossed.push(`${name} ${n}: ${(this as { source: string }).source.slice(0, 80)}`)
      return out
    }
  })
  try {
    return { result: await fn(), crossed }
  } finally {
    names.forEach((name, i) => (proto[name] = originals[i]!))
  }
}

/** The stored columns a copy takes from its source's bytes (the test reads them; the copy must not). */
const stored = (id: string) => {
  const row = stmt(
    server.entry.world.db,
    'SELECT content, typeof(content) AS type, size, checksums, full_text AS fullText FROM drive_files WHERE id = ?',
  ).get(id) as { content: Buffer; type: string; size: number; checksums: string; fullText: string }
  // Deep equality walks a buffer byte by byte: its digest stands for it.
  return { ...row, content: createHash('sha256').update(row.content).digest('hex') }
}

describe('drive.files.copy', () => {
  test('a 3 MB binary copy answers the source checksums and serves its bytes; no bytes cross into JavaScript', async () => {
    const bytes = bytesOf(SIZE, 1)
    const id = await upload(alice, 'big.bin', 'application/octet-stream', bytes)
    const { result, crossed } = await bigBuffersAcross(() =>
      alice.files.copy({ fileId: id, requestBody: { name: 'big copy.bin' }, fields: FIELDS }),
    )
    expect(crossed).toEqual([])
    expect(result.data).toMatchObject({
      name: 'big copy.bin',
      mimeType: 'application/octet-stream',
      size: String(SIZE),
      version: '1',
      headRevisionId: '0B1',
      ...digests(bytes),
    })
    expect((await media(alice, result.data.id!)).equals(bytes)).toBe(true)
    expect(stored(result.data.id!)).toEqual({ ...stored(id), fullText: '' })
    const revs = await alice.revisions.list({ fileId: result.data.id!, fields: 'revisions(id,size)' })
    expect(revs.data.revisions).toEqual([{ id: '0B1', size: String(SIZE) }])
  })

  test('a 3 MB text copy keeps the first MiB as its full text, cut before a split character', async () => {
    // '€' is 3 bytes: its second byte falls at MAX_FULL_TEXT_BYTES, so the text stops before it.
    const text = `${'a'.repeat(MAX_FULL_TEXT_BYTES - 9)} kestrel€ ${'b€😀 '.repeat(300_000)} osprey`
    const bytes = Buffer.from(text)
    expect(bytes[MAX_FULL_TEXT_BYTES]! & 0xc0).toBe(0x80)
    const id = await upload(alice, 'big.txt', 'text/plain', bytes)
    const { result, crossed } = await bigBuffersAcross(() =>
      alice.files.copy({ fileId: id, requestBody: {}, fields: FIELDS }),
    )
    expect(crossed).toEqual([])
    const copy = result.data.id!
    expect(result.data).toMatchObject({ name: 'Copy of big.txt', size: String(bytes.length), ...digests(bytes) })
    expect(stored(copy)).toEqual(stored(id))
    expect(stored(copy).fullText).toBe(text.slice(0, MAX_FULL_TEXT_BYTES - 1))
    const found = async (word: string) =>
      (await alice.files.list({ q: `fullText contains '${word}'`, fields: 'files(id)' })).data.files!.map((f) => f.id)
    expect(await found('kestrel')).toEqual(expect.arrayContaining([id, copy]))
    expect(await found('osprey')).not.toContain(copy)
    expect((await media(alice, copy)).equals(bytes)).toBe(true)
  })

  test('a copy of a file with three versions holds the current bytes in one revision; the source keeps all', async () => {
    const v = [bytesOf(SIZE, 2), bytesOf(SIZE + 1, 3), bytesOf(SIZE - 1, 4)]
    const id = await upload(alice, 'versions.bin', 'application/octet-stream', v[0]!)
    for (const b of v.slice(1)) {
      await alice.files.update(
        { fileId: id, media: { mimeType: 'application/octet-stream', body: Readable.from([b]) } },
        at,
      )
    }
    const { result, crossed } = await bigBuffersAcross(() =>
      alice.files.copy({ fileId: id, requestBody: { name: 'v copy' }, fields: FIELDS, keepRevisionForever: true }),
    )
    expect(crossed).toEqual([])
    const copy = result.data.id!
    expect(result.data).toMatchObject({ size: String(v[2]!.length), headRevisionId: '0B1', ...digests(v[2]!) })
    const revs = (f: string) => alice.revisions.list({ fileId: f, fields: 'revisions(id,size,keepForever)' })
    expect((await revs(copy)).data.revisions).toEqual([{ id: '0B1', size: String(v[2]!.length), keepForever: true }])
    expect((await revs(id)).data.revisions!.map((r) => r.size)).toEqual(v.map((b) => String(b.length)))
    expect((await media(alice, copy)).equals(v[2]!)).toBe(true)
    const old = await alice.revisions.get(
      { fileId: id, revisionId: '0B1', alt: 'media' },
      { responseType: 'arraybuffer' },
    )
    expect(Buffer.from(old.data as unknown as ArrayBuffer).equals(v[0]!)).toBe(true)
  })

  test('copies into, within and out of a shared drive carry the bytes without reading them', async () => {
    const bytes = bytesOf(SIZE, 5)
    const id = await upload(alice, 'to share.bin', 'application/octet-stream', bytes)
    const sd = (await alice.drives.create({ requestId: 'copy-content', requestBody: { name: 'Copies' } })).data.id!
    const copy = (fileId: string, parents: string[]) =>
      alice.files.copy({ fileId, requestBody: { parents }, fields: FIELDS, supportsAllDrives: true })
    const { result: into, crossed } = await bigBuffersAcross(async () => {
      const inDrive = await copy(id, [sd])
      const within = await copy(inDrive.data.id!, [sd])
      const out = await copy(within.data.id!, ['root'])
      return [inDrive.data, within.data, out.data]
    })
    expect(crossed).toEqual([])
    expect(into.map((f) => [f.driveId ?? null, f.size, f.md5Checksum])).toEqual([
      [sd, String(SIZE), digests(bytes).md5Checksum],
      [sd, String(SIZE), digests(bytes).md5Checksum],
      [null, String(SIZE), digests(bytes).md5Checksum],
    ])
    for (const f of into) expect((await media(alice, f.id!)).equals(bytes)).toBe(true)
    for (const f of into) expect(stored(f.id!)).toEqual(stored(id))
  })

  test('refused copies answer as before and read none of the bytes', async () => {
    const bytes = bytesOf(SIZE, 6)
    const id = await upload(alice, 'private.bin', 'application/octet-stream', bytes)
    const folder = (await alice.files.create({ requestBody: { name: 'ro', mimeType: FOLDER }, fields: 'id' })).data.id!
    const hidden = (await alice.files.create({ requestBody: { name: 'hidden', mimeType: FOLDER }, fields: 'id' })).data
      .id!
    for (const fileId of [id, folder]) {
      await alice.permissions.create({
        fileId,
        sendNotificationEmail: false,
        requestBody: { type: 'user', role: 'reader', emailAddress: 'bob@northwind.test' },
      })
    }
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => ({ status: 200, reason: undefined }),
        (e: { response: { status: number; data: { error: { errors: { reason: string }[] } } } }) => ({
          status: e.response.status,
          reason: e.response.data.error.errors[0]!.reason,
        }),
      )
    const { result, crossed } = await bigBuffersAcross(async () => [
      // A reader may copy into My Drive but not into a folder they only read, nor one they cannot see.
      await failure(bob.files.copy({ fileId: id, requestBody: { parents: [folder] } })),
      await failure(bob.files.copy({ fileId: id, requestBody: { parents: [hidden] } })),
      await failure(bob.files.copy({ fileId: folder, requestBody: {} })),
      await failure(alice.files.copy({ fileId: id, requestBody: { parents: [id] } })),
      await failure(alice.files.copy({ fileId: id, requestBody: { id } })),
    ])
    expect(crossed).toEqual([])
    expect(result).toEqual([
      { status: 403, reason: 'insufficientFilePermissions' },
      { status: 404, reason: 'notFound' },
      { status: 403, reason: 'fileNotCopyable' },
      { status: 400, reason: 'invalidParent' },
      { status: 409, reason: 'duplicate' },
    ])
    const own = (await bob.files.copy({ fileId: id, requestBody: {}, fields: FIELDS })).data
    expect(own).toMatchObject({ size: String(SIZE), ...digests(bytes) })
    expect((await media(bob, own.id!)).equals(bytes)).toBe(true)
  })
})

const FOLDER = 'application/vnd.google-apps.folder'

describe('drive.files.copy (controls: these pass on the copy made from bytes in JavaScript too)', () => {
  test('a copy of a Google Doc carries its content and no bytes', async () => {
    const doc = (await docs.documents.create({ requestBody: { title: 'Plan' } })).data.documentId!
    await docs.documents.batchUpdate({
      documentId: doc,
      requestBody: { requests: [{ insertText: { location: { index: 1 }, text: 'Launch on Tuesday.\n' } }] },
    })
    const copy = (await alice.files.copy({ fileId: doc, requestBody: { name: 'Plan 2' }, fields: FIELDS })).data
    expect(copy.mimeType).toBe('application/vnd.google-apps.document')
    expect(copy.size).toBeUndefined()
    expect(copy.md5Checksum).toBeUndefined()
    const text = async (documentId: string) =>
      JSON.stringify((await docs.documents.get({ documentId })).data.body!.content!.map((e) => e.paragraph ?? null))
    expect(await text(copy.id!)).toBe(await text(doc))
    expect(await text(copy.id!)).toContain('Launch on Tuesday.')
  })

  test('copies of an empty file and of a seeded file with history are stored as their sources', async () => {
    const empty = await upload(alice, 'empty.txt', 'text/plain', Buffer.alloc(0))
    const emptyCopy = (await alice.files.copy({ fileId: empty, requestBody: {}, fields: FIELDS })).data
    expect(emptyCopy).toMatchObject({ size: '0', ...digests(Buffer.alloc(0)) })
    expect(stored(emptyCopy.id!)).toEqual(stored(empty))
    const seeded = stmt(
      server.entry.world.db,
      "SELECT id FROM drive_files WHERE content IS NOT NULL AND length(content) > 0 AND owner_id = 'alice' LIMIT 1",
    )
      .pluck()
      .get() as string
    const copy = (await alice.files.copy({ fileId: seeded, requestBody: {}, fields: FIELDS })).data
    const [a, b] = [stored(seeded), stored(copy.id!)]
    expect([b.content, b.type, b.size, b.checksums]).toEqual([a.content, a.type, a.size, a.checksums])
  })
})

describe('answers about a large file read none of its bytes', () => {
  test('changes.list, sharing it, trashing and restoring its folder', async () => {
    const start = (await alice.changes.getStartPageToken({})).data.startPageToken!
    const folder = (
      await alice.files.create({
        requestBody: { name: 'Archive', mimeType: 'application/vnd.google-apps.folder' },
        fields: 'id',
      })
    ).data.id!
    const id = await upload(alice, 'archive.bin', 'application/octet-stream', bytesOf(SIZE, 9), { parents: [folder] })
    const { result, crossed } = await bigBuffersAcross(async () => {
      const changes = (await alice.changes.list({ pageToken: start, fields: '*' })).data.changes!
      await alice.permissions.create({
        fileId: id,
        requestBody: { role: 'reader', type: 'user', emailAddress: 'bob@northwind.test' },
      })
      await alice.files.update({ fileId: folder, requestBody: { trashed: true } })
      await alice.files.update({ fileId: folder, requestBody: { trashed: false } })
      return changes
    })
    expect(crossed).toEqual([])
    expect(result.map((c) => c.fileId)).toContain(id)
    expect(result.find((c) => c.fileId === id)!.file!.size).toBe(String(SIZE))
    expect((await bob.files.get({ fileId: id, fields: 'trashed,size' })).data).toEqual({
      trashed: false,
      size: String(SIZE),
    })
  })
})
