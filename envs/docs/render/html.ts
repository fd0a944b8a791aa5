import type { Block, DocModel, El, Obj, Para, TabModel } from '../model/types.ts'
import { isOrdered } from '../model/lists.ts'
import { elText } from './text.ts'
import { coveredCells } from './xml.ts'

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
const TAG: Record<string, string> = {
  TITLE: 'h1',
  SUBTITLE: 'h2',
  HEADING_1: 'h1',
  HEADING_2: 'h2',
  HEADING_3: 'h3',
  HEADING_4: 'h4',
  HEADING_5: 'h5',
  HEADING_6: 'h6',
}

function color(c: unknown): string | undefined {
  const rgb = ((c as Obj | undefined)?.color as Obj | undefined)?.rgbColor as
    { red?: number; green?: number; blue?: number } | undefined
  if (!rgb) return undefined
  const h = (x = 0) =>
    Math.round(x * 255)
      .toString(16)
      .padStart(2, '0')
  return `#${h(rgb.red)}${h(rgb.green)}${h(rgb.blue)}`
}

function runCss(s: Obj): string {
  const css: string[] = []
  if (s.bold) css.push('font-weight:700')
  if (s.italic) css.push('font-style:italic')
  const deco = [s.underline && 'underline', s.strikethrough && 'line-through'].filter(Boolean)
  if (deco.length) css.push(`text-decoration:${deco.join(' ')}`)
  const fg = color(s.foregroundColor)
  if (fg) css.push(`color:${fg}`)
  const bg = color(s.backgroundColor)
  if (bg) css.push(`background-color:${bg}`)
  const size = (s.fontSize as Obj | undefined)?.magnitude
  if (typeof size === 'number') css.push(`font-size:${size}pt`)
  const font = (s.weightedFontFamily as Obj | undefined)?.fontFamily
  if (typeof font === 'string') css.push(`font-family:&quot;${esc(font)}&quot;`)
  if (s.smallCaps) css.push('font-variant:small-caps')
  if (s.baselineOffset === 'SUPERSCRIPT') css.push('vertical-align:super')
  if (s.baselineOffset === 'SUBSCRIPT') css.push('vertical-align:sub')
  return css.join(';')
}

function elHtml(e: El, tab: TabModel): string {
  if (e.t === 'pageBreak') return '<hr style="page-break-before:always;display:none;">'
  if (e.t === 'horizontalRule') return '<hr>'
  if (e.t === 'inline') {
    const emb = ((tab.inlineObjects[e.id]?.inlineObjectProperties as Obj | undefined)?.embeddedObject ?? {}) as Obj
    const uri = String((emb.imageProperties as Obj | undefined)?.contentUri ?? '')
    return `<img alt="" src="${esc(uri)}">`
  }
  if (e.t === 'footnoteRef') return `<sup><a href="#ftnt-${esc(e.id)}">[*]</a></sup>`
  const text = esc(elText(e).replace(/\n$/, '')).replace(/\u000b/g, '<br>')
  if (!text) return ''
  const css = runCss(e.style)
  const link =
    (e.style.link as Obj | undefined)?.url ??
    (e.t === 'richLink' ? e.props.uri : e.t === 'person' ? `mailto:${String(e.props.email)}` : undefined)
  const span = css ? `<span style="${css}">${text}</span>` : `<span>${text}</span>`
  return typeof link === 'string' ? `<a href="${esc(link)}">${span}</a>` : span
}

function paraHtml(p: Para, tab: TabModel): string {
  const tag = TAG[String(p.style.namedStyleType)] ?? 'p'
  const align = ({ CENTER: 'center', END: 'right', JUSTIFIED: 'justify' } as Record<string, string>)[
    String(p.style.alignment)
  ]
  const inner = p.els.map((e) => elHtml(e, tab)).join('')
  return `<${tag}${align ? ` style="text-align:${align}"` : ''}>${inner}</${tag}>`
}

/** HTML of a container; consecutive paragraphs of one list become one <ul>/<ol>. */
export function blocksHtml(blocks: readonly Block[], tab: TabModel): string {
  let out = ''
  let list: { id: string; ordered: boolean } | undefined
  const close = () => {
    if (list) out += list.ordered ? '</ol>' : '</ul>'
    list = undefined
  }
  for (const b of blocks) {
    if (b.t === 'p' && b.bullet) {
      if (list?.id !== b.bullet.listId) {
        close()
        list = { id: b.bullet.listId, ordered: isOrdered(tab.lists[b.bullet.listId]) }
        out += list.ordered ? '<ol>' : '<ul>'
      }
      out += `<li style="margin-left:${36 * (b.bullet.nestingLevel ?? 0)}pt">${paraHtml(b, tab).replace(/^<(\w+)[^>]*>|<\/\w+>$/g, '')}</li>`
      continue
    }
    close()
    if (b.t === 'p') out += paraHtml(b, tab)
    else if (b.t === 'table') {
      out += '<table style="border-collapse:collapse">'
      const covered = coveredCells(b)
      for (const [y, row] of b.rows.entries()) {
        out += '<tr>'
        for (const [x, cell] of row.cells.entries()) {
          if (covered.has(`${y},${x}`)) continue // a merged cell's span draws it
          const span = `${Number(cell.style.rowSpan ?? 1) > 1 ? ` rowspan="${String(cell.style.rowSpan)}"` : ''}${Number(cell.style.columnSpan ?? 1) > 1 ? ` colspan="${String(cell.style.columnSpan)}"` : ''}`
          out += `<td style="border:1px solid #000;padding:5pt"${span}>${blocksHtml(cell.content, tab)}</td>`
        }
        out += '</tr>'
      }
      out += '</table>'
    }
  }
  close()
  return out
}

/** A complete HTML document like Drive's text/html export (one file, inline styles). */
export function renderHtml(doc: DocModel, title: string): string {
  const tabs: TabModel[] = []
  const walk = (ts: TabModel[]) => ts.forEach((t) => (tabs.push(t), walk(t.children)))
  walk(doc.tabs)
  let body = ''
  for (const tab of tabs) {
    body += blocksHtml(tab.body, tab)
    const notes = Object.entries(tab.footnotes)
    if (notes.length)
      body += `<hr>${notes.map(([id, c]) => `<div id="ftnt-${esc(id)}">${blocksHtml(c, tab)}</div>`).join('')}`
  }
  return `<html><head><meta content="text/html; charset=UTF-8" http-equiv="content-type"><title>${esc(title)}</title></head><body style="background-color:#ffffff;max-width:468pt;padding:72pt 72pt 72pt 72pt">${body}</body></html>`
}
