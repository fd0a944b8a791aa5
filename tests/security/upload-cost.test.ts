import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { splitRelated } from '../../envs/core/multipart.ts'
import { stmt } from '../../envs/core/db.ts'
import { MAX_FULL_TEXT_BYTES } from '../../envs/drive/store/files.ts'

// A large upload costs about one pass over its bytes (docs/decisions/0407): the multipart body is split as bytes,
// and a text file keeps a bounded full text (a 30 MB text upload stored a second 30 MB copy for `fullText contains`).

const related = (meta: string, data: Buffer, type = 'text/plain') =>
  Buffer.concat([
    Buffer.from(`--b\r\nContent-Type: application/json\r\n\r\n${meta}\r\n--b\r\nContent-Type: ${type}\r\n\r\n`),
    data,
    Buffer.from('\r\n--b--\r\n'),
  ])

describe('splitRelated', () => {
  test('the media part is a view of the body (not a copy), byte for byte, whatever its bytes', () => {
    const data = Buffer.from(Array.from({ length: 64 * 1024 }, (_, i) => i % 256))
    const body = related('{"name":"b.bin"}', data, 'application/octet-stream')
    const out = splitRelated('multipart/related; boundary=b', body)
    expect(out.meta).toEqual({ name: 'b.bin' })
    expect(out.dataType).toBe('application/octet-stream')
    expect(out.data.equals(data)).toBe(true)
    expect(out.data.buffer).toBe(body.buffer)
  })

  test('takes LF-only line breaks, a part without headers and metadata in UTF-8', () => {
    const body = Buffer.from('--b\n\n{"name":"é.txt"}\n--b\ncontent-type: text/plain\n\nhi\n--b--\n')
    const out = splitRelated('multipart/related; boundary="b"', body)
    expect(out).toMatchObject({ meta: { name: 'é.txt' }, dataType: 'text/plain' })
    expect(out.data.toString()).toBe('hi')
  })

  test('a part after the closing delimiter is no media part: 400 badContent', () => {
    const body = Buffer.from('--b\r\nContent-Type: application/json\r\n\r\n{}\r\n--b--\r\n--b\r\n\r\nlate\r\n')
    expect(() => splitRelated('multipart/related; boundary=b', body)).toThrow(/metadata part and a media part/)
  })
})

describe('drive.files.create upload', () => {
  test('a text upload keeps its first MiB as full text: fullText contains finds words before the cut only', async () => {
    const h = harness('demo')
    // Three-byte characters, one of them across the 1 MiB cut: the kept text ends before it, never with U+FFFD.
    const head = 'alpha '
    const fill = '€'.repeat(Math.ceil((MAX_FULL_TEXT_BYTES - head.length) / 3) + 10)
    const text = `${head}${fill} omega`
    const res = await h.call('POST', '/upload/drive/v3/files?uploadType=multipart&fields=id,size', {
      body: related('{"name":"long.txt"}', Buffer.from(text)),
      headers: { 'content-type': 'multipart/related; boundary=b' },
    })
    expect(res.status).toBe(200)
    const id = (res.body as { id: string }).id
    expect((res.body as { size: string }).size).toBe(String(Buffer.byteLength(text)))
    const kept = stmt(h.entry.world.db, 'SELECT full_text FROM drive_files WHERE id = ?').pluck().get(id) as string
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(MAX_FULL_TEXT_BYTES)
    expect(Buffer.byteLength(kept)).toBeGreaterThan(MAX_FULL_TEXT_BYTES - 3)
    expect(kept.startsWith('alpha €')).toBe(true)
    expect(kept.endsWith('€')).toBe(true)
    const found = async (word: string) => {
      const q = encodeURIComponent(`fullText contains '${word}'`)
      const list = await h.call('GET', `/drive/v3/files?q=${q}&fields=files(id)`)
      return (list.body as { files: { id: string }[] }).files.map((f) => f.id)
    }
    expect(await found('alpha')).toContain(id)
    expect(await found('omega')).not.toContain(id)
    // The content itself is whole.
    const media = await h.app.request(`/drive/v3/files/${id}?alt=media`, {
      headers: { authorization: `Bearer ${h.google()}` },
    })
    expect(Buffer.from(await media.arrayBuffer()).toString()).toBe(text)
  })
})
