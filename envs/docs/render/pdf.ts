import PDFDocument from 'pdfkit'
import type { Block, DocModel, Obj, TabModel } from '../model/types.ts'
import { elText, fontPt } from './text.ts'

/**
 * pdfkit measures the rest of a word again after each line it breaks off, so one word of n characters costs
 * O(n²) (200,000 characters without a space: minutes of CPU). Runs are written in pieces of at most this many
 * characters, cut only inside words longer than that (a line may break there, as pdfkit breaks a long word anyway),
 * which bounds the cost and leaves every other run as it was.
 */
const PIECE = 1000

const SIZE: Record<string, number> = {
  TITLE: 26,
  SUBTITLE: 15,
  HEADING_1: 20,
  HEADING_2: 16,
  HEADING_3: 14,
  HEADING_4: 12,
  HEADING_5: 11,
  HEADING_6: 11,
}

function writeBlocks(pdf: PDFKit.PDFDocument, blocks: readonly Block[], tab: TabModel) {
  for (const b of blocks) {
    if (b.t === 'p') {
      const size = SIZE[String(b.style.namedStyleType)] ?? 11
      const indent = b.bullet ? 18 * ((b.bullet.nestingLevel ?? 0) + 1) : 0
      const parts = b.els
        .filter((e) => e.t !== 'pageBreak')
        .map((e) => ({ text: elText(e).replace(/\n$/, ''), style: e.style as Obj }))
        .filter((p) => p.text)
        .flatMap((p) => pieces(p.text).map((text) => ({ text, style: p.style })))
      if (b.els.some((e) => e.t === 'pageBreak')) pdf.addPage()
      if (parts.length === 0) {
        pdf.moveDown(0.5)
        continue
      }
      if (b.bullet) parts[0] = { ...parts[0]!, text: `• ${parts[0]!.text}` }
      parts.forEach((p, k) => {
        const font =
          p.style.bold && p.style.italic
            ? 'Helvetica-BoldOblique'
            : p.style.bold
              ? 'Helvetica-Bold'
              : p.style.italic
                ? 'Helvetica-Oblique'
                : 'Helvetica'
        pdf
          .font(font)
          .fontSize(fontPt(p.style) ?? size)
          .text(p.text, 72 + indent, undefined, {
            continued: k < parts.length - 1,
            underline: !!p.style.underline,
            strike: !!p.style.strikethrough,
          })
      })
    } else if (b.t === 'table') {
      for (const row of b.rows) {
        const line = row.cells
          .map((c) =>
            c.content
              .map((x) => (x.t === 'p' ? x.els.map(elText).join('') : ''))
              .join(' ')
              .replace(/\s+/g, ' ')
              .trim(),
          )
          .join('  |  ')
        pdf.font('Helvetica').fontSize(10).text(line, 72)
      }
      pdf.moveDown(0.5)
    }
  }
  void tab
}

/** A run's text cut inside its words longer than PIECE (never inside a surrogate pair); others stay whole. */
function pieces(text: string): string[] {
  if (text.length <= PIECE) return [text]
  const out: string[] = []
  let from = 0
  for (const m of text.matchAll(/\S{1001,}/g)) {
    for (let cut = m.index + PIECE; cut < m.index + m[0].length; cut += PIECE) {
      if (/[\ud800-\udbff]/.test(text[cut - 1]!)) cut -= 1
      out.push(text.slice(from, cut))
      from = cut
    }
  }
  out.push(text.slice(from))
  return out
}

/** A PDF (US Letter, 1-inch margins) of the document's tabs, rendered with pdfkit; resolves when the stream ends. */
export function renderPdf(doc: DocModel, title: string, createdMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // Fixed dates keep the bytes deterministic for a given document.
    const pdf = new PDFDocument({
      size: 'LETTER',
      margin: 72,
      info: { Title: title, Producer: 'workspace-gym', Creator: 'workspace-gym', CreationDate: new Date(createdMs) },
    })
    const chunks: Buffer[] = []
    pdf.on('data', (c: Buffer) => chunks.push(c))
    pdf.on('end', () => resolve(Buffer.concat(chunks)))
    pdf.on('error', reject)
    const walk = (ts: TabModel[]) => ts.forEach((t) => (writeBlocks(pdf, t.body, t), walk(t.children)))
    walk(doc.tabs)
    pdf.end()
  })
}
