import { describe, expect, it } from 'vitest'
import { engine } from './engine.ts'

describe('docs.documents.batchUpdate images and chips', () => {
  it('insertInlineImage adds an inline object element and replaceImage swaps its uri', () => {
    const e = engine(['pic: '])
    const [r] = e.apply({
      insertInlineImage: {
        location: { index: 6 },
        uri: 'https://example.com/a.png',
        objectSize: { width: { magnitude: 50, unit: 'PT' } },
      },
    }) as any[]
    const id = r.insertInlineImage.objectId
    const el = e.body()[1].paragraph.elements[1]
    expect(el).toMatchObject({ startIndex: 6, endIndex: 7, inlineObjectElement: { inlineObjectId: id } })
    const emb = e.wire().inlineObjects[id].inlineObjectProperties.embeddedObject
    expect(emb.size.width).toEqual({ magnitude: 50, unit: 'PT' })
    e.apply({ replaceImage: { imageObjectId: id, uri: 'https://example.com/b.png' } })
    expect(e.wire().inlineObjects[id].inlineObjectProperties.embeddedObject.imageProperties.sourceUri).toBe(
      'https://example.com/b.png',
    )
    expect(e.error({ insertInlineImage: { location: { index: 1 }, uri: 'ftp://x' } })).toMatch(/Invalid image URI/)
    expect(e.error({ replaceImage: { imageObjectId: 'kix.nope', uri: 'https://example.com/c.png' } })).toMatch(
      /does not exist/,
    )
  })

  it('insertPerson, insertRichLink and insertDate add one-unit chips', () => {
    const e = engine(['x'])
    e.apply(
      { insertPerson: { location: { index: 1 }, personProperties: { email: 'bob@northwind.test', name: 'Bob' } } },
      {
        insertRichLink: {
          location: { index: 2 },
          richLinkProperties: { uri: 'https://docs.google.com/document/d/abc', title: 'Plan' },
        },
      },
      { insertDate: { location: { index: 3 }, dateElementProperties: { timestamp: '2026-03-05T00:00:00Z' } } },
    )
    const els = e.body()[1].paragraph.elements
    expect(els.map((x: any) => Object.keys(x).pop())).toEqual(['person', 'richLink', 'dateElement', 'textRun'])
    expect(els[0].person.personProperties).toEqual({ email: 'bob@northwind.test', name: 'Bob' })
    expect(els[2].dateElement.dateElementProperties.displayText).toBe('Mar 5, 2026')
    expect(els[3].startIndex).toBe(4)
    expect(e.error({ insertPerson: { location: { index: 1 }, personProperties: {} } })).toMatch(/email/)
    expect(
      e.error({ insertRichLink: { location: { index: 1 }, richLinkProperties: { uri: 'https://evil.test/x' } } }),
    ).toMatch(/rich link URI/)
  })

  it('deletePositionedObject rejects unknown ids', () => {
    expect(engine().error({ deletePositionedObject: { objectId: 'kix.none' } })).toMatch(
      /positioned object with ID kix.none does not exist/,
    )
  })
})

describe('docs.documents.batchUpdate tabs', () => {
  it('addDocumentTab, updateDocumentTabProperties and deleteTab manage tabs and their indices', () => {
    const e = engine(['first tab'])
    const [r] = e.apply({ addDocumentTab: { tabProperties: { title: 'Notes', index: 0 } } }) as any[]
    const tabId = r.addDocumentTab.tabProperties.tabId
    expect(tabId).toMatch(/^t\.[a-z0-9]{12}$/)
    expect(e.ctx.doc.tabs.map((t) => [t.props.title, t.props.index])).toEqual([
      ['Notes', 0],
      ['Tab 1', 1],
    ])
    e.apply({ insertText: { location: { tabId, index: 1 }, text: 'in notes' } })
    expect(e.text()).toBe('in notes\nfirst tab\n')
    e.apply({
      updateDocumentTabProperties: { tabProperties: { tabId, title: 'Renamed', index: 1 }, fields: 'title,index' },
    })
    expect(e.ctx.doc.tabs.map((t) => t.props.title)).toEqual(['Tab 1', 'Renamed'])
    const [child] = e.apply({ addDocumentTab: { tabProperties: { title: 'Child', parentTabId: tabId } } }) as any[]
    expect(child.addDocumentTab.tabProperties).toMatchObject({ parentTabId: tabId, nestingLevel: 1, index: 0 })
    e.apply({ deleteTab: { tabId } })
    expect(e.ctx.doc.tabs).toHaveLength(1)
    expect(e.error({ deleteTab: { tabId: 't.0' } })).toMatch(/only tab/)
    expect(e.error({ insertText: { location: { tabId: 't.missing', index: 1 }, text: 'x' } })).toMatch(
      /tab with ID t.missing does not exist/,
    )
  })
})
