import { describe, expect, it } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

const seed = {
  name: 'docs-routes',
  now: '2026-03-02T14:00:00Z',
  users: [
    { id: 'alice', email: 'alice@northwind.test', name: 'Alice Moreno' },
    { id: 'bob', email: 'bob@northwind.test', name: 'Bob Okafor' },
  ],
  docs: { documents: [{ title: 'Plan', owner: 'alice', content: ['Hello world', { table: [['a', 'b']] }] }] },
}

async function setup() {
  const h = harness(seed)
  const alice = h.google('alice')
  const created = await h.call('POST', '/v1/documents', { json: { title: 'Fresh doc' }, token: alice })
  return { h, alice, bob: h.google('bob'), id: created.body.documentId as string, created }
}

const textOf = (doc: any) =>
  doc.body.content
    .filter((e: any) => e.paragraph)
    .map((e: any) => e.paragraph.elements.map((x: any) => x.textRun?.content ?? '').join(''))
    .join('')

describe('docs.documents.create', () => {
  it('creates a blank document with tabs and legacy content fields', async () => {
    const { created } = await setup()
    expect(created.status).toBe(200)
    expect(created.body.title).toBe('Fresh doc')
    expect(created.body.documentId).toMatch(/^1[A-Za-z0-9_-]{32}$/)
    expect(created.body.body.content).toHaveLength(2)
    expect(created.body.tabs[0].tabProperties).toEqual({ tabId: 't.0', title: 'Tab 1', index: 0 })
    expect(created.body.revisionId).toMatch(/^[A-Za-z0-9_-]{40,}$/)
    expect(created.body.namedStyles.styles).toHaveLength(9)
  })

  it("is a Google Doc file in the creator's Drive", async () => {
    const { h, alice, id } = await setup()
    const file = await h.call('GET', `/drive/v3/files/${id}?fields=id,name,mimeType`, { token: alice })
    expect(file.body).toEqual({ id, name: 'Fresh doc', mimeType: 'application/vnd.google-apps.document' })
  })

  it('rejects a non-JSON body and a non-string title', async () => {
    const { h, alice } = await setup()
    expect(
      (
        await h.call('POST', '/v1/documents', {
          body: '{oops',
          headers: { 'content-type': 'application/json' },
          token: alice,
        })
      ).status,
    ).toBe(400)
    expect((await h.call('POST', '/v1/documents', { json: { title: 5 }, token: alice })).status).toBe(400)
  })
})

