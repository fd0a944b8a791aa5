import type { SeedBlock } from './build.ts'
import { ownEntry } from '../core/own-key.ts'
import { htmlTokens, replaceBetween, replaceElements } from '../core/html-linear.ts'
import { docxOverBounds } from './docx-bounds.ts'

// Import conversions (Drive's "upload as a Google Doc", the formats about.importFormats advertises): the
// uploaded bytes become document blocks (paragraphs with a named style, lists, tables), which
// build.ts turns into a document model through batchUpdate's own handlers.
// Deviation: formatting is kept per paragraph (a paragraph wholly bold/italic/linked keeps it); styles of
// runs inside a paragraph, images, colours and fonts are dropped.

export const IMPORTABLE = [
  'text/plain',
  'text/html',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
]

/** The document blocks of an uploaded file of type `mimeType` (one of IMPORTABLE). */
export async function blocksFromUpload(mimeType: string, data: Buffer): Promise<SeedBlock[]> {
  if (mimeType === 'text/plain') return blocksFromText(data.toString('utf8'))
  if (mimeType === 'text/html') return blocksFromHtml(data.toString('utf8'))
  // A zip that inflates or nests past what an import may cost is refused before mammoth reads it (0401); the caller
  // answers it as any unreadable upload.
  const over = docxOverBounds(data)
  if (over) throw new Error(`docx refused: ${over}`)
  // Imported on the first .docx upload: a served process that never converts one does not load it.
  const { default: mammoth } = await import('mammoth')
  // Images are dropped by the import, so they are never read (mammoth would inflate each into a base64 data URI).
  const convertImage = mammoth.images.imgElement(() => Promise.resolve({ src: '' }))
  const { value } = await mammoth.convertToHtml({ buffer: data }, { convertImage })
  return blocksFromHtml(value)
}

/** Each line is a paragraph (a final line end does not open another). */
export function blocksFromText(text: string): SeedBlock[] {
  const lines = text
    .replace(/^\ufeff/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/\n$/, '')
    .split('\n')
  return lines.map((l) => l.replace(/[\u0000-\u0008\u000b-\u001f]/g, ''))
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))
      return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : m
    }
    const name = e.toLowerCase()
    return ownEntry(ENTITIES, name) ?? m
  })

type Run = { text: string; bold: boolean; italic: boolean; link?: string }
type Heading = 'HEADING_1' | 'HEADING_2' | 'HEADING_3' | 'HEADING_4' | 'HEADING_5' | 'HEADING_6' | 'TITLE'
const HEADINGS: Record<string, Heading> = {
  h1: 'HEADING_1',
  h2: 'HEADING_2',
  h3: 'HEADING_3',
  h4: 'HEADING_4',
  h5: 'HEADING_5',
  h6: 'HEADING_6',
  title: 'TITLE',
}
const BLOCK_TAGS = new Set([
  'p',
  'div',
  'li',
  'ul',
  'ol',
  'table',
  'tr',
  'td',
  'th',
  'br',
  'blockquote',
  'pre',
  'section',
  'article',
  'header',
  'footer',
  'body',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
])

/**
 * Blocks from HTML: headings keep their level, `ul`/`ol` items become bulleted/numbered lists, tables keep their
 * cell text, every other block element a paragraph. `head`, `script` and `style` are skipped.
 */
const SKIPPED = ['head', 'script', 'style', 'template']

export function blocksFromHtml(html: string): SeedBlock[] {
  // Linear scans (decision 0392): as regular expressions, an unclosed comment, `<script>` or quote was retried from
  // every later `<` (80 KB of `<a "` took 15 s).
  const src = replaceElements(replaceBetween(html, '<!--', '-->', ''), SKIPPED, '', true)
  const out: SeedBlock[] = []
  let runs: Run[] = []
  let style: string | undefined
  const marks = { bold: 0, italic: 0, link: [] as string[] }
  // Open lists (innermost last) and the items of the outermost so far: a nested list's items join its outer list's
  // where they stand, so all share one array in order (copying them up level by level was quadratic, decision 0392).
  const lists: { numbered: boolean }[] = []
  const listItems: string[] = []
  let table: string[][] | undefined
  let cell: string[] | undefined

  const paragraph = () => {
    const text = runs
      .map((r) => r.text)
      .join('')
      .replace(/[ \t\r\n]+/g, ' ')
      .trim()
    const shown = runs.filter((r) => r.text.trim())
    runs = []
    if (cell) return void (text && cell.push(text))
    if (lists.length) return void (text && listItems.push(text))
    const heading = style
    style = undefined
    if (!text) return
    const all = (k: 'bold' | 'italic') => shown.length > 0 && shown.every((r) => r[k])
    const first = shown[0]?.link
    const link = first && shown.every((r) => r.link === first) ? first : undefined
    const block: Exclude<SeedBlock, string | { bullets: string[] } | { table: string[][] }> = { text }
    if (heading) block.style = HEADINGS[heading]
    if (all('bold')) block.bold = true
    if (all('italic')) block.italic = true
    if (link) block.link = link
    out.push(Object.keys(block).length === 1 ? text : block)
  }

  for (const m of htmlTokens(src)) {
    if (!m.tag) {
      runs.push({ text: decode(m.text), bold: marks.bold > 0, italic: marks.italic > 0, link: marks.link.at(-1) })
      continue
    }
    const closing = m.close
    const tag = m.name.toLowerCase()
    const attrs = m.attrs
    if (tag === 'b' || tag === 'strong') marks.bold = Math.max(0, marks.bold + (closing ? -1 : 1))
    else if (tag === 'i' || tag === 'em') marks.italic = Math.max(0, marks.italic + (closing ? -1 : 1))
    else if (tag === 'a') {
      if (closing) marks.link.pop()
      else {
        const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs)
        marks.link.push(decode(href?.slice(1).find((v) => v !== undefined) ?? ''))
      }
    } else if (BLOCK_TAGS.has(tag) || Object.hasOwn(HEADINGS, tag)) {
      paragraph()
      if (Object.hasOwn(HEADINGS, tag) && !closing) style = tag
      if (tag === 'ul' || tag === 'ol') {
        if (!closing) lists.push({ numbered: tag === 'ol' })
        else {
          const list = lists.pop()
          if (list && !lists.length && listItems.length)
            out.push({ bullets: listItems.splice(0), numbered: list.numbered })
        }
      } else if (tag === 'table') {
        if (!closing) table = []
        else {
          if (table?.length) out.push({ table })
          table = undefined
        }
      } else if (tag === 'tr' && table && !closing) table.push([])
      else if ((tag === 'td' || tag === 'th') && table) {
        if (!closing) cell = []
        else if (cell) {
          if (!table.length) table.push([])
          table[table.length - 1]!.push(cell.join(' '))
          cell = undefined
        }
      }
    }
  }
  paragraph()
  return out
}
