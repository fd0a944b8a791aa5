import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google, type docs_v1 } from 'googleapis'
import { startSdkServer, type SdkServer } from './server.ts'

// Headers, footers and footnotes through googleapis (docs/decisions/0456).

let server: SdkServer
beforeAll(async () => {
  server = await startSdkServer({
    name: 'docs-segments',
    now: '2026-03-02T14:00:00Z',
    users: [{ id: 'alice', email: 'alice@northwind.test', name: 'Alice Moreno' }],
  })
})
afterAll(async () => {
  await server.close()
})

const docs = () => google.docs({ version: 'v1', auth: server.auth('alice'), rootUrl: server.url, retry: false })
async function newDoc(text: string): Promise<string> {
  const { data } = await docs().documents.create({ requestBody: { title: 'Segments' } })
  await update(data.documentId!, [{ insertText: { location: { index: 1 }, text } }])
  return data.documentId!
}
const update = (documentId: string, requests: docs_v1.Schema$Request[]) =>
  docs().documents.batchUpdate({ documentId, requestBody: { requests } })
const get = async (documentId: string) => (await docs().documents.get({ documentId })).data

describe('docs footnotes and their named ranges', () => {
  test('a named range inside a footnote goes when the footnote reference is deleted', async () => {
    const id = await newDoc('Claim')
    const made = await update(id, [{ createFootnote: { location: { index: 6 } } }])
    const note = made.data.replies![0]!.createFootnote!.footnoteId!
    await update(id, [
      { insertText: { location: { segmentId: note, index: 1 }, text: 'Survey 2025' } },
      { createNamedRange: { name: 'source', range: { segmentId: note, startIndex: 1, endIndex: 7 } } },
    ])
    expect((await get(id)).namedRanges?.source?.namedRanges?.[0]?.ranges).toEqual([
      { segmentId: note, startIndex: 1, endIndex: 7, tabId: 't.0' },
    ])
    await update(id, [{ deleteContentRange: { range: { startIndex: 6, endIndex: 7 } } }])
    const doc = await get(id)
    expect(doc.footnotes).toBeUndefined()
    // The old code kept the range, naming a segment that no longer exists.
    expect(doc.namedRanges).toBeUndefined()
  })
})