describe('docs.documents.get', () => {
  it('returns the first tab in legacy fields by default and only tabs with includeTabsContent', async () => {
    const { h, alice, id } = await setup()
    const plain = await h.call('GET', `/v1/documents/${id}`, { token: alice })
    expect(plain.status).toBe(200)
    expect(plain.body.tabs).toBeUndefined()
    expect(plain.body.body.content[1].paragraph.elements[0].textRun.content).toBe('\n')
    expect(plain.body.suggestionsViewMode).toBe('SUGGESTIONS_INLINE')
    const tabs = await h.call('GET', `/v1/documents/${id}?includeTabsContent=true`, { token: alice })
    expect(tabs.body.body).toBeUndefined()
    expect(tabs.body.tabs[0].documentTab.body.content).toHaveLength(2)
  })

  it('answers 404 for an unknown document and 403 for one not shared with the caller', async () => {
    const { h, bob, id } = await setup()
    const missing = await h.call('GET', '/v1/documents/1nope', { token: bob })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({
      error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' },
    })
    const hidden = await h.call('GET', `/v1/documents/${id}`, { token: bob })
    expect(hidden.status).toBe(403)
    expect(hidden.body).toEqual({
      error: { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' },
    })
  })

  it('reads seeded content with tables', async () => {
    const { h, alice } = await setup()
    const { docs } = await import('../../envs/docs/index.ts')
    const all = docs.dump(h.entry.world).entities.documents as Record<string, any>
    const planId = Object.keys(all).find((k) => all[k].text.startsWith('Hello world'))!
    const doc = await h.call('GET', `/v1/documents/${planId}`, { token: alice })
    expect(doc.body.title).toBe('Plan')
    expect(doc.body.body.content.some((e: any) => e.table?.rows === 1)).toBe(true)
    expect(textOf(doc.body)).toContain('Hello world\n')
  })
})

describe('docs.documents.batchUpdate', () => {
  it('applies requests in order, returns per-request replies and a new revision', async () => {
    const { h, alice, id, created } = await setup()
    const res = await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      token: alice,
      json: {
        requests: [
          { insertText: { location: { index: 1 }, text: 'Hello NAME' } },
          { replaceAllText: { containsText: { text: 'name', matchCase: false }, replaceText: 'Bob' } },
          { createNamedRange: { name: 'greet', range: { startIndex: 1, endIndex: 6 } } },
        ],
      },
    })
    expect(res.status).toBe(200)
    expect(res.body.documentId).toBe(id)
    expect(res.body.replies[0]).toEqual({})
    expect(res.body.replies[1]).toEqual({ replaceAllText: { occurrencesChanged: 1 } })
    expect(res.body.replies[2].createNamedRange.namedRangeId).toMatch(/^kix\./)
    expect(res.body.writeControl.requiredRevisionId).not.toBe(created.body.revisionId)
    const doc = await h.call('GET', `/v1/documents/${id}`, { token: alice })
    expect(textOf(doc.body)).toBe('Hello Bob\n')
    expect(doc.body.revisionId).toBe(res.body.writeControl.requiredRevisionId)
  })

  it('is atomic: one invalid request leaves the document and its revision unchanged', async () => {
    const { h, alice, id, created } = await setup()
    const res = await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      token: alice,
      json: {
        requests: [
          { insertText: { location: { index: 1 }, text: 'kept?' } },
          { deleteContentRange: { range: { startIndex: 1, endIndex: 99 } } },
        ],
      },
    })
    expect(res.status).toBe(400)
    expect(res.body.error.status).toBe('INVALID_ARGUMENT')
    expect(res.body.error.message).toMatch(/^Invalid requests\[1\]\.deleteContentRange: /)
    const doc = await h.call('GET', `/v1/documents/${id}`, { token: alice })
    expect(textOf(doc.body)).toBe('\n')
    expect(doc.body.revisionId).toBe(created.body.revisionId)
  })

  it('honours writeControl.requiredRevisionId', async () => {
    const { h, alice, id, created } = await setup()
    const first = await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      token: alice,
      json: {
        requests: [{ insertText: { location: { index: 1 }, text: 'a' } }],
        writeControl: { requiredRevisionId: created.body.revisionId },
      },
    })
    expect(first.status).toBe(200)
    const stale = await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      token: alice,
      json: {
        requests: [{ insertText: { location: { index: 1 }, text: 'b' } }],
        writeControl: { requiredRevisionId: created.body.revisionId },
      },
    })
    expect(stale.status).toBe(400)
    expect(stale.body.error.status).toBe('FAILED_PRECONDITION')
    const bogus = await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      token: alice,
      json: {
        requests: [{ insertText: { location: { index: 1 }, text: 'b' } }],
        writeControl: { targetRevisionId: 'nope' },
      },
    })
    expect(bogus.status).toBe(400)
    const target = await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      token: alice,
      json: {
        requests: [{ insertText: { location: { index: 1 }, text: 'c' } }],
        writeControl: { targetRevisionId: created.body.revisionId },
      },
    })
    expect(target.status).toBe(200)
  })

  it('rejects unknown request kinds, empty batches and unknown top-level fields', async () => {
    const { h, alice, id } = await setup()
    const unknown = await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      token: alice,
      json: { requests: [{ makeItPretty: {} }] },
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.message).toBe(
      `Invalid JSON payload received. Unknown name "makeItPretty" at 'requests[0]': Cannot find field.`,
    )
    expect(
      (await h.call('POST', `/v1/documents/${id}:batchUpdate`, { token: alice, json: { requests: [] } })).status,
    ).toBe(400)
    expect(
      (await h.call('POST', `/v1/documents/${id}:batchUpdate`, { token: alice, json: { requests: [], extra: 1 } }))
        .status,
    ).toBe(400)
    const wc = await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      token: alice,
      json: { requests: [{ insertText: { location: { index: 1 }, text: 'x' } }], writeControl: { revision: 'x' } },
    })
    expect(wc.body.error.message).toBe(
      `Invalid JSON payload received. Unknown name "revision" at 'write_control': Cannot find field.`,
    )
    expect(
      (await h.call('POST', `/v1/documents/${id}:batchUpdate`, { token: alice, json: { requests: 'insertText' } }))
        .status,
    ).toBe(400)
  })

  it('lets a writer edit and refuses a reader and a caller it is not shared with (403)', async () => {
    const { h, alice, bob, id } = await setup()
    const edit = { json: { requests: [{ insertText: { location: { index: 1 }, text: 'x' } }] } }
    expect((await h.call('POST', `/v1/documents/${id}:batchUpdate`, { token: bob, ...edit })).status).toBe(403)
    const share = await h.call('POST', `/drive/v3/files/${id}/permissions?sendNotificationEmail=false`, {
      token: alice,
      json: { role: 'reader', type: 'user', emailAddress: 'bob@northwind.test' },
    })
    expect(share.status).toBe(200)
    expect((await h.call('GET', `/v1/documents/${id}`, { token: bob })).status).toBe(200)
    const denied = await h.call('POST', `/v1/documents/${id}:batchUpdate`, { token: bob, ...edit })
    expect(denied.status).toBe(403)
    expect(denied.body.error.status).toBe('PERMISSION_DENIED')
    await h.call('PATCH', `/drive/v3/files/${id}/permissions/${share.body.id}`, {
      token: alice,
      json: { role: 'writer' },
    })
    expect((await h.call('POST', `/v1/documents/${id}:batchUpdate`, { token: bob, ...edit })).status).toBe(200)
  })

  it('updates the Drive file: modifiedTime, version and full-text search', async () => {
    const { h, alice, id } = await setup()
    const before = await h.call('GET', `/drive/v3/files/${id}?fields=modifiedTime,version`, { token: alice })
    await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      token: alice,
      json: { requests: [{ insertText: { location: { index: 1 }, text: 'quarterly zephyr numbers' } }] },
    })
    const after = await h.call('GET', `/drive/v3/files/${id}?fields=modifiedTime,version`, { token: alice })
    expect(Date.parse(after.body.modifiedTime)).toBeGreaterThan(Date.parse(before.body.modifiedTime))
    expect(Number(after.body.version)).toBeGreaterThan(Number(before.body.version))
    const found = await h.call('GET', `/drive/v3/files?q=${encodeURIComponent("fullText contains 'zephyr'")}`, {
      token: alice,
    })
    expect(found.body.files.map((f: any) => f.id)).toContain(id)
  })
})

