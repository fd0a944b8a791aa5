import type { Block, DocModel, El, Obj, TabModel } from '../model/types.ts'

/** One element as plain text (chips read as their label; images and breaks as nothing). */
export function elText(e: El): string {
  switch (e.t) {
    case 'text':
      return e.text
    case 'person':
      return String(e.props.name ?? e.props.email ?? '')
    case 'richLink':
      return String(e.props.title ?? e.props.uri ?? '')
    case 'date':
      return String(e.props.displayText ?? '')
    case 'pageBreak':
      return '\f'
    default:
      return ''
  }
}

/** Plain text of a container: paragraphs as lines, table cells separated by tabs, rows by newlines. */
export function blocksText(blocks: readonly Block[]): string {
  let out = ''
  for (const b of blocks) {
    if (b.t === 'p')
      out += b.els
        .map(elText)
        .join('')
        .replace(/\f/g, '')
        .replace(/\u000b/g, '\n')
    else if (b.t === 'table')
      for (const row of b.rows)
        out += row.cells.map((c) => blocksText(c.content).replace(/\n$/, '').replace(/\n/g, ' ')).join('\t') + '\n'
  }
  return out
}

const tabText = (tab: TabModel): string => blocksText(tab.body) + tab.children.map(tabText).join('')

/** The whole document as plain text (every tab, in order), as Drive's text/plain export and full-text index read it. */
export function plainText(doc: DocModel): string {
  return doc.tabs.map(tabText).join('')
}

/**
 * A run's font size in points, for the PDF and Word renderers: batchUpdate stores any number (-1, 1e308), which
 * pdfkit and docx throw on, so a size that is not positive and finite is left out (the paragraph's size applies)
 * and one past Docs' largest, 400 pt, is drawn at 400.
 */
export function fontPt(style: Obj): number | undefined {
  const m = (style.fontSize as Obj | undefined)?.magnitude
  return typeof m === 'number' && m > 0 && Number.isFinite(m) ? Math.min(m, 400) : undefined
}
