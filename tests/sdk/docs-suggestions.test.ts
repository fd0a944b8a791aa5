import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google, type docs_v1 } from 'googleapis'
import { startSdkServer, type SdkServer } from './server.ts'
import { validateAgainst } from '../support/discovery.ts'

// Suggestions seeded by named authors, read in the three view modes and edited around with batchUpdate
// (docs/decisions/0280-docs-suggestions.md).

const LEGAL = 'suggest.legal0000001'
const INTERN = 'suggest.intern000001'
const STYLE = 'suggest.style0000001'
const HEADING = 'suggest.heading00001'
const DROP = 'suggest.drop00000001'

const seed = {
  name: 'docs-suggestions-sdk',
  now: '2026-03-02T14:00:00Z',
  users: [
    { id: 'alice', email: 'alice@northwind.test', name: 'Alice Moreno' },
    { id: 'bob', email: 'bob@northwind.test', name: 'Bob Okafor' },
    { id: 'carol', email: 'carol@northwind.test', name: 'Carol Intern' },
    { id: 'dave', email: 'dave@northwind.test', name: 'Dave Reader' },
  ],
  docs: { documents: ['Supply agreement', 'Edited agreement'].map(agreement) },
}

function agreement(title: string) {
  return {
    title,
    owner: 'alice',
    content: [
      'Payment is due within 60 days of invoice.',
      'Either party may terminate with notice.',
      'This paragraph goes.',
      'Governing law: Delaware.',
    ],
    suggestions: [
      { id: LEGAL, author: 'bob', replace: { text: '60', with: '30' } },
      { id: INTERN, author: 'carol', insert: { after: 'terminate with', text: ' 90 days' } },
      { id: STYLE, author: 'bob', textStyle: { text: 'Governing law', bold: true } },
      { id: HEADING, author: 'carol', paragraphStyle: { text: 'Governing law', namedStyleType: 'HEADING_2' } },
      { id: DROP, author: 'carol', delete: 'This paragraph goes.\n' },
    ].map((x) => (title === 'Supply agreement' ? x : { ...x, id: x.id.replace('suggest.', 'suggest.e') })),
  }
}

let server: SdkServer
let documentId = ''
let editedId = ''
beforeAll(async () => {
  server = await startSdkServer(seed)
  const idOf = async (name: string) =>
    (await driveFor('alice').files.list({ q: `name = '${name}'` })).data.files![0]!.id!
  documentId = await idOf('Supply agreement')
  editedId = await idOf('Edited agreement')
  await driveFor('alice').permissions.create({
    fileId: documentId,
    sendNotificationEmail: false,
    requestBody: { type: 'user', role: 'reader', emailAddress: 'dave@northwind.test' },
  })
})
afterAll(async () => {
  await server.close()
})

const docsFor = (user: string) => google.docs({ version: 'v1', auth: server.auth(user), rootUrl: server.url })
const driveFor = (user: string) => google.drive({ version: 'v3', auth: server.auth(user), rootUrl: server.url })

type Mode = 'SUGGESTIONS_INLINE' | 'PREVIEW_SUGGESTIONS_ACCEPTED' | 'PREVIEW_WITHOUT_SUGGESTIONS'
const get = (mode?: Mode, user = 'alice', id = documentId) =>
  docsFor(user).documents.get({ documentId: id, ...(mode ? { suggestionsViewMode: mode } : {}) }, { retry: false })
const edit = (requests: docs_v1.Schema$Request[]) =>
  docsFor('alice').documents.batchUpdate({ documentId: editedId, requestBody: { requests } }, { retry: false })
const views = async () => ({
  inline: (await get('SUGGESTIONS_INLINE', 'alice', editedId)).data,
  accepted: texts((await get('PREVIEW_SUGGESTIONS_ACCEPTED', 'alice', editedId)).data),
  without: texts((await get('PREVIEW_WITHOUT_SUGGESTIONS', 'alice', editedId)).data),
})

const paragraphs = (doc: docs_v1.Schema$Document) =>
  doc
    .body!.content!.filter((e) => e.paragraph)
    .map((e) => ({
      start: e.startIndex ?? 0,
      end: e.endIndex!,
      paragraph: e.paragraph!,
      text: e.paragraph!.elements!.map((x) => x.textRun?.content ?? '').join(''),
    }))
const texts = (doc: docs_v1.Schema$Document) => paragraphs(doc).map((p) => p.text)
const runs = (doc: docs_v1.Schema$Document) =>
  paragraphs(doc).flatMap((p) =>
    p.paragraph.elements!.map((x) => ({ start: x.startIndex, end: x.endIndex, ...x.textRun })),
  )

/** Every element and paragraph is contiguous: each starts where the one before it ended. */
function expectContiguous(doc: docs_v1.Schema$Document) {
  const content = doc.body!.content!
  for (let k = 1; k < content.length; k++) expect(content[k]!.startIndex).toBe(content[k - 1]!.endIndex)
  for (const p of paragraphs(doc)) {
    let at = p.start
    for (const x of p.paragraph.elements!) {
      expect(x.startIndex ?? 0).toBe(at)
      at = x.endIndex!
    }
    expect(at).toBe(p.end)
  }
}

