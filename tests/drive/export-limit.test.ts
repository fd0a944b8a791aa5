import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { EXPORT_LIMIT_BYTES } from '../../envs/drive/routes/files.ts'
import { applyRequests, checkRequests, MAX_DOCUMENT_LENGTH } from '../../envs/docs/requests/apply.ts'
import { loadDocument, saveDocument } from '../../envs/docs/store/documents.ts'

// files.export returns at most 10 MB ("the exported content is limited to 10MB"): past it Drive answers 403
// exportSizeLimitExceeded, while the Doc's exportLinks download (no such cap) still gives the bytes. A document
// holds at most 1.02 million characters, which also bounds what an export renders.
const DOC = '1SualoSl_jgWOy1mgYBc_k5veqX3xeZ8w' // "Q4 Product Roadmap" of the demo seed

describe('drive.files.export size limit', () => {
  test('an export over the limit is 403 exportSizeLimitExceeded; the export link still downloads it', async () => {
    const h = harness('demo')
    expect((await h.call('GET', `/drive/v3/files/${DOC}/export?mimeType=text/html`)).status).toBe(200)
    // 450,000 one-letter list items: under the document's length limit, past 10 MiB as HTML list markup (and more
    // paragraphs than a call's spread arguments take: the insert was a 500). batchUpdate refuses a batch this
    // costly (docs/decisions/0377), so the same requests are applied in process, as seeds are.
    const text = 'x\n'.repeat(450_000)
    const requests = [
      { insertText: { text, location: { index: 1 } } },
      {
        createParagraphBullets: {
          range: { startIndex: 1, endIndex: text.length },
          bulletPreset: 'BULLET_DISC_CIRCLE_SQUARE',
        },
      },
    ]
    h.entry.world.tx((tx) => {
      const stored = loadDocument(tx, DOC)
      const ctx = { doc: stored.model, db: tx, fileId: DOC, userEmail: 'a@x.test', nowIso: '2026-01-01T00:00:00Z' }
      applyRequests(ctx, checkRequests(requests))
      saveDocument(tx, DOC, ctx.doc, stored.revision + 1)
    })
    const refused = await h.call('GET', `/drive/v3/files/${DOC}/export?mimeType=text/html`)
    expect(refused.status).toBe(403)
    expect(refused.body.error.errors[0]).toMatchObject({
      reason: 'exportSizeLimitExceeded',
      message: 'This file is too large to be exported.',
    })
    const linked = await h.call('GET', `/feeds/download/documents/export/Export?id=${DOC}&exportFormat=html`)
    expect(linked.status).toBe(200)
    expect(Buffer.byteLength(linked.text)).toBeGreaterThan(EXPORT_LIMIT_BYTES)
    // The same document as plain text or Markdown is well under the limit (Markdown of 450,000 items was a 500).
    expect((await h.call('GET', `/drive/v3/files/${DOC}/export?mimeType=text/plain`)).status).toBe(200)
    const md = await h.call('GET', `/drive/v3/files/${DOC}/export?mimeType=text/markdown`)
    expect(md.status).toBe(200)
    expect(md.text.split('\n').filter((l) => l === '* x')).toHaveLength(450_000)
  }, 120_000)
})

describe('docs.documents.batchUpdate document length', () => {
  test('a batch that would take the document past 1.02 million characters is refused whole', async () => {
    const h = harness('demo')
    const before = await h.call('GET', `/v1/documents/${DOC}`)
    const length = (doc: any) => doc.body.content.at(-1).endIndex as number
    const room = MAX_DOCUMENT_LENGTH - length(before.body)
    const res = await h.call('POST', `/v1/documents/${DOC}:batchUpdate`, {
      json: {
        requests: [
          { insertText: { text: 'a'.repeat(room - 10), location: { index: 1 } } },
          { insertText: { text: 'b'.repeat(20), location: { index: 1 } } },
        ],
      },
    })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toContain(String(MAX_DOCUMENT_LENGTH))
    const after = await h.call('GET', `/v1/documents/${DOC}`)
    expect(after.body.revisionId).toBe(before.body.revisionId)
    expect(length(after.body)).toBe(length(before.body))
    // Up to the limit is fine.
    const ok = await h.call('POST', `/v1/documents/${DOC}:batchUpdate`, {
      json: { requests: [{ insertText: { text: 'a'.repeat(room - 10), location: { index: 1 } } }] },
    })
    expect(ok.status, ok.text.slice(0, 200)).toBe(200)
  }, 120_000)
})
