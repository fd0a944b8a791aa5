import type { Block, DocModel, El, Obj, Para, TabModel } from '../model/types.ts'
import { isOrdered } from '../model/lists.ts'
import { elText, fontPt } from './text.ts'
import { coveredCells, hexColor, tabsInOrder, xmlEscape as esc } from './xml.ts'
import { writeZip } from './zip.ts'

/**
 * OpenDocument Text (.odt, ODF 1.2) of a document, Drive's `application/vnd.oasis.opendocument.text` export:
 * headings, paragraph alignment, character styles, links, lists, tables with merged cells, footnotes, images (linked
 * by their content URI), and the first tab's default header and footer. Every tab is written in reading order.
 */
export function renderOdt(doc: DocModel, title: string, atMs: number): Buffer {
  const tabs = tabsInOrder(doc.tabs)
  const body = new OdtWriter('')
  for (const tab of tabs) body.blocks(tab.body, tab)
  const page = new OdtWriter('M')
  const first = tabs[0]
  const header = first?.headers[String(first.documentStyle.defaultHeaderId ?? '')]
  const footer = first?.footers[String(first.documentStyle.defaultFooterId ?? '')]
  const master =
    (header ? `<style:header>${page.blocks(header, first!)}</style:header>` : '') +
    (footer ? `<style:footer>${page.blocks(footer, first!)}</style:footer>` : '')
  const when = new Date(atMs).toISOString().replace(/\.\d+Z$/, 'Z')
  return writeZip(
    [
      { name: 'mimetype', data: Buffer.from(ODT), stored: true },
      { name: 'META-INF/manifest.xml', data: Buffer.from(MANIFEST) },
      { name: 'meta.xml', data: Buffer.from(meta(title, when)) },
      { name: 'styles.xml', data: Buffer.from(styles(page.automaticStyles(), master)) },
      { name: 'content.xml', data: Buffer.from(content(body.automaticStyles(), body.out)) },
    ],
    atMs,
  )
}

const ODT = 'application/vnd.oasis.opendocument.text'
const NS = [
  'office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"',
  'svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
  'xlink="http://www.w3.org/1999/xlink"',
  'dc="http://purl.org/dc/elements/1.1/"',
  'meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"',
]
  .map((n) => `xmlns:${n}`)
  .join(' ')
const XML = '<?xml version="1.0" encoding="UTF-8"?>\n'

const MANIFEST =
  XML +
  '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">' +
  `<manifest:file-entry manifest:full-path="/" manifest:version="1.2" manifest:media-type="${ODT}"/>` +
  ['content.xml', 'styles.xml', 'meta.xml']
    .map((p) => `<manifest:file-entry manifest:full-path="${p}" manifest:media-type="text/xml"/>`)
    .join('') +
  '</manifest:manifest>'

const meta = (title: string, when: string) =>
  `${XML}<office:document-meta ${NS} office:version="1.2"><office:meta>` +
  `<meta:generator>workspace-gym</meta:generator><dc:title>${esc(title)}</dc:title>` +
  `<meta:creation-date>${when}</meta:creation-date><dc:date>${when}</dc:date></office:meta></office:document-meta>`

/** Named paragraph styles for Docs' named style types, with Docs' default sizes. */
const NAMED = [
  ['Standard', '', '11pt', ''],
  ['Title', 'Standard', '26pt', ''],
  ['Subtitle', 'Standard', '15pt', ' fo:color="#666666"'],
  ...[20, 16, 14, 12, 11, 11].map((size, i) => [`Heading_20_${i + 1}`, 'Standard', `${size}pt`, '']),
]
  .map(
    ([name, parent, size, extra]) =>
      `<style:style style:name="${name}" style:display-name="${name!.replace(/_20_/g, ' ')}" ` +
      `style:family="paragraph"${parent ? ` style:parent-style-name="${parent}"` : ''}>` +
      `<style:text-properties fo:font-size="${size}"${extra}${name!.startsWith('Heading') ? ' fo:font-weight="bold"' : ''}/>` +
      '</style:style>',
  )
  .join('')

const styles = (automatic: string, master: string) =>
  `${XML}<office:document-styles ${NS} office:version="1.2"><office:styles>` +
  '<style:default-style style:family="paragraph"><style:text-properties fo:font-family="Arial" fo:font-size="11pt"/>' +
  `</style:default-style>${NAMED}</office:styles>` +
  `<office:automatic-styles><style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="8.5in" ` +
  'fo:page-height="11in" fo:margin-top="1in" fo:margin-bottom="1in" fo:margin-left="1in" fo:margin-right="1in"/>' +
  `</style:page-layout>${automatic}</office:automatic-styles><office:master-styles>` +
  `<style:master-page style:name="Standard" style:page-layout-name="pm1">${master}</style:master-page>` +
  '</office:master-styles></office:document-styles>'

