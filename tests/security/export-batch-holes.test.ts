import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { demoSeed } from '../../seeds/demo/index.ts'
import { readZip } from '../../envs/docs/render/zip.ts'
import { MAX_TABLE_NESTING } from '../../envs/docs/requests/tables.ts'

// Holes a red team found in the surfaces of 0367 and 0370 (docs/decisions/0374): the exportLinks download, the
// zipped HTML export, nested tables and the per-API batch endpoints. Each test fails on the code before the fix.

const DOC = '1SualoSl_jgWOy1mgYBc_k5veqX3xeZ8w' // "Q4 Product Roadmap" of the demo seed, alice's
const GMAIL_READONLY = 'https://www.googleapis.com/auth/gmail.readonly'
const exportLink = (id: string, format: string) =>
  `/feeds/download/documents/export/Export?id=${id}&exportFormat=${format}`

describe('the exportLinks download', () => {
  test('needs one of drive.files.export scopes, as files.export does', async () => {
    const seed = demoSeed(1) as Record<string, any>
    const h = harness({
      ...seed,
      identity: { ...seed.identity, tokenScopes: [{ user: 'alice', scopes: [GMAIL_READONLY] }] },
    })
    const narrow = h.google('alice')
    const api = await h.call('GET', `/drive/v3/files/${DOC}/export?mimeType=text/plain`, { token: narrow })
    const link = await h.call('GET', exportLink(DOC, 'txt'), { token: narrow })
    expect(api.status).toBe(403)
    expect(link.status).toBe(403)
    expect(link.body.error.errors[0].reason).toBe('insufficientPermissions')
    expect(link.body.error.details[0].metadata.method).toBe('drive.files.export')
    expect(link.text).not.toContain('Q4 Product Roadmap')
    // A token with a Drive scope follows it as before.
    const full = await harness('demo').call('GET', exportLink(DOC, 'txt'))
    expect(full.status).toBe(200)
    expect(full.text).toContain('Q4 Product Roadmap')
  })
})

describe('drive.files.export to application/zip', () => {
  test('a 70,000-character title names the page by its first 250 bytes, not a 500', async () => {
    const h = harness('demo')
    const title = `${'é'.repeat(35_000)}`
    const id = (await h.call('POST', '/v1/documents', { json: { title } })).body.documentId as string
    for (const path of [`/drive/v3/files/${id}/export?mimeType=application/zip`, exportLink(id, 'zip')]) {
      const res = await h.app.request(path, { headers: { authorization: `Bearer ${h.google()}` } })
      expect(res.status).toBe(200)
      const [entry] = readZip(Buffer.from(await res.arrayBuffer()))
      expect(entry!.name).toBe(`${'é'.repeat(125)}.html`)
    }
  })
})

describe('drive.files.export to Word', () => {
  test('drops the characters XML cannot hold from text, links and the title, as ODT and EPUB do', async () => {
    const h = harness('demo')
    const bad = 'a\ufffeb\uffffc\u0001de'
    const id = (await h.call('POST', '/v1/documents', { json: { title: `T${bad}` } })).body.documentId as string
    const requests = [
      { insertText: { location: { index: 1 }, text: `Text ${bad}\n` } },
      {
        updateTextStyle: {
          range: { startIndex: 1, endIndex: 5 },
          textStyle: { link: { url: `https://x.test/${bad}` } },
          fields: 'link',
        },
      },
    ]
    expect((await h.call('POST', `/v1/documents/${id}:batchUpdate`, { json: { requests } })).status).toBe(200)
    const res = await h.app.request(exportLink(id, 'docx'), { headers: { authorization: `Bearer ${h.google()}` } })
    expect(res.status).toBe(200)
    const parts = readZip(Buffer.from(await res.arrayBuffer())).filter((p) => /\.(xml|rels)$/.test(p.name))
    const text = parts.map((p) => p.data.toString('utf8')).join('\n')
    expect(text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/)
    expect(text).toContain('>Text<')
    expect(text).toContain('> abcde<')
    expect(text).toContain('https://x.test/abcde')
    expect(text).toContain('<dc:title>Tabcde</dc:title>')
  })
})

