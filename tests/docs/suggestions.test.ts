import { describe, expect, it } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { docs } from '../../envs/docs/index.ts'
import { validateAgainst } from '../support/discovery.ts'

// Seeded suggestions: seed format, ids, dumps, nested suggestions, named ranges and tables in the previews
// (docs/decisions/0280-docs-suggestions.md). The googleapis view-mode tests are in tests/sdk/docs-suggestions.test.ts.

const users = [
  { id: 'alice', email: 'alice@northwind.test', name: 'Alice Moreno' },
  { id: 'bob', email: 'bob@northwind.test', name: 'Bob Okafor' },
]
const world = (documents: unknown[]) => ({
  name: 'docs-suggestions',
  now: '2026-03-02T14:00:00Z',
  users,
  docs: { documents },
})

type Dumped = {
  suggestions: { id: string; author: string; inserted: string; deleted: string; textStyle: string[] }[]
  tabs: { paragraphs: { text: string }[]; namedRanges: { name: string; ranges: { text: string }[] }[] }[]
  text: string
}
const dumped = (h: ReturnType<typeof harness>) =>
  Object.values(docs.dump(h.entry.world).entities.documents!) as unknown as Dumped[]

async function docId(h: ReturnType<typeof harness>) {
  const list = await h.call('GET', '/drive/v3/files', { token: h.google('alice') })
  return (list.body.files as { id: string; mimeType: string }[]).find(
    (f) => f.mimeType === 'application/vnd.google-apps.document',
  )!.id
}
const paras = (doc: any): { start: number; end: number; text: string }[] =>
  doc.body.content
    .filter((e: any) => e.paragraph)
    .map((e: any) => ({
      start: e.startIndex ?? 0,
      end: e.endIndex,
      text: e.paragraph.elements.map((x: any) => x.textRun?.content ?? '').join(''),
    }))
const view = async (h: ReturnType<typeof harness>, id: string, mode: string) =>
  (await h.call('GET', `/v1/documents/${id}?suggestionsViewMode=${mode}`, { token: h.google('alice') })).body

describe('docs seed suggestions', () => {
  it('generates Google-shaped ids, the same ones for the same seed', () => {
    const seed = world([
      {
        title: 'D',
        owner: 'alice',
        content: ['one two three'],
        suggestions: [
          { author: 'bob', delete: 'two ' },
          { author: 'alice', insert: { before: 'one', text: 'zero ' } },
        ],
      },
    ])
    const a = dumped(harness(seed))[0]!.suggestions
    const b = dumped(harness(seed))[0]!.suggestions
    expect(a.map((s) => s.id)).toEqual(b.map((s) => s.id))
    for (const s of a) expect(s.id).toMatch(/^suggest\.[a-z0-9]{12}$/)
    expect(new Set(a.map((s) => s.id)).size).toBe(2)
  })

  it('refuses a suggestion whose text is not in the document, naming the document', () => {
    const seed = world([
      { title: 'D', owner: 'alice', content: ['one two'], suggestions: [{ author: 'bob', delete: 'three' }] },
    ])
    expect(() => harness(seed)).toThrow(/docs\.documents\[0\]\.suggestions: suggestion text not found: three/)
  })

  it('refuses an unknown author and a suggestion of two kinds at once', () => {
    const unknown = world([
      { title: 'D', owner: 'alice', content: ['one'], suggestions: [{ author: 'zed', delete: 'one' }] },
    ])
    expect(() => harness(unknown)).toThrow(/suggestions\[0\]\.author/)
    const both = world([
      {
        title: 'D',
        owner: 'alice',
        content: ['one'],
        suggestions: [{ author: 'bob', delete: 'one', insert: { after: 'one', text: 'x' } }],
      },
    ])
    expect(() => harness(both)).toThrow(/exactly one of/)
  })

  it('picks the n-th occurrence with `occurrence`', async () => {
    const h = harness(
      world([
        {
          title: 'D',
          owner: 'alice',
          content: ['a 5 b 5 c'],
          suggestions: [{ author: 'bob', occurrence: 2, replace: { text: '5', with: '6' } }],
        },
      ]),
    )
    const id = await docId(h)
    expect(paras(await view(h, id, 'PREVIEW_SUGGESTIONS_ACCEPTED'))[0]!.text).toBe('a 5 b 6 c\n')
  })
})

