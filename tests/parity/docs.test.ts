import { describe, expect, it } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { compareShapes, recorded } from './shape.ts'

const seed = {
  name: 'docs-parity',
  now: '2026-03-02T14:00:00Z',
  users: [{ id: 'alice', email: 'alice@northwind.test', name: 'Alice Moreno' }],
}

describe('docs parity with recorded real responses', () => {
  it('docs.documents.create has the recorded shape', async () => {
    const h = harness(seed)
    const res = await h.call('POST', '/v1/documents', { json: { title: '_fixture_capture_test_doc' } })
    expect(compareShapes(res.body, recorded('gdoc', 'document_create'))).toEqual({ missing: [], extra: [] })
  })

  it('docs.documents.get has the recorded shape after an edit', async () => {
    const h = harness(seed)
    const id = (await h.call('POST', '/v1/documents', { json: { title: 't' } })).body.documentId
    await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      json: { requests: [{ insertText: { location: { index: 1 }, text: 'Goodbye fixture capture!' } }] },
    })
    const res = await h.call('GET', `/v1/documents/${id}`)
    expect(compareShapes(res.body, recorded('gdoc', 'document_get'))).toEqual({ missing: [], extra: [] })
    expect(res.body.body.content[1].endIndex).toBe(26)
  })

  it('docs.documents.batchUpdate replies have the recorded shapes', async () => {
    const h = harness(seed)
    const id = (await h.call('POST', '/v1/documents', { json: { title: 't' } })).body.documentId
    const plain = await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      json: { requests: [{ insertText: { location: { index: 1 }, text: 'Hello fixture capture!' } }] },
    })
    expect(compareShapes(plain.body, recorded('gdoc', 'document_batch_update'))).toEqual({ missing: [], extra: [] })
    const replace = await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      json: { requests: [{ replaceAllText: { containsText: { text: 'Hello' }, replaceText: 'Goodbye' } }] },
    })
    expect(compareShapes(replace.body, recorded('gdoc', 'document_batch_update_replace'))).toEqual({
      missing: [],
      extra: [],
    })
  })

  it('a missing document answers the recorded 404 body exactly', async () => {
    const h = harness(seed)
    const res = await h.call('GET', '/v1/documents/1nonexistent_document_id_xyz')
    expect(res.status).toBe(404)
    expect(res.body).toEqual(recorded('gdoc', 'document_not_found_error'))
  })
})

describe('docs responses validate against the discovery schemas', () => {
  it('docs.documents.get and docs.documents.batchUpdate bodies parse as Document and BatchUpdateDocumentResponse', async () => {
    const { Document, BatchUpdateDocumentResponse } = (await import('../../envs/docs/api/schemas.gen.ts')).docsSchemas()
    const h = harness(seed)
    const id = (await h.call('POST', '/v1/documents', { json: { title: 't' } })).body.documentId
    const update = await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      json: {
        requests: [
          { insertText: { location: { index: 1 }, text: 'Heading\nText with chips ' } },
          { insertTable: { endOfSegmentLocation: {}, rows: 2, columns: 2 } },
          {
            createParagraphBullets: {
              range: { startIndex: 9, endIndex: 12 },
              bulletPreset: 'BULLET_DISC_CIRCLE_SQUARE',
            },
          },
          { createHeader: { type: 'DEFAULT' } },
          { createFootnote: { location: { index: 3 } } },
          { insertInlineImage: { location: { index: 2 }, uri: 'https://example.com/i.png' } },
          { insertPerson: { location: { index: 2 }, personProperties: { email: 'alice@northwind.test' } } },
          { insertDate: { location: { index: 2 } } },
          { createNamedRange: { name: 'n', range: { startIndex: 1, endIndex: 3 } } },
          { addDocumentTab: { tabProperties: { title: 'Second' } } },
        ],
      },
    })
    expect(update.status).toBe(200)
    expect(BatchUpdateDocumentResponse.safeParse(update.body).success).toBe(true)
    for (const q of ['', '?includeTabsContent=true']) {
      const doc = await h.call('GET', `/v1/documents/${id}${q}`)
      const parsed = Document.safeParse(doc.body)
      expect(parsed.success ? 'ok' : JSON.stringify(parsed.error.issues[0])).toBe('ok')
    }
  })
})
