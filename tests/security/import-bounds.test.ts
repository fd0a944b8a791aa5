import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { indexStats } from '../../envs/docs/model/block-index.ts'
import { writeZip } from '../../envs/docs/render/zip.ts'

// What one agent request could make the server do with JSON nested inside another body and with uploads converted
// to a Google Doc (docs/decisions/0401): each is refused or done in linear work, never minutes of the one thread.

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
const GOOGLE_DOC = 'application/vnd.google-apps.document'
const UPLOAD = '/upload/drive/v3/files?uploadType=multipart'
const headers = { 'content-type': 'multipart/related; boundary=bnd' }

const related = (meta: string, media: Uint8Array | string = 'hello', type = 'text/plain') =>
  Buffer.concat([
    Buffer.from(`--bnd\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${meta}\r\n--bnd\r\n`),
    Buffer.from(`Content-Type: ${type}\r\n\r\n`),
    Buffer.from(media),
    Buffer.from('\r\n--bnd--'),
  ])

/** A zip of deflated entries (the export's own writer; enough of the format for mammoth's reader). */
const zip = (entries: Record<string, string | Buffer>) =>
  writeZip(
    Object.entries(entries).map(([name, content]) => ({ name, data: Buffer.from(content) })),
    0,
  )

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
/** A .docx whose body is `body` (WordprocessingML). */
const docx = (body: string) =>
  zip({
    '[Content_Types].xml':
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/></Types>',
    '_rels/.rels':
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Target="word/document.xml" ' +
      'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"/></Relationships>',
    'word/document.xml': `<?xml version="1.0"?><w:document ${W}><w:body>${body}</w:body></w:document>`,
  })
const para = (text: string) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`

async function fileCount(h: ReturnType<typeof harness>) {
  const res = await h.call('GET', '/drive/v3/files?pageSize=1000&fields=files(id)&q=trashed%3Dfalse')
  return (res.body.files as unknown[]).length
}

describe('drive.files.create multipart metadata', () => {
  test('nested deeper than any API takes answers 400 parseError before it is parsed (a 500 before)', async () => {
    const h = harness('demo')
    const deep = '['.repeat(100_000) + ']'.repeat(100_000)
    const res = await h.call('POST', UPLOAD, { body: related(`{"name":"x","appProperties":${deep}}`), headers })
    expect(res.status, res.text).toBe(400)
    expect(res.body.error.errors[0].reason).toBe('parseError')
    const ok = await h.call('POST', UPLOAD, { body: related('{"name":"x","appProperties":{"a":"b"}}'), headers })
    expect(ok.status, ok.text).toBe(200)
  })
})

describe('chat.postMessage', () => {
  test('a form argument holding JSON nested past 64 levels is refused and nothing is posted', async () => {
    const h = harness('demo')
    const token = h.slack('alice')
    const nested = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)
    // A block keeps members it does not know; before, one nested this deep was stored as sent.
    const blocks = (n: number) => `[{"type":"section","text":{"type":"mrkdwn","text":"x"},"extra":${nested(n)}}]`
    const post = (n: number) =>
      h.call('POST', '/api/chat.postMessage', { form: { channel: 'general', text: 'deep', blocks: blocks(n) }, token })
    const deep = await post(100)
    expect(deep.body.ok, deep.text).toBe(false)
    expect(deep.body.error).toBe('invalid_arguments')
    const fine = await post(10)
    expect(fine.body.ok, fine.text).toBe(true)
  })
})

describe('drive.files.create converting to a Google Doc', () => {
  test('a text upload of 3,000 lines is built in linear work (each line re-measured the whole document)', async () => {
    const h = harness('demo')
    const before = indexStats.measured
    const meta = JSON.stringify({ name: 'lines', mimeType: GOOGLE_DOC })
    const res = await h.call('POST', UPLOAD, { body: related(meta, 'a\n'.repeat(3000)), headers })
    expect(res.status, res.text).toBe(200)
    // Before: every line rebuilt the block index of every line before it, about 4.5 million measurements.
    expect(indexStats.measured - before).toBeLessThan(30_000)
    const doc = await h.call('GET', `/v1/documents/${res.body.id}`)
    expect(doc.body.body.content).toHaveLength(3001) // the section break and 3,000 paragraphs
  })

  test('past the work of one batchUpdate the import answers 400 and stores no file', async () => {
    const h = harness('demo')
    const count = await fileCount(h)
    const meta = JSON.stringify({ name: 'many', mimeType: GOOGLE_DOC })
    const res = await h.call('POST', UPLOAD, { body: related(meta, 'a\n'.repeat(40_000)), headers })
    expect(res.status, res.text).toBe(400)
    expect(res.body.error.message).toMatch(/too many paragraphs/)
    expect(await fileCount(h)).toBe(count)
  })

  test('a .docx that inflates past its bound, has too many elements or nests too deep is refused at once', async () => {
    const h = harness('demo')
    const count = await fileCount(h)
    const meta = JSON.stringify({ name: 'bomb', mimeType: GOOGLE_DOC })
    const bombs = {
      // 40 MB of one paragraph's text, packed into about 40 KB.
      inflated: docx(`<w:p><w:r><w:t>${' '.repeat(40 * 1024 * 1024)}</w:t></w:r></w:p>`),
      // 50,000 paragraphs (150,000 elements): mammoth took about 6 s over 100,000 before.
      elements: docx(para('a').repeat(50_000)),
      // 5,000 nested elements in a few KB: mammoth overflowed its stack after walking them.
      deep: docx('<w:x>'.repeat(5000) + '</w:x>'.repeat(5000)),
    }
    for (const [what, bytes] of Object.entries(bombs)) {
      expect(bytes.length, what).toBeLessThan(200_000)
      const res = await h.call('POST', UPLOAD, { body: related(meta, bytes, DOCX), headers })
      expect(res.status, `${what}: ${res.text}`).toBe(400)
      expect(res.body.error.errors[0].reason, what).toBe('badContent')
    }
    expect(await fileCount(h)).toBe(count)
    // An ordinary .docx, an attribute value holding `/>` included, still converts.
    const fine = docx(para('Hello') + '<w:p w:rsidR="a/>b">' + '<w:r><w:t>world</w:t></w:r></w:p>')
    const ok = await h.call('POST', UPLOAD, { body: related(meta, fine, DOCX), headers })
    expect(ok.status, ok.text).toBe(200)
    const doc = await h.call('GET', `/v1/documents/${ok.body.id}`)
    expect(JSON.stringify(doc.body.body.content)).toContain('world')
  })
})