describe('drive seed of a Google Doc with suggestions', () => {
  const driveWorld = (file: Record<string, unknown>) => ({
    name: 'drive-doc-suggestions',
    now: '2026-03-02T14:00:00Z',
    users,
    drive: { files: [{ name: 'Notes', owner: 'alice', ...file }] },
  })
  const GDOC = 'application/vnd.google-apps.document'

  it('builds the suggestion into the Doc; full text search does not see the suggested text', async () => {
    const h = harness(
      driveWorld({
        mimeType: GDOC,
        text: 'Alpha\nBeta',
        suggestions: [{ id: 'suggest.gamma0001', author: 'bob', insert: { after: 'Beta', text: ' Gamma' } }],
      }),
    )
    const id = await docId(h)
    const inline = await view(h, id, 'SUGGESTIONS_INLINE')
    expect(inline.body.content[2].paragraph.elements[1].textRun).toMatchObject({
      content: ' Gamma',
      suggestedInsertionIds: ['suggest.gamma0001'],
    })
    const search = async (word: string) =>
      (
        await h.call('GET', `/drive/v3/files?q=${encodeURIComponent(`fullText contains '${word}'`)}`, {
          token: h.google('alice'),
        })
      ).body.files as unknown[]
    expect(await search('Beta')).toHaveLength(1)
    expect(await search('Gamma')).toHaveLength(0)
  })

  it('refuses suggestions on a file that is not a Google Doc with text', () => {
    expect(() =>
      harness(driveWorld({ mimeType: 'text/plain', text: 'Alpha', suggestions: [{ author: 'bob', delete: 'Alpha' }] })),
    ).toThrow(/drive\.files\[0\]\.suggestions: only a Google Doc/)
  })
})

describe('docs dump with suggestions', () => {
  it('shows the text without pending suggestions and lists each one with its author', () => {
    const h = harness(
      world([
        {
          title: 'D',
          owner: 'alice',
          content: ['Pay in 60 days.', 'Law: Ohio.'],
          suggestions: [
            { id: 'suggest.aaaa1111', author: 'bob', replace: { text: '60', with: '30' } },
            { id: 'suggest.bbbb2222', author: 'alice', textStyle: { text: 'Law', italic: true } },
          ],
        },
      ]),
    )
    const [d] = dumped(h)
    expect(d!.tabs[0]!.paragraphs.map((p) => p.text)).toEqual(['Pay in 60 days.', 'Law: Ohio.'])
    expect(d!.text).toBe('Pay in 60 days.\nLaw: Ohio.\n')
    expect(d!.suggestions).toEqual([
      {
        id: 'suggest.aaaa1111',
        author: 'bob@northwind.test',
        tabId: 't.0',
        inserted: '30',
        deleted: '60',
        textStyle: [],
        paragraphStyle: [],
      },
      {
        id: 'suggest.bbbb2222',
        author: 'alice@northwind.test',
        tabId: 't.0',
        inserted: '',
        deleted: '',
        textStyle: ['italic'],
        paragraphStyle: [],
      },
    ])
  })

  it('drops a suggestion once a batchUpdate deletes all of its text', async () => {
    const h = harness(
      world([
        {
          title: 'D',
          owner: 'alice',
          content: ['Pay in 60 days.'],
          suggestions: [{ id: 'suggest.aaaa1111', author: 'bob', replace: { text: '60', with: '30' } }],
        },
      ]),
    )
    const id = await docId(h)
    // Inline: 'Pay in ' [1, 8), '60' [8, 10) deleted, '30' [10, 12) inserted.
    const res = await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      token: h.google('alice'),
      json: { requests: [{ deleteContentRange: { range: { startIndex: 8, endIndex: 10 } } }] },
    })
    expect(res.status).toBe(200)
    expect(dumped(h)[0]!.suggestions.map((s) => [s.inserted, s.deleted])).toEqual([['30', '']])
    await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      token: h.google('alice'),
      json: { requests: [{ deleteContentRange: { range: { startIndex: 8, endIndex: 10 } } }] },
    })
    expect(dumped(h)[0]!.suggestions).toEqual([])
    expect(dumped(h)[0]!.tabs[0]!.paragraphs[0]!.text).toBe('Pay in  days.')
  })
})

