import type { Block, DocModel, El, Obj, TabModel } from '../model/types.ts'
import { isOrdered } from '../model/lists.ts'
import { elText } from './text.ts'
import { pushAll } from '../../core/arrays.ts'

const HASHES: Record<string, string> = {
  TITLE: '# ',
  SUBTITLE: '## ',
  HEADING_1: '# ',
  HEADING_2: '## ',
  HEADING_3: '### ',
  HEADING_4: '#### ',
  HEADING_5: '##### ',
  HEADING_6: '###### ',
}
const escMd = (s: string) => s.replace(/([\\`*_[\]#<>|])/g, '\\$1')

function elMd(e: El, tab: TabModel): string {
  if (e.t === 'inline') {
    const uri = (
      (tab.inlineObjects[e.id]?.inlineObjectProperties as Obj | undefined)?.embeddedObject as Obj | undefined
    )?.imageProperties as Obj | undefined
    return `![](${String(uri?.contentUri ?? '')})`
  }
  if (e.t === 'horizontalRule') return '\n---\n'
  let t = escMd(elText(e).replace(/\n$/, '').replace(/\f/g, ''))
  if (!t.trim()) return t
  const s = e.style
  if (s.bold && s.italic) t = `***${t}***`
  else if (s.bold) t = `**${t}**`
  else if (s.italic) t = `*${t}*`
  if (s.strikethrough) t = `~~${t}~~`
  const url = (s.link as Obj | undefined)?.url ?? (e.t === 'richLink' ? e.props.uri : undefined)
  return typeof url === 'string' ? `[${t}](${url})` : t
}

/** Markdown of a container (headings, emphasis, links, lists, pipe tables). */
export function blocksMd(blocks: readonly Block[], tab: TabModel): string[] {
  const lines: string[] = []
  const counters = new Map<string, number[]>()
  let list: string | undefined
  for (const b of blocks) {
    // A list ends with a blank line before whatever follows it (another list included).
    const id = b.t === 'p' ? b.bullet?.listId : undefined
    if (list !== undefined && id !== list) lines.push('')
    list = id
    if (b.t === 'p') {
      const text = b.els.map((e) => elMd(e, tab)).join('')
      if (b.bullet) {
        const level = b.bullet.nestingLevel ?? 0
        const nums = counters.get(b.bullet.listId) ?? []
        nums[level] = (nums[level] ?? 0) + 1
        nums.length = level + 1
        counters.set(b.bullet.listId, nums)
        const mark = isOrdered(tab.lists[b.bullet.listId]) ? `${nums[level]}.` : '*'
        lines.push(`${'    '.repeat(level)}${mark} ${text}`)
      } else lines.push(text ? `${HASHES[String(b.style.namedStyleType)] ?? ''}${text}` : '', '')
    } else if (b.t === 'table') {
      const rows = b.rows.map(
        (r) =>
          `| ${r.cells.map((c) => blocksMd(c.content, tab).filter(Boolean).join(' ').replace(/\|/g, '\\|')).join(' | ')} |`,
      )
      if (rows.length) rows.splice(1, 0, `| ${Array(b.columns).fill(':---').join(' | ')} |`)
      lines.push(...rows, '')
    }
  }
  return lines
}

export function renderMarkdown(doc: DocModel): string {
  const out: string[] = []
  const walk = (ts: TabModel[]) => ts.forEach((t) => (pushAll(out, blocksMd(t.body, t)), walk(t.children)))
  walk(doc.tabs)
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`
}
