import { describe, expect, it } from 'vitest'
import { inflateRawSync } from 'node:zlib'
import { engine } from './engine.ts'
import { renderHtml } from '../../envs/docs/render/html.ts'
import { renderMarkdown } from '../../envs/docs/render/markdown.ts'
import { renderRtf } from '../../envs/docs/render/rtf.ts'
import { renderDocx } from '../../envs/docs/render/docx.ts'
import { renderPdf } from '../../envs/docs/render/pdf.ts'
import { plainText } from '../../envs/docs/render/text.ts'

const sample = () =>
  engine([
    { text: 'Plan <A&B>', style: 'HEADING_1' },
    { text: 'Bold words', bold: true },
    { text: 'Docs', link: 'https://example.com/docs' },
    { bullets: ['one', 'two'] },
    { bullets: ['first', 'second'], numbered: true },
    {
      table: [
        ['Name', 'Qty'],
        ['Widget', '3'],
      ],
    },
    'Fin — ünïcode 😀',
  ])

/** The uncompressed bytes of one entry of a zip archive (enough for a docx written by JSZip). */
function zipEntry(zip: Buffer, name: string): string {
  let at = 0
  while ((at = zip.indexOf('PK\u0003\u0004', at, 'latin1')) >= 0) {
    const method = zip.readUInt16LE(at + 8)
    const size = zip.readUInt32LE(at + 18)
    const nameLen = zip.readUInt16LE(at + 26)
    const extra = zip.readUInt16LE(at + 28)
    const entry = zip.subarray(at + 30, at + 30 + nameLen).toString()
    const data = zip.subarray(at + 30 + nameLen + extra, at + 30 + nameLen + extra + size)
    if (entry === name) return (method === 8 ? inflateRawSync(data) : data).toString('utf8')
    at += 4
  }
  throw new Error(`no ${name}`)
}

describe('docs rendering (Drive export formats)', () => {
  it('plain text has every paragraph and tab-separated cells', () => {
    expect(plainText(sample().ctx.doc)).toBe(
      'Plan <A&B>\nBold words\nDocs\none\ntwo\nfirst\nsecond\nName\tQty\nWidget\t3\nFin — ünïcode 😀\n',
    )
  })

  it('html escapes text and renders headings, bold, links, lists and tables', () => {
    const html = renderHtml(sample().ctx.doc, 'T')
    expect(html).toContain('<h1><span>Plan &lt;A&amp;B&gt;</span></h1>')
    expect(html).toContain('font-weight:700')
    expect(html).toContain('<a href="https://example.com/docs">')
    expect(html).toMatch(/<ul><li[^>]*><span>one<\/span><\/li><li[^>]*><span>two<\/span><\/li><\/ul>/)
    expect(html).toMatch(/<ol><li[^>]*><span>first<\/span>/)
    expect(html).toMatch(/<table[^>]*><tr><td[^>]*><p><span>Name<\/span><\/p><\/td>/)
    expect(html).toContain('<title>T</title>')
  })

  it('markdown uses #, **, links, list markers and pipe tables', () => {
    const md = renderMarkdown(sample().ctx.doc)
    expect(md).toContain('# Plan <A&B>'.replace('<', '\\<').replace('>', '\\>'))
    expect(md).toContain('**Bold words**')
    expect(md).toContain('[Docs](https://example.com/docs)')
    expect(md).toContain('* one\n* two\n\n1. first')
    expect(md).toContain('1. first\n2. second')
    expect(md).toContain('| Name | Qty |\n| :--- | :--- |\n| Widget | 3 |')
  })

  it('rtf is an RTF document with escaped unicode', () => {
    const rtf = renderRtf(sample().ctx.doc)
    expect(rtf.startsWith('{\\rtf1')).toBe(true)
    expect(rtf).toContain('{\\b Bold words}')
    expect(rtf).toContain('\\u252?')
    expect(rtf).toContain('\\trowd')
  })

  it('docx is an Office Open XML zip whose document.xml holds the text', async () => {
    const buf = await renderDocx(sample().ctx.doc, 'T')
    expect(buf.subarray(0, 2).toString()).toBe('PK')
    const xml = zipEntry(buf, 'word/document.xml')
    expect(xml).toContain('Bold words')
    expect(xml).toContain('<w:tbl>')
    expect(xml).toContain('Widget')
  })

  it('docx carries the default header and footer', async () => {
    const e = sample()
    const [h, f] = e.apply({ createHeader: { type: 'DEFAULT' } }, { createFooter: { type: 'DEFAULT' } }) as any[]
    e.apply(
      { insertText: { location: { segmentId: h.createHeader.headerId, index: 0 }, text: 'Northwind confidential' } },
      { insertText: { location: { segmentId: f.createFooter.footerId, index: 0 }, text: 'Footer text' } },
    )
    const buf = await renderDocx(e.ctx.doc, 'T')
    expect(zipEntry(buf, 'word/header1.xml')).toContain('Northwind confidential')
    expect(zipEntry(buf, 'word/footer1.xml')).toContain('Footer text')
  })

  it('pdf is a PDF document', async () => {
    const buf = await renderPdf(sample().ctx.doc, 'T', Date.UTC(2026, 2, 1))
    expect(buf.subarray(0, 5).toString()).toBe('%PDF-')
    expect(buf.toString('latin1')).toContain('%%EOF')
  })
})