describe('docs.documents.batchUpdate insertTable', () => {
  /** Requests that nest `n` one-cell tables, each in the cell of the one before (a table's cell starts 4 on). */
  const nested = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      insertTable: { rows: 1, columns: 1, location: { index: i === 0 ? 1 : 1 + 4 * i } },
    }))
  const depthOf = (content: any[]): number =>
    Math.max(0, ...content.filter((b) => b.table).map((b) => 1 + depthOf(b.table.tableRows[0].tableCells[0].content)))

  test(`nests tables ${MAX_TABLE_NESTING} deep and refuses one more, leaving the document as it was`, async () => {
    const h = harness('demo')
    const id = (await h.call('POST', '/v1/documents', { json: { title: 'Nest' } })).body.documentId as string
    const batch = (requests: unknown[]) => h.call('POST', `/v1/documents/${id}:batchUpdate`, { json: { requests } })
    expect((await batch(nested(MAX_TABLE_NESTING))).status).toBe(200)
    const before = (await h.call('GET', `/v1/documents/${id}`)).text
    expect(depthOf(JSON.parse(before).body.content)).toBe(MAX_TABLE_NESTING)
    const more = await batch([{ insertTable: { rows: 1, columns: 1, location: { index: 1 + 4 * MAX_TABLE_NESTING } } }])
    expect(more.status).toBe(400)
    expect(more.body.error.message).toContain(`Tables can be nested at most ${MAX_TABLE_NESTING} deep.`)
    expect((await h.call('GET', `/v1/documents/${id}`)).text).toBe(before)
  })

  test('a batch nesting 300 tables is refused (it held the server for seconds)', async () => {
    const h = harness('demo')
    const id = (await h.call('POST', '/v1/documents', { json: { title: 'Nest' } })).body.documentId as string
    const res = await h.call('POST', `/v1/documents/${id}:batchUpdate`, { json: { requests: nested(300) } })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toContain(`requests[${MAX_TABLE_NESTING}].insertTable`)
  })
})

describe('the per-API batch endpoints', () => {
  const send = (h: ReturnType<typeof harness>, parts: string[]) =>
    h.call('POST', '/batch/gmail/v1', {
      body: `${parts.map((p) => `--b\r\nContent-Type: application/http\r\n\r\n${p}\r\n`).join('')}--b--`,
      headers: { 'content-type': 'multipart/mixed; boundary=b' },
    })

  test('a target that only looks absolute (`http:`, `httpx/…`) is a 404 part; the rest still run', async () => {
    const h = harness('demo')
    const res = await send(h, ['GET http:', 'GET httpx/gmail/v1/users/me/profile', 'GET /gmail/v1/users/me/profile'])
    expect(res.status).toBe(200)
    expect([...res.text.matchAll(/^HTTP\/1\.1 (\d+)/gm)].map((m) => m[1])).toEqual(['404', '404', '200'])
    expect(res.text).toContain('"emailAddress"')
    expect(res.text.trimEnd().endsWith('--')).toBe(true)
  })

  test('a target no URL can be made of, or a header line HTTP cannot carry, is a 400, not a 500', async () => {
    const h = harness('demo')
    const profile = 'GET /gmail/v1/users/me/profile'
    for (const part of [
      'GET http://[::1/gmail/v1/users/me/profile',
      `${profile}\r\nBad Name: x`,
      `${profile}\r\nX-Value: a\u0000b`,
      `${profile}\r\nX-Value: \u20ac`,
    ]) {
      const res = await send(h, [part])
      expect(res.status, JSON.stringify(part)).toBe(400)
      expect(res.body.error.message).toMatch(/^Malformed batch part (header|request line)/)
    }
  })
})