const content = (automatic: string, body: string) =>
  `${XML}<office:document-content ${NS} office:version="1.2"><office:automatic-styles>${automatic}` +
  `</office:automatic-styles><office:body><office:text>${body}</office:text></office:body></office:document-content>`

const PARENT: Record<string, string> = {
  TITLE: 'Title',
  SUBTITLE: 'Subtitle',
  ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [`HEADING_${n}`, `Heading_20_${n}`])),
}
const ALIGN: Record<string, string> = { CENTER: 'center', END: 'end', JUSTIFIED: 'justify', START: 'start' }

/** ODF text properties of a Docs text style. */
function textProps(s: Obj): string {
  const p: string[] = []
  if (s.bold) p.push('fo:font-weight="bold"')
  if (s.italic) p.push('fo:font-style="italic"')
  if (s.underline)
    p.push(
      'style:text-underline-style="solid" style:text-underline-width="auto" style:text-underline-color="font-color"',
    )
  if (s.strikethrough) p.push('style:text-line-through-style="solid"')
  const fg = hexColor(s.foregroundColor)
  if (fg) p.push(`fo:color="${fg}"`)
  const bg = hexColor(s.backgroundColor)
  if (bg) p.push(`fo:background-color="${bg}"`)
  const size = fontPt(s)
  if (size !== undefined) p.push(`fo:font-size="${size}pt"`)
  const font = (s.weightedFontFamily as Obj | undefined)?.fontFamily
  if (typeof font === 'string') p.push(`fo:font-family="${esc(font)}"`)
  if (s.smallCaps) p.push('fo:font-variant="small-caps"')
  if (s.baselineOffset === 'SUPERSCRIPT') p.push('style:text-position="super 58%"')
  if (s.baselineOffset === 'SUBSCRIPT') p.push('style:text-position="sub 58%"')
  return p.join(' ')
}

/**
 * Writes blocks as ODF body XML, collecting the automatic styles they use; names are numbered in order of first
 * use (`prefix` keeps styles.xml's apart from content.xml's), so the same document gives the same bytes.
 */
class OdtWriter {
  out = ''
  private readonly styleNames = new Map<string, string>()
  private notes = 0
  private tables = 0

  constructor(private readonly prefix: string) {}

  /** Appends the blocks to `out` and returns their XML. */
  blocks(blocks: readonly Block[], tab: TabModel): string {
    const xml = this.blocksXml(blocks, tab)
    this.out += xml
    return xml
  }

  automaticStyles(): string {
    const lists = ['L1', 'L2']
      .map(
        (name, ordered) =>
          `<text:list-style style:name="${this.prefix}${name}">` +
          Array.from({ length: 9 }, (_, i) => {
            const indent = `<style:list-level-properties text:space-before="${0.25 * (i + 1)}in" text:min-label-width="0.25in"/>`
            return ordered
              ? `<text:list-level-style-number text:level="${i + 1}" style:num-suffix="." style:num-format="${['1', 'a', 'i'][i % 3]}">${indent}</text:list-level-style-number>`
              : `<text:list-level-style-bullet text:level="${i + 1}" text:bullet-char="${['●', '○', '■'][i % 3]}">${indent}</text:list-level-style-bullet>`
          }).join('') +
          '</text:list-style>',
      )
      .join('')
    const cell =
      `<style:style style:name="${this.prefix}Cell" style:family="table-cell"><style:table-cell-properties ` +
      'fo:border="0.5pt solid #000000" fo:padding="0.07in"/></style:style>'
    return [...this.styleNames].map(([props, name]) => props.replace('NAME', name)).join('') + lists + cell
  }

  /** The name of an automatic style with this body (family and properties), made on first use. */
  private styleName(kind: 'T' | 'P', family: string, inner: string, parent = ''): string {
    const key = `<style:style style:name="NAME" style:family="${family}"${parent ? ` style:parent-style-name="${parent}"` : ''}>${inner}</style:style>`
    let name = this.styleNames.get(key)
    if (name === undefined) this.styleNames.set(key, (name = `${this.prefix}${kind}${this.styleNames.size + 1}`))
    return name
  }

