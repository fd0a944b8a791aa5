import type { Block, DocModel, TabModel } from '../model/types.ts'
import { elText } from './text.ts'

/** RTF escaping: control characters, braces and every non-ASCII UTF-16 unit as \uN? */
const escRtf = (s: string) =>
  [...s]
    .map((ch) => {
      if (ch === '\\' || ch === '{' || ch === '}') return `\\${ch}`
      if (ch === '\t') return '\\tab '
      return Array.from({ length: ch.length }, (_, k) => ch.charCodeAt(k))
        .map((code) => (code > 127 ? `\\u${code > 32767 ? code - 65536 : code}?` : String.fromCharCode(code)))
        .join('')
    })
    .join('')

const SIZE: Record<string, number> = {
  TITLE: 52,
  SUBTITLE: 30,
  HEADING_1: 40,
  HEADING_2: 32,
  HEADING_3: 28,
  HEADING_4: 24,
  HEADING_5: 22,
  HEADING_6: 22,
}

function blocksRtf(blocks: readonly Block[]): string {
  let out = ''
  for (const b of blocks) {
    if (b.t === 'p') {
      const size = SIZE[String(b.style.namedStyleType)] ?? 22
      out += `\\pard\\plain\\fs${size}${b.bullet ? `\\li${720 * ((b.bullet.nestingLevel ?? 0) + 1)}\\bullet\\tab ` : ' '}`
      for (const e of b.els) {
        const t = elText(e).replace(/\n$/, '').replace(/\f/g, '')
        if (e.t === 'pageBreak') out += '\\page '
        if (!t) continue
        const s = e.style
        const on = `${s.bold ? '\\b' : ''}${s.italic ? '\\i' : ''}${s.underline ? '\\ul' : ''}${s.strikethrough ? '\\strike' : ''}`
        out += on ? `{${on} ${escRtf(t)}}` : escRtf(t)
      }
      out += '\\par\n'
    } else if (b.t === 'table') {
      for (const row of b.rows) {
        out +=
          '\\trowd' +
          row.cells.map((_, k) => `\\cellx${(k + 1) * Math.floor(9360 / Math.max(1, row.cells.length))}`).join('')
        for (const cell of row.cells)
          out += `\\pard\\intbl ${escRtf(
            cell.content
              .map((x) => (x.t === 'p' ? x.els.map(elText).join('') : ''))
              .join(' ')
              .replace(/\n/g, ' ')
              .trim(),
          )}\\cell`
        out += '\\row\n'
      }
    }
  }
  return out
}

/** An RTF 1.x document with fonts, paragraph sizes by named style, bold/italic/underline runs, lists and tables. */
export function renderRtf(doc: DocModel): string {
  let body = ''
  const walk = (ts: TabModel[]) => ts.forEach((t) => ((body += blocksRtf(t.body)), walk(t.children)))
  walk(doc.tabs)
  return `{\\rtf1\\ansi\\ansicpg1252\\uc1\\deff0{\\fonttbl{\\f0\\fswiss Arial;}}\n\\paperw12240\\paperh15840\\margl1440\\margr1440\\margt1440\\margb1440\n${body}}`
}