describe('docs.documents.get suggestionsViewMode', () => {
  test('SUGGESTIONS_INLINE shows suggested text with its ids, style and paragraph style changes', async () => {
    const { data } = await get('SUGGESTIONS_INLINE')
    expect(data.suggestionsViewMode).toBe('SUGGESTIONS_INLINE')
    expect(validateAgainst('docs', 'Document', data)).toEqual([])
    expect(texts(data)).toEqual([
      'Payment is due within 6030 days of invoice.\n',
      'Either party may terminate with 90 days notice.\n',
      'This paragraph goes.\n',
      'Governing law: Delaware.\n',
    ])
    const r = runs(data)
    expect(r.find((x) => x.content === '60')).toMatchObject({ start: 23, end: 25, suggestedDeletionIds: [LEGAL] })
    expect(r.find((x) => x.content === '30')).toMatchObject({ start: 25, end: 27, suggestedInsertionIds: [LEGAL] })
    expect(r.find((x) => x.content === ' 90 days')).toMatchObject({ suggestedInsertionIds: [INTERN] })
    expect(r.find((x) => x.content === 'This paragraph goes.\n')).toMatchObject({ suggestedDeletionIds: [DROP] })
    const law = r.find((x) => x.content === 'Governing law')!
    expect(law.textStyle).toEqual({})
    expect(law.suggestedTextStyleChanges).toEqual({
      [STYLE]: { textStyle: { bold: true }, textStyleSuggestionState: { boldSuggested: true } },
    })
    const lawPara = paragraphs(data).find((p) => p.text.startsWith('Governing'))!.paragraph
    expect(lawPara.paragraphStyle!.namedStyleType).toBe('NORMAL_TEXT')
    expect(lawPara.suggestedParagraphStyleChanges).toEqual({
      [HEADING]: {
        paragraphStyle: { namedStyleType: 'HEADING_2' },
        paragraphStyleSuggestionState: { namedStyleTypeSuggested: true },
      },
    })
    // Plain text between suggestions carries no marks.
    expect(r.find((x) => x.content === 'Payment is due within ')).not.toHaveProperty('suggestedInsertionIds')
    expectContiguous(data)
  })

  test('PREVIEW_SUGGESTIONS_ACCEPTED applies every suggestion, recomputes indexes and shows no marks', async () => {
    const { data } = await get('PREVIEW_SUGGESTIONS_ACCEPTED')
    expect(data.suggestionsViewMode).toBe('PREVIEW_SUGGESTIONS_ACCEPTED')
    expect(texts(data)).toEqual([
      'Payment is due within 30 days of invoice.\n',
      'Either party may terminate with 90 days notice.\n',
      'Governing law: Delaware.\n',
    ])
    expect(paragraphs(data).map((p) => [p.start, p.end])).toEqual([
      [1, 43],
      [43, 91],
      [91, 116],
    ])
    const law = runs(data).find((x) => x.content === 'Governing law')!
    expect(law.textStyle).toEqual({ bold: true })
    expect(paragraphs(data)[2]!.paragraph.paragraphStyle!.namedStyleType).toBe('HEADING_2')
    expect(JSON.stringify(data)).not.toMatch(/suggested|suggest\./)
    expectContiguous(data)
  })

  test('PREVIEW_WITHOUT_SUGGESTIONS rejects every suggestion, with indexes of its own', async () => {
    const { data } = await get('PREVIEW_WITHOUT_SUGGESTIONS')
    expect(texts(data)).toEqual([
      'Payment is due within 60 days of invoice.\n',
      'Either party may terminate with notice.\n',
      'This paragraph goes.\n',
      'Governing law: Delaware.\n',
    ])
    expect(paragraphs(data).map((p) => [p.start, p.end])).toEqual([
      [1, 43],
      [43, 83],
      [83, 104],
      [104, 129],
    ])
    expect(runs(data).find((x) => x.content?.startsWith('Governing'))!.textStyle).toEqual({})
    expect(paragraphs(data)[3]!.paragraph.paragraphStyle!.namedStyleType).toBe('NORMAL_TEXT')
    expect(JSON.stringify(data)).not.toMatch(/suggested|suggest\./)
    expectContiguous(data)
  })

  test('a writer gets SUGGESTIONS_INLINE by default, a reader the preview without suggestions', async () => {
    expect((await get()).data.suggestionsViewMode).toBe('SUGGESTIONS_INLINE')
    const asReader = await get(undefined, 'dave')
    expect(asReader.data.suggestionsViewMode).toBe('PREVIEW_WITHOUT_SUGGESTIONS')
    expect(texts(asReader.data)[0]).toBe('Payment is due within 60 days of invoice.\n')
  })

  test('a reader asking for a view with suggestions gets 403', async () => {
    for (const mode of ['SUGGESTIONS_INLINE', 'PREVIEW_SUGGESTIONS_ACCEPTED'] as const) {
      const err = await get(mode, 'dave').catch((e: { status?: number }) => e)
      expect((err as { status?: number }).status, mode).toBe(403)
    }
  })

  test('Drive exports the text without pending suggestions', async () => {
    const res = await driveFor('alice').files.export(
      { fileId: documentId, mimeType: 'text/plain' },
      { responseType: 'text' },
    )
    expect(String(res.data).replace(/^\ufeff/, '')).toBe(
      [
        'Payment is due within 60 days of invoice.',
        'Either party may terminate with notice.',
        'This paragraph goes.',
        'Governing law: Delaware.',
        '',
      ].join('\r\n'),
    )
  })
})

