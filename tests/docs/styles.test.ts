import { describe, expect, it } from 'vitest'
import { engine } from './engine.ts'

describe('docs.documents.batchUpdate updateTextStyle', () => {
  it('splits runs at the range edges and applies only the masked fields', () => {
    const e = engine(['Hello world'])
    e.apply({
      updateTextStyle: {
        range: { startIndex: 7, endIndex: 12 },
        textStyle: { bold: true, italic: true },
        fields: 'bold',
      },
    })
    const els = e.body()[1].paragraph.elements
    expect(els.map((x: any) => [x.startIndex, x.endIndex, x.textRun.content, x.textRun.textStyle])).toEqual([
      [1, 7, 'Hello ', {}],
      [7, 12, 'world', { bold: true }],
      [12, 13, '\n', {}],
    ])
  })

  it('clears a field listed in the mask but absent from the style, and requires fields', () => {
    const e = engine([{ text: 'x', bold: true }])
    e.apply({ updateTextStyle: { range: { startIndex: 1, endIndex: 2 }, textStyle: {}, fields: 'bold' } })
    expect(e.body()[1].paragraph.elements[0].textRun.textStyle).toEqual({ italic: false })
    expect(e.error({ updateTextStyle: { range: { startIndex: 1, endIndex: 2 }, textStyle: { bold: true } } })).toBe(
      `Invalid requests[0].updateTextStyle: At least one field must be listed in 'fields'. (Use '*' to indicate all fields.)`,
    )
    expect(
      e.error({ updateTextStyle: { range: { startIndex: 1, endIndex: 2 }, textStyle: {}, fields: 'sparkle' } }),
    ).toMatch(/Invalid field: sparkle/)
  })

  it('sets links', () => {
    const e = engine(['see docs'])
    e.apply({
      updateTextStyle: {
        range: { startIndex: 5, endIndex: 9 },
        textStyle: { link: { url: 'https://example.com' } },
        fields: 'link',
      },
    })
    expect(e.body()[1].paragraph.elements[1].textRun.textStyle.link).toEqual({ url: 'https://example.com' })
  })
})

describe('docs.documents.batchUpdate updateParagraphStyle', () => {
  it('styles every paragraph the range touches and gives headings a headingId', () => {
    const e = engine(['one', 'two', 'three'])
    e.apply({
      updateParagraphStyle: {
        range: { startIndex: 2, endIndex: 6 },
        paragraphStyle: { namedStyleType: 'HEADING_2', alignment: 'CENTER' },
        fields: 'namedStyleType,alignment',
      },
    })
    const ps = e
      .body()
      .slice(1)
      .map((p: any) => p.paragraph.paragraphStyle)
    expect(ps.map((s: any) => s.namedStyleType)).toEqual(['HEADING_2', 'HEADING_2', 'NORMAL_TEXT'])
    expect(ps[0].alignment).toBe('CENTER')
    expect(ps[0].headingId).toMatch(/^h\.[a-z0-9]{12}$/)
    expect(ps[2].headingId).toBeUndefined()
  })
})

describe('docs.documents.batchUpdate createParagraphBullets', () => {
  it('creates one list, uses leading tabs as nesting levels and removes them', () => {
    const e = engine(['a', '\tb', '\t\tc'])
    e.apply({
      createParagraphBullets: { range: { startIndex: 1, endIndex: 10 }, bulletPreset: 'NUMBERED_DECIMAL_ALPHA_ROMAN' },
    })
    const paras = e.body().slice(1)
    expect(e.text()).toBe('a\nb\nc\n')
    const ids = new Set(paras.map((p: any) => p.paragraph.bullet.listId))
    expect(ids.size).toBe(1)
    expect(paras.map((p: any) => p.paragraph.bullet.nestingLevel ?? 0)).toEqual([0, 1, 2])
    const list = e.wire().lists[[...ids][0] as string]
    expect(list.listProperties.nestingLevels).toHaveLength(9)
    expect(list.listProperties.nestingLevels[0].glyphType).toBe('DECIMAL')
    expect(paras[2].endIndex).toBe(7)
  })

  it('deleteParagraphBullets removes bullets and keeps the indent', () => {
    const e = engine([{ bullets: ['x', 'y'] }])
    e.apply({ deleteParagraphBullets: { range: { startIndex: 1, endIndex: 3 } } })
    const p = e.body()[1].paragraph
    expect(p.bullet).toBeUndefined()
    expect(p.paragraphStyle.indentStart).toEqual({ magnitude: 36, unit: 'PT' })
    expect(e.body()[2].paragraph.bullet).toBeDefined()
  })

  it('rejects an unknown preset', () => {
    expect(
      engine(['a']).error({
        createParagraphBullets: { range: { startIndex: 1, endIndex: 2 }, bulletPreset: 'SPARKLES' },
      }),
    ).toMatch(/^Invalid value at 'requests\[0\]\.createParagraphBullets\.bulletPreset'.*"SPARKLES"$/)
    expect(engine(['a']).error({ createParagraphBullets: { range: { startIndex: 1, endIndex: 2 } } })).toMatch(
      /Invalid bullet preset/,
    )
  })
})

describe('docs.documents.batchUpdate document, named and section styles', () => {
  it('updateDocumentStyle changes margins; header ids are read-only', () => {
    const e = engine()
    e.apply({
      updateDocumentStyle: { documentStyle: { marginTop: { magnitude: 36, unit: 'PT' } }, fields: 'marginTop' },
    })
    expect(e.wire().documentStyle.marginTop).toEqual({ magnitude: 36, unit: 'PT' })
    expect(e.wire().documentStyle.marginBottom).toEqual({ magnitude: 72, unit: 'PT' })
    expect(
      e.error({ updateDocumentStyle: { documentStyle: { defaultHeaderId: 'x' }, fields: 'defaultHeaderId' } }),
    ).toMatch(/read-only/)
  })

  it('updateNamedStyle changes a named style field', () => {
    const e = engine()
    e.apply({
      updateNamedStyle: {
        namedStyle: { namedStyleType: 'HEADING_1', textStyle: { bold: true } },
        fields: 'textStyle.bold',
      },
    })
    const h1 = e.wire().namedStyles.styles.find((s: any) => s.namedStyleType === 'HEADING_1')
    expect(h1.textStyle).toEqual({ fontSize: { magnitude: 20, unit: 'PT' }, bold: true })
  })

  it('insertSectionBreak adds a section and updateSectionStyle changes it', () => {
    const e = engine(['first', 'second'])
    e.apply({ insertSectionBreak: { location: { index: 7 }, sectionType: 'NEXT_PAGE' } })
    const body = e.body()
    const sb = body.filter((x: any) => x.sectionBreak)
    expect(sb).toHaveLength(2)
    expect(sb[1].startIndex).toBe(8)
    expect(sb[1].sectionBreak.sectionStyle.sectionType).toBe('NEXT_PAGE')
    e.apply({
      updateSectionStyle: {
        range: { startIndex: 9, endIndex: 10 },
        sectionStyle: { marginLeft: { magnitude: 10, unit: 'PT' } },
        fields: 'marginLeft',
      },
    })
    expect(e.body().filter((x: any) => x.sectionBreak)[1].sectionBreak.sectionStyle.marginLeft).toEqual({
      magnitude: 10,
      unit: 'PT',
    })
    expect(e.body().filter((x: any) => x.sectionBreak)[0].sectionBreak.sectionStyle.marginLeft).toBeUndefined()
  })
})