  private blocksXml(blocks: readonly Block[], tab: TabModel): string {
    let xml = ''
    for (let i = 0; i < blocks.length; i++) {
      const b = blocks[i]!
      if (b.t === 'p' && b.bullet) {
        // Consecutive paragraphs of one list make one <text:list>; a nesting level is a list inside the item.
        const listId = b.bullet.listId
        xml += `<text:list text:style-name="${this.prefix}${isOrdered(tab.lists[listId]) ? 'L2' : 'L1'}">`
        for (; i < blocks.length; i++) {
          const item = blocks[i]!
          if (item.t !== 'p' || item.bullet?.listId !== listId) break
          const level = Math.min(Math.max(Number(item.bullet.nestingLevel ?? 0) || 0, 0), 8)
          xml += `<text:list-item>${'<text:list><text:list-item>'.repeat(level)}${this.para(item, tab)}`
          xml += `${'</text:list-item></text:list>'.repeat(level)}</text:list-item>`
        }
        i--
        xml += '</text:list>'
      } else if (b.t === 'p') xml += this.para(b, tab)
      else if (b.t === 'table') {
        const covered = coveredCells(b)
        xml += `<table:table table:name="Table${++this.tables}">`
        xml += `<table:table-column table:number-columns-repeated="${Math.max(1, b.columns)}"/>`
        b.rows.forEach((row, y) => {
          xml += '<table:table-row>'
          row.cells.forEach((cell, x) => {
            if (covered.has(`${y},${x}`)) return void (xml += '<table:covered-table-cell/>')
            const cols = Number(cell.style.columnSpan ?? 1)
            const rows = Number(cell.style.rowSpan ?? 1)
            const spans =
              (cols > 1 ? ` table:number-columns-spanned="${cols}"` : '') +
              (rows > 1 ? ` table:number-rows-spanned="${rows}"` : '')
            const inner = this.blocksXml(cell.content, tab)
            xml += `<table:table-cell table:style-name="${this.prefix}Cell" office:value-type="string"${spans}>`
            xml += `${inner || '<text:p/>'}</table:table-cell>`
          })
          xml += '</table:table-row>'
        })
        xml += '</table:table>'
      }
    }
    return xml
  }

  private para(p: Para, tab: TabModel): string {
    const named = String(p.style.namedStyleType ?? '')
    const parent = PARENT[named] ?? 'Standard'
    const align = ALIGN[String(p.style.alignment ?? '')]
    const style = align
      ? this.styleName('P', 'paragraph', `<style:paragraph-properties fo:text-align="${align}"/>`, parent)
      : parent
    const inner = p.els.map((e) => this.el(e, tab)).join('')
    const level = /^HEADING_([1-6])$/.exec(named)?.[1]
    return level
      ? `<text:h text:style-name="${style}" text:outline-level="${level}">${inner}</text:h>`
      : `<text:p text:style-name="${style}">${inner}</text:p>`
  }

  private el(e: El, tab: TabModel): string {
    if (e.t === 'inline') return this.image(tab.inlineObjects[e.id])
    if (e.t === 'footnoteRef') {
      const n = ++this.notes
      const inner = this.blocksXml(tab.footnotes[e.id] ?? [], tab)
      return (
        `<text:note text:id="ftn${n}" text:note-class="footnote"><text:note-citation>${n}</text:note-citation>` +
        `<text:note-body>${inner || '<text:p/>'}</text:note-body></text:note>`
      )
    }
    if (e.t === 'autoText')
      return e.kind === 'PAGE_COUNT'
        ? '<text:page-count>1</text:page-count>'
        : '<text:page-number text:select-page="current">1</text:page-number>'
    const text = runText(elText(e))
    if (!text) return ''
    const props = textProps(e.style)
    const span = props
      ? `<text:span text:style-name="${this.styleName('T', 'text', `<style:text-properties ${props}/>`)}">${text}</text:span>`
      : text
    const link =
      (e.style.link as Obj | undefined)?.url ??
      (e.t === 'richLink' ? e.props.uri : e.t === 'person' ? `mailto:${String(e.props.email)}` : undefined)
    return typeof link === 'string' ? `<text:a xlink:type="simple" xlink:href="${esc(link)}">${span}</text:a>` : span
  }

  /** An inline image, linked by its content URI at its size (points). */
  private image(obj: Obj | undefined): string {
    const emb = ((obj?.inlineObjectProperties as Obj | undefined)?.embeddedObject ?? {}) as Obj
    const uri = String((emb.imageProperties as Obj | undefined)?.contentUri ?? '')
    if (!uri) return ''
    const size = (emb.size ?? {}) as Obj
    const pt = (d: unknown) => {
      const m = (d as Obj | undefined)?.magnitude
      return typeof m === 'number' && m > 0 && Number.isFinite(m) ? Math.min(m, 10_000) : 100
    }
    return (
      `<draw:frame text:anchor-type="as-char" svg:width="${pt(size.width)}pt" svg:height="${pt(size.height)}pt">` +
      `<draw:image xlink:href="${esc(uri)}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame>`
    )
  }
}

/** A run's text in ODF: tabs and vertical tabs (Docs' line breaks) as elements, repeated spaces counted. */
function runText(text: string): string {
  return text
    .replace(/[\n\f]/g, '')
    .split('\u000b')
    .map((part) =>
      esc(part)
        .replace(/\t/g, '<text:tab/>')
        .replace(/ {2,}/g, (s) => ` <text:s text:c="${s.length - 1}"/>`),
    )
    .join('<text:line-break/>')
}