describe('docs dump', () => {
  it('exposes documents with text, paragraphs, tables and named ranges for oracles', async () => {
    const { h, alice, id } = await setup()
    await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      token: alice,
      json: {
        requests: [
          { insertText: { location: { index: 1 }, text: 'Title\nBody' } },
          {
            updateParagraphStyle: {
              range: { startIndex: 1, endIndex: 2 },
              paragraphStyle: { namedStyleType: 'HEADING_1' },
              fields: 'namedStyleType',
            },
          },
        ],
      },
    })
    const { docs } = await import('../../envs/docs/index.ts')
    const state = docs.dump(h.entry.world) as any
    const d = state.entities.documents[id]
    expect(d.text).toBe('Title\nBody\n')
    expect(d.revision).toBe(1)
    expect(d.tabs[0].paragraphs.map((p: any) => [p.text, p.namedStyleType])).toEqual([
      ['Title', 'HEADING_1'],
      ['Body', 'NORMAL_TEXT'],
    ])
    await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      token: alice,
      json: {
        requests: [
          {
            updateTextStyle: {
              range: { startIndex: 7, endIndex: 9 },
              textStyle: { bold: true, link: { url: 'https://x.test' } },
              fields: 'bold,link',
            },
          },
        ],
      },
    })
    const again = (docs.dump(h.entry.world) as any).entities.documents[id]
    expect(again.tabs[0].paragraphs[1].styled).toEqual([{ text: 'Bo', bold: true, link: 'https://x.test' }])
    expect(again.tabs[0].paragraphs[1].links).toEqual(['https://x.test'])
    expect(again.revision).toBe(2)
    const plan = Object.values(state.entities.documents).find((x: any) => x.text.startsWith('Hello world')) as any
    expect(plan.tabs[0].tables[0].cells).toEqual([['a', 'b']])
  })
})

