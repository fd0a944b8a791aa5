import type { Json, ServiceState } from '../core/service.ts'
import type { World } from '../core/world.ts'
import { isOrdered } from './model/lists.ts'
import { allTabs } from './model/segment.ts'
import { parasIn } from './model/locate.ts'
import type { Block, DocModel, El, Obj, TabModel } from './model/types.ts'
import { blocksText, elText, plainText } from './render/text.ts'
import { baseView, pendingSuggestions } from './model/suggest.ts'
import { revisionIdOf } from './store/documents.ts'
import { GOOGLE_DOC } from '../drive/docs-bridge.ts'
import { entityMemo, keptValue } from '../core/dump-memo.ts'
import { readTable, tableRead, type TableRead } from '../core/dump-rows.ts'

/*
 * dump() shape — version 1:
 * { version: 1, entities: { documents: { <documentId = Drive file id>: {
 *     documentId, revision: number (0 = never edited), revisionId,
 *     text: string                       // plain text of every tab (tables: cells tab-separated, rows newline-ended)
 *     tabs: [{ tabId, title, index, parentTabId: string|null,
 *              text: string,             // this tab's body as plain text
 *              paragraphs: [{ text, namedStyleType, alignment: string|null,
 *                             bullet: { listId, nestingLevel, ordered, glyphType? } | null,
 *                             bold: boolean, italic: boolean, underline: boolean,   // true when every text run has it
 *                             links: string[],
 *                             styled: [{ text, bold?, italic?, underline?, strikethrough?, smallCaps?, link?,
 *                                        color?: '#rrggbb', fontSize? }] }],
 *                                                   // body paragraphs outside tables, in order;
 *                                                   // styled = runs with such styling
 *              tables: [{ rows: number, columns: number, cells: string[][] }],   // cell texts, no trailing newline
 *              headers: { <id>: text }, footers: { <id>: text }, footnotes: { <id>: text },
 *              namedRanges: [{ id, name, ranges: [{ segmentId: string|null, startIndex, endIndex, text }] }],
 *                                                   // text: the range's content
 *              inlineObjects: { <objectId>: { uri } } }],
 *     suggestions: [{ id, author: email|'', tabId, inserted: string, deleted: string,
 *                     textStyle: string[], paragraphStyle: string[] }] } } } }
 * Texts, paragraphs, tables and segments are the base view (every pending suggestion rejected), as Drive export
 * reads it; named ranges keep their SUGGESTIONS_INLINE indexes and text (what writers address). `suggestions`
 * lists each suggestion still present: the text it inserts and deletes and the style fields it changes.
 * Only documents with stored content whose Drive file still exists appear (Drive's files.create stores an
 * empty one for every new Doc).
 */

/**
 * A paragraph's list membership. An ordered list's item also says its level's `glyphType` (DECIMAL, UPPER_ALPHA,
 * ROMAN, …: docs/decisions/0459), so that letters are told from numbers; an unordered item has none.
 */
function bulletOf(listId: string, nestingLevel: number, list: Obj | undefined): Json {
  const ordered = isOrdered(list)
  const out: Record<string, Json> = { listId, nestingLevel, ordered }
  if (ordered) {
    const levels = (list?.listProperties as Obj | undefined)?.nestingLevels as Obj[] | undefined
    out.glyphType = String(levels?.[nestingLevel]?.glyphType ?? 'GLYPH_TYPE_UNSPECIFIED')
  }
  return out
}

function paragraphs(blocks: readonly Block[], tab: TabModel): Json[] {
  return blocks.flatMap((b): Json[] => {
    if (b.t !== 'p') return []
    const runs = b.els.filter((e) => e.t === 'text' && e.text.trim() !== '')
    const all = (k: string) => runs.length > 0 && runs.every((e) => !!e.style[k])
    return [
      {
        text: b.els.map(elText).join('').replace(/\n$/, ''),
        namedStyleType: String(b.style.namedStyleType ?? 'NORMAL_TEXT'),
        alignment: typeof b.style.alignment === 'string' ? b.style.alignment : null,
        bullet: b.bullet ? bulletOf(b.bullet.listId, b.bullet.nestingLevel ?? 0, tab.lists[b.bullet.listId]) : null,
        bold: all('bold'),
        italic: all('italic'),
        underline: all('underline'),
        links: b.els.flatMap((e) => {
          const url = (e.style.link as { url?: string } | undefined)?.url
          return url ? [url] : []
        }),
        styled: styledRuns(b.els),
      },
    ]
  })
}

const FLAGS = ['bold', 'italic', 'underline', 'strikethrough', 'smallCaps'] as const