describe('docs.documents.get previews', () => {
  it('lets a commenter see suggestions (inline by default) and validates every view against the discovery schema', async () => {
    const h = harness(
      world([
        {
          title: 'D',
          owner: 'alice',
          content: ['Pay in 60 days.'],
          suggestions: [{ author: 'bob', replace: { text: '60', with: '30' } }],
        },
      ]),
    )
    const id = await docId(h)
    const share = await h.call('POST', `/drive/v3/files/${id}/permissions?sendNotificationEmail=false`, {
      token: h.google('alice'),
      json: { type: 'user', role: 'commenter', emailAddress: 'bob@northwind.test' },
    })
    expect(share.status).toBe(200)
    const asBob = (q = '') => h.call('GET', `/v1/documents/${id}${q}`, { token: h.google('bob') })
    expect((await asBob()).body.suggestionsViewMode).toBe('SUGGESTIONS_INLINE')
    for (const mode of ['SUGGESTIONS_INLINE', 'PREVIEW_SUGGESTIONS_ACCEPTED', 'PREVIEW_WITHOUT_SUGGESTIONS']) {
      const res = await asBob(`?suggestionsViewMode=${mode}&includeTabsContent=true`)
      expect(res.status, mode).toBe(200)
      expect(validateAgainst('docs', 'Document', res.body), mode).toEqual([])
    }
    // A commenter cannot write: batchUpdate stays 403 with suggestions in the document.
    const write = await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      token: h.google('bob'),
      json: { requests: [{ insertText: { location: { index: 1 }, text: 'x' } }] },
    })
    expect(write.status).toBe(403)
  })

  it('drops text that one suggestion inserts and another deletes from both previews', async () => {
    const h = harness(
      world([
        {
          title: 'D',
          owner: 'alice',
          content: ['Start end.'],
          suggestions: [
            { id: 'suggest.ins00001', author: 'alice', insert: { after: 'Start', text: ' middle' } },
            { id: 'suggest.del00001', author: 'bob', delete: ' middle' },
          ],
        },
      ]),
    )
    const id = await docId(h)
    const inline = await view(h, id, 'SUGGESTIONS_INLINE')
    const run = inline.body.content[1].paragraph.elements[1].textRun
    expect(run).toMatchObject({
      content: ' middle',
      suggestedInsertionIds: ['suggest.ins00001'],
      suggestedDeletionIds: ['suggest.del00001'],
    })
    expect(paras(await view(h, id, 'PREVIEW_SUGGESTIONS_ACCEPTED'))[0]!.text).toBe('Start end.\n')
    expect(paras(await view(h, id, 'PREVIEW_WITHOUT_SUGGESTIONS'))[0]!.text).toBe('Start end.\n')
  })

  it('moves named ranges and merges paragraphs whose newline a suggestion removes', async () => {
    const h = harness(
      world([
        {
          title: 'D',
          owner: 'alice',
          content: ['First line', 'second line', 'Target'],
          namedRanges: [{ name: 'target', text: 'Target' }],
          suggestions: [
            { author: 'bob', delete: '\n' },
            { author: 'bob', insert: { before: 'Target', text: 'New ' } },
          ],
        },
      ]),
    )
    const id = await docId(h)
    const accepted = await view(h, id, 'PREVIEW_SUGGESTIONS_ACCEPTED')
    expect(paras(accepted).map((p) => p.text)).toEqual(['First linesecond line\n', 'New Target\n'])
    const range = accepted.namedRanges.target.namedRanges[0].ranges[0]
    // 'First linesecond line\n' is [1, 23); 'New ' [23, 27); 'Target' [27, 33).
    expect([range.startIndex, range.endIndex]).toEqual([27, 33])
    const without = await view(h, id, 'PREVIEW_WITHOUT_SUGGESTIONS')
    const r2 = without.namedRanges.target.namedRanges[0].ranges[0]
    expect(paras(without).map((p) => p.text)).toEqual(['First line\n', 'second line\n', 'Target\n'])
    expect([r2.startIndex, r2.endIndex]).toEqual([24, 30])
  })

  it('recomputes indexes inside a table cell', async () => {
    const h = harness(
      world([
        {
          title: 'D',
          owner: 'alice',
          content: ['Intro', { table: [['Fee', '$100']] }],
          suggestions: [{ author: 'bob', replace: { text: '$100', with: '$120' } }],
        },
      ]),
    )
    const id = await docId(h)
    const cellOf = (doc: any) => doc.body.content.find((e: any) => e.table).table.tableRows[0].tableCells[1]
    const inline = cellOf(await view(h, id, 'SUGGESTIONS_INLINE'))
    const accepted = cellOf(await view(h, id, 'PREVIEW_SUGGESTIONS_ACCEPTED'))
    expect(inline.endIndex - inline.startIndex).toBe(1 + 9)
    expect(accepted.endIndex - accepted.startIndex).toBe(1 + 5)
    expect(accepted.content[0].paragraph.elements[0].textRun.content).toBe('$120\n')
  })
})
