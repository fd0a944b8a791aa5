// The stored document model. Styles are kept in wire form (partial TextStyle/ParagraphStyle objects);
// indices are never stored: they are derived when the document is rendered to the wire (wire.ts).

import { charge } from './work.ts'

export type Obj = Record<string, unknown>

/**
 * Suggestion marks on one element: the ids of suggestions that insert it and that delete it, and suggested text
 * style changes keyed by suggestion id (each holds only the fields the suggestion changes, with their new values).
 * Only seeds make them (the API cannot create suggestions); model/suggest.ts renders the three view modes.
 */
export type ElSug = { ins?: string[]; del?: string[]; ts?: Record<string, Obj> }

/** A paragraph element; every non-text element is one UTF-16 unit long. */
export type El = ElBody & { sug?: ElSug }
type ElBody =
  | { t: 'text'; text: string; style: Obj }
  | { t: 'pageBreak' | 'columnBreak' | 'horizontalRule'; style: Obj }
  | { t: 'inline'; id: string; style: Obj }
  | { t: 'footnoteRef'; id: string; style: Obj }
  | { t: 'person'; id: string; props: Obj; style: Obj }
  | { t: 'richLink'; id: string; props: Obj; style: Obj }
  | { t: 'date'; id: string; props: Obj; style: Obj }
  | { t: 'autoText'; kind: string; style: Obj }

export type Para = {
  t: 'p'
  els: El[]
  style: Obj
  positioned?: string[]
  bullet?: { listId: string; nestingLevel?: number; textStyle?: Obj }
  /** Suggested paragraph style changes keyed by suggestion id (the changed fields with their new values). */
  sps?: Record<string, Obj>
}
export type Cell = { content: Block[]; style: Obj }
export type Row = { cells: Cell[]; style: Obj }
export type Table = { t: 'table'; rows: Row[]; columns: number; colProps: Obj[]; pinned?: number }
export type Section = { t: 'section'; style: Obj }
export type Block = Para | Table | Section

export type NamedRangeModel = { id: string; name: string; ranges: { segmentId: string; start: number; end: number }[] }

export type TabModel = {
  props: {
    tabId: string
    title: string
    index: number
    parentTabId?: string
    nestingLevel?: number
    iconEmoji?: string
  }
  body: Block[]
  headers: Record<string, Block[]>
  footers: Record<string, Block[]>
  footnotes: Record<string, Block[]>
  lists: Record<string, Obj>
  namedRanges: NamedRangeModel[]
  inlineObjects: Record<string, Obj>
  positionedObjects: Record<string, Obj>
  documentStyle: Obj
  namedStyles: Obj[]
  children: TabModel[]
}

/**
 * The whole stored document (one row of docs_documents). `suggestions` names the author (an email) of each
 * suggestion id seeds created; the Docs API never shows it (the real one does not either), dumps do.
 */
export type DocModel = { tabs: TabModel[]; suggestions?: Record<string, { author: string }> }

/** Length of one element in UTF-16 code units. */
export const elLen = (e: El): number => (e.t === 'text' ? e.text.length : 1)

/** Length of a block (tables include their start/end, row and cell markers). */
export function blockLen(b: Block): number {
  if (b.t === 'section') return 1
  if (b.t === 'p') {
    // Hot path (every index lookup): a plain loop.
    const els = b.els
    let n = 0
    for (let i = 0; i < els.length; i++) {
      const e = els[i]!
      n += e.t === 'text' ? e.text.length : 1
    }
    charge(1 + els.length)
    return n
  }
  let n = 2
  for (const r of b.rows) {
    n += 1
    charge(1 + r.cells.length)
    for (const c of r.cells) n += 1 + contentLen(c.content)
  }
  return n
}

export const contentLen = (blocks: readonly Block[]): number => blocks.reduce((n, b) => n + blockLen(b), 0)

/** Deep copy of plain JSON data. */
export const clone = <T>(v: T): T => structuredClone(v)
