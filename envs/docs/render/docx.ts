import {
  AlignmentType,
  Document,
  ExternalHyperlink,
  Footer,
  Header,
  HeadingLevel,
  LevelFormat,
  PageBreak,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx'
import { deterministicDocx } from './docx-deterministic.ts'
import type { Block, DocModel, El, Obj, TabModel } from '../model/types.ts'
import { isOrdered } from '../model/lists.ts'
import { elText, fontPt } from './text.ts'
import { NOT_XML, xmlSafe } from './xml.ts'

const HEADINGS: Record<string, (typeof HeadingLevel)[keyof typeof HeadingLevel]> = {
  TITLE: HeadingLevel.TITLE,
  HEADING_1: HeadingLevel.HEADING_1,
  HEADING_2: HeadingLevel.HEADING_2,
  HEADING_3: HeadingLevel.HEADING_3,
  HEADING_4: HeadingLevel.HEADING_4,
  HEADING_5: HeadingLevel.HEADING_5,
  HEADING_6: HeadingLevel.HEADING_6,
}
const ALIGN: Record<string, (typeof AlignmentType)[keyof typeof AlignmentType]> = {
  CENTER: AlignmentType.CENTER,
  END: AlignmentType.RIGHT,
  JUSTIFIED: AlignmentType.JUSTIFIED,
}

function hex(c: unknown): string | undefined {
  const rgb = ((c as Obj | undefined)?.color as Obj | undefined)?.rgbColor as
    { red?: number; green?: number; blue?: number } | undefined
  if (!rgb) return undefined
  // A channel outside 0..1 (batchUpdate keeps what it is sent) is clamped: docx throws on a bad hex colour.
  const h = (x = 0) =>
    Math.round(Math.min(1, Math.max(0, x)) * 255)
      .toString(16)
      .padStart(2, '0')
  return `${h(rgb.red)}${h(rgb.green)}${h(rgb.blue)}`
}

function runs(e: El): (TextRun | ExternalHyperlink | PageBreak)[] {
  if (e.t === 'pageBreak') return [new PageBreak()]
  const text = elText(e).replace(/\n$/, '')
  if (!text) return []
  const s = e.style
  const size = fontPt(s)
  const run = new TextRun({
    text,
    bold: !!s.bold,
    italics: !!s.italic,
    strike: !!s.strikethrough,
    smallCaps: !!s.smallCaps,
    ...(s.underline ? { underline: {} } : {}),
    ...(hex(s.foregroundColor) ? { color: hex(s.foregroundColor) } : {}),
    ...(size !== undefined ? { size: Math.round(size * 2) } : {}),
    ...(typeof (s.weightedFontFamily as Obj | undefined)?.fontFamily === 'string'
      ? { font: String((s.weightedFontFamily as Obj).fontFamily) }
      : {}),
    ...(s.baselineOffset === 'SUPERSCRIPT'
      ? { superScript: true }
      : s.baselineOffset === 'SUBSCRIPT'
        ? { subScript: true }
        : {}),
  })
  const url = (s.link as Obj | undefined)?.url ?? (e.t === 'richLink' ? e.props.uri : undefined)
  return typeof url === 'string' ? [new ExternalHyperlink({ link: url, children: [run] })] : [run]
}

function blocksDocx(blocks: readonly Block[], tab: TabModel): (Paragraph | Table)[] {
  const out: (Paragraph | Table)[] = []
  for (const b of blocks) {
    if (b.t === 'p') {
      const heading = HEADINGS[String(b.style.namedStyleType)]
      const level = b.bullet?.nestingLevel ?? 0
      out.push(
        new Paragraph({
          children: b.els.flatMap(runs),
          ...(heading ? { heading } : {}),
          ...(ALIGN[String(b.style.alignment)] ? { alignment: ALIGN[String(b.style.alignment)] } : {}),
          ...(b.bullet
            ? isOrdered(tab.lists[b.bullet.listId])
              ? { numbering: { reference: 'ordered', level, instance: hash(b.bullet.listId) } }
              : { bullet: { level } }
            : {}),
        }),
      )
    } else if (b.t === 'table') {
      out.push(
        new Table({
          width: { size: 100, type: WidthType.PERCENTAGE },
          rows: b.rows.map(
            (row) =>
              new TableRow({
                children: row.cells.map(
                  (cell) =>
                    new TableCell({
                      children: blocksDocx(cell.content, tab).map((x) => x) as Paragraph[],
                      ...(Number(cell.style.columnSpan ?? 1) > 1 ? { columnSpan: Number(cell.style.columnSpan) } : {}),
                      ...(Number(cell.style.rowSpan ?? 1) > 1 ? { rowSpan: Number(cell.style.rowSpan) } : {}),
                    }),
                ),
              }),
          ),
        }),
      )
    }
  }
  return out
}

const hash = (s: string) => [...s].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 100000, 7)

/**
 * A real .docx (Office Open XML) of the document, built with the `docx` package; its package times are the world's
 * clock at the export (`atMs`), so the same requests give the same bytes.
 */
export async function renderDocx(unsafe: DocModel, unsafeTitle: string, atMs: number): Promise<Buffer> {
  const doc = xmlSafe(unsafe)
  const title = unsafeTitle.replace(NOT_XML, '')
  const tabs: TabModel[] = []
  const walk = (ts: TabModel[]) => ts.forEach((t) => (tabs.push(t), walk(t.children)))
  walk(doc.tabs)
  const document = new Document({
    title,
    creator: 'workspace-gym',
    numbering: {
      config: [
        {
          reference: 'ordered',
          levels: Array.from({ length: 9 }, (_, level) => ({
            level,
            format: [LevelFormat.DECIMAL, LevelFormat.LOWER_LETTER, LevelFormat.LOWER_ROMAN][level % 3]!,
            text: `%${level + 1}.`,
            alignment: AlignmentType.START,
          })),
        },
      ],
    },
    sections: tabs.map((tab) => {
      // The document-level DEFAULT header and footer of each tab become the section's default ones.
      const h = tab.headers[String(tab.documentStyle.defaultHeaderId ?? '')]
      const f = tab.footers[String(tab.documentStyle.defaultFooterId ?? '')]
      return {
        ...(h ? { headers: { default: new Header({ children: blocksDocx(h, tab) }) } } : {}),
        ...(f ? { footers: { default: new Footer({ children: blocksDocx(f, tab) }) } } : {}),
        children: blocksDocx(tab.body, tab),
      }
    }),
  })
  return deterministicDocx(await Packer.toBuffer(document), atMs)
}