// These edit one document in order: each test starts from the state the one before left.
describe('docs.documents.batchUpdate near suggestions', () => {
  test('indexes address the SUGGESTIONS_INLINE document: its end bounds insertions', async () => {
    // The inline body ends at 139 (the preview without suggestions ends at 129): 138 is inside, 139 is not.
    const err = await edit([{ insertText: { location: { index: 139 }, text: 'x' } }]).catch((e) => e)
    expect(err.status).toBe(400)
    expect(err.message).toContain('must be less than the end index of the referenced segment, 139.')
    await edit([{ insertText: { location: { index: 138 }, text: '!' } }])
    const { inline, without } = await views()
    expect(texts(inline)[3]).toBe('Governing law: Delaware.!\n')
    expect(without[3]).toBe('Governing law: Delaware.!\n')
  })

  test('text inserted right after a suggested insertion is a real edit without suggestion ids', async () => {
    // '30' (suggested by legal) is [25, 27) inline; text at 27 follows it.
    await edit([{ insertText: { location: { index: 27 }, text: ' (net)' } }])
    const { inline, accepted, without } = await views()
    const r = runs(inline)
    expect(r.find((x) => x.content === '30')).toMatchObject({
      start: 25,
      end: 27,
      suggestedInsertionIds: ['suggest.elegal0000001'],
    })
    const added = r.find((x) => x.content?.startsWith(' (net)'))!
    expect(added.start).toBe(27)
    expect(added).not.toHaveProperty('suggestedInsertionIds')
    expect(added).not.toHaveProperty('suggestedDeletionIds')
    expect(accepted[0]).toBe('Payment is due within 30 (net) days of invoice.\n')
    expect(without[0]).toBe('Payment is due within 60 (net) days of invoice.\n')
  })

  test('text inserted inside a suggested insertion splits it; only the suggested parts carry the id', async () => {
    const start = runs((await views()).inline).find((x) => x.content === ' 90 days')!.start!
    await edit([{ insertText: { location: { index: start + 3 }, text: '-120' } }])
    const { inline, accepted, without } = await views()
    const parts = runs(inline).filter((x) => x.start! >= start && x.end! <= start + 12)
    expect(parts.map((x) => [x.content, x.suggestedInsertionIds ?? []])).toEqual([
      [' 90', ['suggest.eintern000001']],
      ['-120', []],
      [' days', ['suggest.eintern000001']],
    ])
    expect(accepted[1]).toBe('Either party may terminate with 90-120 days notice.\n')
    expect(without[1]).toBe('Either party may terminate with-120 notice.\n')
  })

  test('applying a suggestion by hand removes it: delete the suggested deletion, retype the insertion', async () => {
    // Inline: '60' [23, 25) is legal's deletion, '30' [25, 27) legal's insertion.
    await edit([
      { deleteContentRange: { range: { startIndex: 23, endIndex: 27 } } },
      { insertText: { location: { index: 23 }, text: '30' } },
    ])
    const { inline, accepted, without } = await views()
    expect(JSON.stringify(inline)).not.toContain('suggest.elegal')
    expect(JSON.stringify(inline)).toContain('suggest.eintern')
    expect(accepted[0]).toBe('Payment is due within 30 (net) days of invoice.\n')
    expect(without[0]).toBe('Payment is due within 30 (net) days of invoice.\n')
    const r = runs(inline)
    expect(r.find((x) => x.content?.startsWith('Payment'))).not.toHaveProperty('suggestedInsertionIds')
  })

  test("deleting a suggested deletion's paragraph for real removes it from every view", async () => {
    const para = paragraphs((await views()).inline).find((p) => p.text === 'This paragraph goes.\n')!
    await edit([{ deleteContentRange: { range: { startIndex: para.start, endIndex: para.end } } }])
    const { inline, accepted, without } = await views()
    expect(JSON.stringify(inline)).not.toContain('suggest.edrop')
    expect(accepted).toEqual([
      'Payment is due within 30 (net) days of invoice.\n',
      'Either party may terminate with 90-120 days notice.\n',
      'Governing law: Delaware.!\n',
    ])
    expect(without).toEqual([
      'Payment is due within 30 (net) days of invoice.\n',
      'Either party may terminate with-120 notice.\n',
      'Governing law: Delaware.!\n',
    ])
    expectContiguous(inline)
  })

  test('Drive full-text search reads the text without pending suggestions', async () => {
    const q = (word: string) => driveFor('alice').files.list({ q: `fullText contains '${word}'` })
    expect((await q('with-120')).data.files!.map((f) => f.id)).toContain(editedId)
    expect((await q('90-120')).data.files!.map((f) => f.id)).not.toContain(editedId)
  })
})