describe('docs.documents.get parameters', () => {
  it('rejects a malformed includeTabsContent and suggestionsViewMode in the Docs envelope', async () => {
    const { h, alice, id } = await setup()
    const bad = await h.call('GET', `/v1/documents/${id}?includeTabsContent=maybe`, { token: alice })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({
      error: {
        code: 400,
        message: `Invalid value at 'include_tabs_content' (TYPE_BOOL), "maybe"`,
        status: 'INVALID_ARGUMENT',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: [
              {
                field: 'include_tabs_content',
                description: `Invalid value at 'include_tabs_content' (TYPE_BOOL), "maybe"`,
              },
            ],
          },
        ],
      },
    })
    expect((await h.call('GET', `/v1/documents/${id}?suggestionsViewMode=ALL`, { token: alice })).status).toBe(400)
    const ok = await h.call('GET', `/v1/documents/${id}?suggestionsViewMode=PREVIEW_SUGGESTIONS_ACCEPTED`, {
      token: alice,
    })
    expect(ok.body.suggestionsViewMode).toBe('PREVIEW_SUGGESTIONS_ACCEPTED')
  })
})

describe('docs.documents.get on a Drive-made Google Doc', () => {
  it('reads a Google Doc file without stored content as an empty document and edits it', async () => {
    const { h, alice } = await setup()
    const { createGoogleDocFile } = await import('../../envs/drive/docs-bridge.ts')
    const users = h.entry.world.db.$client.prepare('SELECT id FROM world_users').all() as { id: string }[]
    const { id } = h.entry.world.tx((db) => createGoogleDocFile(db, { ownerId: users[0]!.id, title: 'From Drive' }))
    const doc = await h.call('GET', `/v1/documents/${id}`, { token: alice })
    expect(doc.status).toBe(200)
    expect(doc.body.title).toBe('From Drive')
    expect(textOf(doc.body)).toBe('\n')
    const edit = await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      token: alice,
      json: { requests: [{ insertText: { endOfSegmentLocation: {}, text: 'now with text' } }] },
    })
    expect(edit.status).toBe(200)
    expect(textOf((await h.call('GET', `/v1/documents/${id}`, { token: alice })).body)).toBe('now with text\n')
  })
})

describe('docs.documents.get on other Drive files', () => {
  it('answers FAILED_PRECONDITION for a visible file that is not a Google Doc', async () => {
    const { h, alice } = await setup()
    const file = await h.call('POST', '/drive/v3/files', {
      token: alice,
      json: { name: 'notes.txt', mimeType: 'text/plain' },
    })
    expect(file.status).toBe(200)
    const res = await h.call('GET', `/v1/documents/${file.body.id}`, { token: alice })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      error: { code: 400, message: 'This operation is not supported for this document', status: 'FAILED_PRECONDITION' },
    })
  })
})