/** Text runs carrying emphasis, a link, a colour or a size: `{ text, bold?, …, link?, color?, fontSize? }`. */
function styledRuns(els: readonly El[]): Json[] {
  const out: Json[] = []
  for (const e of els) {
    if (e.t !== 'text') continue
    const run: Record<string, Json> = {}
    for (const f of FLAGS) if (e.style[f]) run[f] = true
    const url = (e.style.link as { url?: string } | undefined)?.url
    if (url) run.link = url
    const rgb = ((e.style.foregroundColor as any)?.color?.rgbColor ?? null) as Record<string, number> | null
    if (rgb && Object.keys(rgb).length)
      run.color = `#${['red', 'green', 'blue']
        .map((k) =>
          Math.round((rgb[k] ?? 0) * 255)
            .toString(16)
            .padStart(2, '0'),
        )
        .join('')}`
    const size = (e.style.fontSize as { magnitude?: number } | undefined)?.magnitude
    if (typeof size === 'number') run.fontSize = size
    const text = e.text.replace(/\n$/, '')
    if (Object.keys(run).length && text) out.push({ text, ...run })
  }
  return out
}

function tables(blocks: readonly Block[]): Json[] {
  return blocks.flatMap((b): Json[] =>
    b.t === 'table'
      ? [
          {
            rows: b.rows.length,
            columns: b.columns,
            cells: b.rows.map((r) => r.cells.map((c) => blocksText(c.content).replace(/\n$/, ''))),
          },
        ]
      : [],
  )
}

const texts = (g: Record<string, Block[]>): Json =>
  Object.fromEntries(Object.entries(g).map(([id, c]) => [id, blocksText(c).replace(/\n$/, '')]))

/** The text a range covers in one segment of a tab (paragraph marks included; any other element is one U+FFFC). */
function rangeText(tab: TabModel, segmentId: string | undefined, start: number, end: number): string {
  const blocks = segmentId
    ? (tab.headers[segmentId] ?? tab.footers[segmentId] ?? tab.footnotes[segmentId] ?? [])
    : tab.body
  return parasIn(blocks, 0, start, end)
    .map((hit) => {
      const text = hit.para.els.map((e) => (e.t === 'text' ? e.text : '\uFFFC')).join('')
      return text.slice(Math.max(0, start - hit.start), Math.max(0, end - hit.start))
    })
    .join('')
}

/** A tab's view: its content as the base view (suggestions rejected) shows it, named ranges as stored. */
function tabView(tab: TabModel, stored: TabModel): Json {
  return {
    tabId: tab.props.tabId,
    title: tab.props.title,
    index: tab.props.index,
    parentTabId: tab.props.parentTabId ?? null,
    text: blocksText(tab.body),
    paragraphs: paragraphs(tab.body, tab),
    tables: tables(tab.body),
    headers: texts(tab.headers),
    footers: texts(tab.footers),
    footnotes: texts(tab.footnotes),
    namedRanges: stored.namedRanges.map((nr) => ({
      id: nr.id,
      name: nr.name,
      ranges: nr.ranges.map((r) => ({
        segmentId: r.segmentId || null,
        startIndex: r.start,
        endIndex: r.end,
        text: rangeText(stored, r.segmentId, r.start, r.end),
      })),
    })),
    inlineObjects: Object.fromEntries(
      Object.entries(tab.inlineObjects).map(([id, o]) => [
        id,
        { uri: String((o.inlineObjectProperties as any)?.embeddedObject?.imageProperties?.sourceUri ?? '') },
      ]),
    ),
  }
}

/**
 * The oracle view of every stored document (shape above): the rows of docs_documents whose Drive file exists and is
 * a Google Doc. A document's view is a function of its id, model and revision, so it is the same object while they
 * are (envs/core/dump-memo.ts).
 */
export function dumpDocs(world: World): ServiceState {
  const db = world.db
  // Both tables' rows are kept on a held world (envs/core/dump-rows.ts): unchanged, the same collection again.
  const fileRows = readTable(world, FILE_TYPES)
  const docRows = readTable(world, DOCUMENTS)
  const documents = keptValue(db, 'docs.documents', [fileRows, docRows], () => {
    // What the join on drive_files (id, its primary key) keeps: documents whose file exists and is a Google Doc.
    const docFiles = new Set(fileRows.filter((f) => f[1] === GOOGLE_DOC).map((f) => f[0]))
    const memo = entityMemo(db, 'docs.documents')
    const out: Record<string, Json> = {}
    for (const r of docRows) {
      const [id, json, revision] = r
      if (!docFiles.has(id)) continue
      out[id] = memo.entity(id, r, () => {
        const model = JSON.parse(json) as DocModel
        const base = baseView(model)
        const stored = allTabs(model)
        return {
          documentId: id,
          revision,
          revisionId: revisionIdOf(id, revision),
          text: plainText(base),
          tabs: allTabs(base).map((t, i) => tabView(t, stored[i]!)),
          suggestions: pendingSuggestions(model),
        }
      })
    }
    return out
  })
  return { version: 1, entities: { documents } }
}

const FILE_TYPES = tableRead('drive_files', ['id', 'mime_type'], ['id']) as TableRead<readonly [string, string]>
const DOCUMENTS = tableRead('docs_documents', ['file_id', 'model', 'revision'], ['file_id']) as TableRead<
  readonly [string, string, number]
>
