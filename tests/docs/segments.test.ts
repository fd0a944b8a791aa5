import { describe, expect, it } from 'vitest'
import { engine } from './engine.ts'

describe('docs.documents.batchUpdate headers, footers and footnotes', () => {
  it('createHeader and createFooter make DEFAULT segments addressable by segmentId', () => {
    const e = engine(['body'])
    const [h, f] = e.apply({ createHeader: { type: 'DEFAULT' } }, { createFooter: { type: 'DEFAULT' } }) as any[]
    const headerId = h.createHeader.headerId
    const footerId = f.createFooter.footerId
    expect(headerId).toMatch(/^kix\.[a-z0-9]{12}$/)
    e.apply(
      { insertText: { location: { segmentId: headerId, index: 0 }, text: 'Confidential' } },
      { insertText: { endOfSegmentLocation: { segmentId: footerId }, text: 'Page' } },
    )
    const w = e.wire()
    expect(w.documentStyle.defaultHeaderId).toBe(headerId)
    expect(w.documentStyle.defaultFooterId).toBe(footerId)
    expect(w.headers[headerId].content[0]).toMatchObject({
      endIndex: 13,
      paragraph: { elements: [{ endIndex: 13, textRun: { content: 'Confidential\n' } }] },
    })
    expect(w.headers[headerId].content[0].startIndex).toBeUndefined()
    expect(w.footers[footerId].headerId).toBeUndefined()
    expect(w.footers[footerId].footerId).toBe(footerId)
    expect(e.error({ createHeader: { type: 'DEFAULT' } })).toMatch(/already exists/)
  })

  it('deleteHeader removes the segment and the document style reference', () => {
    const e = engine()
    const [h] = e.apply({ createHeader: { type: 'DEFAULT' } }) as any[]
    e.apply({ deleteHeader: { headerId: h.createHeader.headerId } })
    expect(e.wire().headers).toBeUndefined()
    expect(e.wire().documentStyle.defaultHeaderId).toBeUndefined()
    expect(e.error({ deleteFooter: { footerId: 'kix.nope' } })).toMatch(/footer with ID kix.nope does not exist/)
  })

  it('createFootnote inserts a numbered reference and a footnote segment; deleting the reference removes it', () => {
    const e = engine(['Claim'])
    const [r] = e.apply({ createFootnote: { location: { index: 6 } } }) as any[]
    const id = r.createFootnote.footnoteId
    const els = e.body()[1].paragraph.elements
    expect(els[1]).toMatchObject({
      startIndex: 6,
      endIndex: 7,
      footnoteReference: { footnoteId: id, footnoteNumber: '1' },
    })
    expect(e.wire().footnotes[id].content[0].paragraph.elements[0].textRun.content).toBe(' \n')
    e.apply({ insertText: { location: { segmentId: id, index: 1 }, text: 'Source: survey' } })
    expect(e.wire().footnotes[id].content[0].endIndex).toBe(16)
    expect(e.error({ createFootnote: { location: { segmentId: id, index: 0 } } })).toMatch(
      /only be inserted in the body/,
    )
    e.apply({ deleteContentRange: { range: { startIndex: 6, endIndex: 7 } } })
    expect(e.wire().footnotes).toBeUndefined()
  })

  it('insertPageBreak puts a page break and a newline in the body only', () => {
    const e = engine(['ab'])
    e.apply({ insertPageBreak: { location: { index: 2 } } })
    const paras = e.body().slice(1)
    expect(paras).toHaveLength(2)
    expect(paras[0].paragraph.elements.map((x: any) => Object.keys(x).pop())).toEqual([
      'textRun',
      'pageBreak',
      'textRun',
    ])
    expect(paras[0].endIndex).toBe(4)
    expect(paras[1].startIndex).toBe(4)
    expect(e.text()).toBe('a\nb\n')
  })
})

describe('docs.documents.batchUpdate named ranges', () => {
  it('createNamedRange tracks its text through inserts and deletes before it', () => {
    const e = engine(['Dear NAME, welcome'])
    const [r] = e.apply({ createNamedRange: { name: 'who', range: { startIndex: 6, endIndex: 10 } } }) as any[]
    const id = r.createNamedRange.namedRangeId
    e.apply(
      { insertText: { location: { index: 1 }, text: 'Oh ' } },
      { insertText: { location: { index: 11 }, text: 'X' } },
    )
    const nr = e.wire().namedRanges.who.namedRanges[0]
    expect(nr.namedRangeId).toBe(id)
    expect(nr.ranges[0]).toMatchObject({ startIndex: 9, endIndex: 14 })
    e.apply({ deleteContentRange: { range: { startIndex: 1, endIndex: 4 } } })
    expect(e.wire().namedRanges.who.namedRanges[0].ranges[0]).toMatchObject({ startIndex: 6, endIndex: 11 })
  })

  it('replaceNamedRangeContent replaces the text and the range spans the new text', () => {
    const e = engine(['Dear NAME, welcome'])
    e.apply({ createNamedRange: { name: 'who', range: { startIndex: 6, endIndex: 10 } } })
    e.apply({ replaceNamedRangeContent: { namedRangeName: 'who', text: 'Dr. Alice Smith' } })
    expect(e.text()).toBe('Dear Dr. Alice Smith, welcome\n')
    expect(e.wire().namedRanges.who.namedRanges[0].ranges[0]).toMatchObject({ startIndex: 6, endIndex: 21 })
  })

  it('deleteNamedRange by id and name; an unknown id is an error; a too long name is refused', () => {
    const e = engine(['abc'])
    const [a] = e.apply({ createNamedRange: { name: 'n', range: { startIndex: 1, endIndex: 2 } } }) as any[]
    e.apply({ createNamedRange: { name: 'n', range: { startIndex: 2, endIndex: 3 } } })
    expect(e.wire().namedRanges.n.namedRanges).toHaveLength(2)
    e.apply({ deleteNamedRange: { namedRangeId: a.createNamedRange.namedRangeId } })
    expect(e.wire().namedRanges.n.namedRanges).toHaveLength(1)
    e.apply({ deleteNamedRange: { name: 'n' } })
    expect(e.wire().namedRanges).toBeUndefined()
    expect(e.error({ deleteNamedRange: { namedRangeId: 'kix.none' } })).toMatch(/does not exist/)
    expect(e.error({ createNamedRange: { name: 'x'.repeat(257), range: { startIndex: 1, endIndex: 2 } } })).toMatch(
      /between 1 and 256/,
    )
  })

  it('a named range whose text is deleted disappears', () => {
    const e = engine(['abcdef'])
    e.apply(
      { createNamedRange: { name: 'mid', range: { startIndex: 3, endIndex: 5 } } },
      { deleteContentRange: { range: { startIndex: 2, endIndex: 6 } } },
    )
    expect(e.wire().namedRanges).toBeUndefined()
  })
})
