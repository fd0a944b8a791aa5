import { afterEach, describe, expect, it, vi } from 'vitest'
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
    const buf = await renderDocx(sample().ctx.doc, 'T', Date.UTC(2026, 2, 1))
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
    const buf = await renderDocx(e.ctx.doc, 'T', Date.UTC(2026, 2, 1))
    expect(zipEntry(buf, 'word/header1.xml')).toContain('Northwind confidential')
    expect(zipEntry(buf, 'word/footer1.xml')).toContain('Footer text')
  })

  describe('docx package times', () => {
    afterEach(() => vi.useRealTimers())
    /** Each zip entry's DOS date and time from the central directory (name → [date, time]). */
    const entryTimes = (zip: Buffer) => {
      const end = zip.length - 22
      const out: Record<string, [number, number]> = {}
      let at = zip.readUInt32LE(end + 16)
      for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
        const name = zip.toString('utf8', at + 46, at + 46 + zip.readUInt16LE(at + 28))
        out[name] = [zip.readUInt16LE(at + 14), zip.readUInt16LE(at + 12)]
        at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
      }
      return out
    }

    it('come from the time given, not the machine clock: the same document gives the same bytes', async () => {
      const at = Date.UTC(2026, 2, 1, 14, 30, 20)
      vi.useFakeTimers({ toFake: ['Date'] })
      vi.setSystemTime(Date.UTC(2030, 0, 1))
      const a = await renderDocx(sample().ctx.doc, 'Q1 <plan> & "notes"', at)
      vi.setSystemTime(Date.UTC(2031, 5, 7, 3, 4, 5))
      const b = await renderDocx(sample().ctx.doc, 'Q1 <plan> & "notes"', at)
      expect(b.equals(a)).toBe(true)
      const core = zipEntry(a, 'docProps/core.xml')
      expect(core).toContain('<dcterms:created xsi:type="dcterms:W3CDTF">2026-03-01T14:30:20.000Z</dcterms:created>')
      expect(core).toContain('<dcterms:modified xsi:type="dcterms:W3CDTF">2026-03-01T14:30:20.000Z</dcterms:modified>')
      expect(core).toContain('<dc:title>Q1 &lt;plan&gt; &amp;')
      // The hyperlink's relationship id, random in the docx package, is numbered here.
      expect(zipEntry(a, 'word/document.xml')).toContain('r:id="rIdLink1"')
      expect(zipEntry(a, 'word/_rels/document.xml.rels')).toContain('Id="rIdLink1"')
      const dosDate = ((2026 - 1980) << 9) | (3 << 5) | 1
      const dosTime = (14 << 11) | (30 << 5) | 10
      const times = Object.values(entryTimes(a))
      expect(times.length).toBeGreaterThan(5)
      for (const t of times) expect(t).toEqual([dosDate, dosTime])
      const later = await renderDocx(sample().ctx.doc, 'Q1 <plan> & "notes"', at + 86_400_000)
      expect(later.equals(a)).toBe(false)
      expect(zipEntry(later, 'word/document.xml')).toBe(zipEntry(a, 'word/document.xml'))
    })
  })

  it('pdf is a PDF document', async () => {
    const buf = await renderPdf(sample().ctx.doc, 'T', Date.UTC(2026, 2, 1))
    expect(buf.subarray(0, 5).toString()).toBe('%PDF-')
    expect(buf.toString('latin1')).toContain('%%EOF')
  })
})
