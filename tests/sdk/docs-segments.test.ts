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

describe('docs batches that address what an earlier request changed (0461)', () => {
  test('an image an earlier request deleted cannot be replaced: the batch is refused, the image kept', async () => {
    const id = await newDoc('Photo here')
    const made = await update(id, [{ insertInlineImage: { location: { index: 6 }, uri: 'https://example.com/a.png' } }])
    const image = made.data.replies![0]!.insertInlineImage!.objectId!
    const before = await get(id)
    const sent = update(id, [
      { deleteContentRange: { range: { startIndex: 6, endIndex: 7 } } },
      { replaceImage: { imageObjectId: image, uri: 'https://example.com/b.png' } },
    ])
    // The old code found the deleted image's entry (kept until the batch ended) and answered 200.
    await expect(sent).rejects.toMatchObject({ status: 400 })
    await expect(sent).rejects.toThrow(`The image with ID ${image} does not exist.`)
    expect(await get(id)).toEqual(before)
    // In the other order the batch is fine, and the image goes with its element.
    await update(id, [
      { replaceImage: { imageObjectId: image, uri: 'https://example.com/b.png' } },
      { deleteContentRange: { range: { startIndex: 6, endIndex: 7 } } },
    ])
    const after = await get(id)
    expect(after.inlineObjects).toBeUndefined()
    expect(after.body!.content!.map((c) => c.paragraph?.elements?.[0]?.textRun?.content).join('')).toBe('Photo here\n')
  })

  test('a footnote whose reference an earlier request deleted cannot be written: the batch is refused', async () => {
    const id = await newDoc('Claim here')
    const made = await update(id, [{ createFootnote: { location: { index: 6 } } }])
    const note = made.data.replies![0]!.createFootnote!.footnoteId!
    const before = await get(id)
    const sent = update(id, [
      { deleteContentRange: { range: { startIndex: 6, endIndex: 7 } } },
      { insertText: { location: { segmentId: note, index: 0 }, text: 'lost' } },
    ])
    // The old code answered 200 and dropped the written text at the end of the batch.
    await expect(sent).rejects.toMatchObject({ status: 400 })
    await expect(sent).rejects.toThrow(`requests[1].insertText: The segment with ID ${note} does not exist.`)
    const after = await get(id)
    expect(after.revisionId).toBe(before.revisionId)
    expect(Object.keys(after.footnotes ?? {})).toEqual([note])
  })

  test('a footnote referenced from a deleted table row goes at once too', async () => {
    const id = await newDoc('ab')
    await update(id, [{ insertTable: { rows: 2, columns: 2, location: { index: 3 } } }])
    const table = (await get(id)).body!.content![2]!
    const cell = table.table!.tableRows![1]!.tableCells![0]!.content![0]!.startIndex!
    const made = await update(id, [
      { insertText: { location: { index: cell }, text: 'Cell' } },
      { createFootnote: { location: { index: cell + 2 } } },
    ])
    const note = made.data.replies![1]!.createFootnote!.footnoteId!
    const row = { tableStartLocation: { index: table.startIndex! }, rowIndex: 1, columnIndex: 0 }
    const sent = update(id, [
      { deleteTableRow: { tableCellLocation: row } },
      { insertText: { location: { segmentId: note, index: 0 }, text: 'lost' } },
    ])
    // The old code answered 200 and dropped the footnote, with the text written into it, at the end of the batch.
    await expect(sent).rejects.toThrow(`requests[1].insertText: The segment with ID ${note} does not exist.`)
    expect(Object.keys((await get(id)).footnotes ?? {})).toEqual([note])
    await update(id, [{ deleteTableRow: { tableCellLocation: row } }])
    expect((await get(id)).footnotes).toBeUndefined()
  })
})

describe('docs section headers', () => {
  test("a header at the body's first section break is the document's", async () => {
    const id = await newDoc('Intro\nChapter')
    await update(id, [{ insertSectionBreak: { location: { index: 6 }, sectionType: 'NEXT_PAGE' } }])
    const made = await update(id, [{ createHeader: { type: 'DEFAULT', sectionBreakLocation: { index: 0 } } }])
    const header = made.data.replies![0]!.createHeader!.headerId!
    const doc = await get(id)
    // The old code set it on the first section break's style and left the document without a header.
    expect(doc.documentStyle?.defaultHeaderId).toBe(header)
    const breaks = (doc.body?.content ?? []).filter((e) => e.sectionBreak)
    expect(breaks.map((e) => e.sectionBreak!.sectionStyle?.defaultHeaderId)).toEqual([undefined, undefined])
    // A second one for the document, either way, is refused.
    await expect(update(id, [{ createHeader: { type: 'DEFAULT' } }])).rejects.toMatchObject({ status: 400 })
    // The second section's own header is its own.
    const own = await update(id, [{ createHeader: { type: 'DEFAULT', sectionBreakLocation: { index: 7 } } }])
    const second = own.data.replies![0]!.createHeader!.headerId!
    const again = await get(id)
    expect(again.documentStyle?.defaultHeaderId).toBe(header)
    const styles = (again.body?.content ?? []).filter((e) => e.sectionBreak).map((e) => e.sectionBreak!.sectionStyle)
    expect(styles.map((s) => s?.defaultHeaderId)).toEqual([undefined, second])
  })
})
