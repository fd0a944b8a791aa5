import { deleteIn, normalize } from './edit.ts'
import { parasIn } from './locate.ts'
import { allTabs, segEnd, segmentsOf, shiftDelete, type Seg } from './segment.ts'
import { clone, elLen, type Block, type DocModel, type El, type Para } from './types.ts'

// Suggestions (docs/decisions/0280-docs-suggestions.md). The stored model is the SUGGESTIONS_INLINE document:
// suggested insertions and deletions are text carrying marks (`El.sug`), so batchUpdate indexes are the inline
// indexes, as Google documents. The two previews are derived from it per request, with indexes recomputed.

export type ViewMode = 'SUGGESTIONS_INLINE' | 'PREVIEW_SUGGESTIONS_ACCEPTED' | 'PREVIEW_WITHOUT_SUGGESTIONS'

/** Every paragraph of a container, table cells included, in document order. */
export function eachPara(blocks: readonly Block[], fn: (p: Para) => void): void {
  for (const b of blocks) {
    if (b.t === 'p') fn(b)
    else if (b.t === 'table') for (const row of b.rows) for (const cell of row.cells) eachPara(cell.content, fn)
  }
}

const segmentsOfDoc = (doc: DocModel): Seg[] => allTabs(doc).flatMap(segmentsOf)

/** Whether any element or paragraph of the document carries a suggestion. */
export function hasSuggestions(doc: DocModel): boolean {
  for (const seg of segmentsOfDoc(doc)) {
    let found = false
    eachPara(seg.blocks, (p) => {
      if (p.sps || p.els.some((e) => e.sug)) found = true
    })
    if (found) return true
  }
  return false
}

/** Index ranges [s, e) of the elements `drop` selects, adjacent ones joined, in document order. */
function dropRanges(seg: Seg, drop: (e: El) => boolean): [number, number][] {
  const out: [number, number][] = []
  for (const hit of parasIn(seg.blocks, seg.from, seg.from, Number.MAX_SAFE_INTEGER)) {
    let at = hit.start
    for (const e of hit.para.els) {
      const len = elLen(e)
      const last = out[out.length - 1]
      if (drop(e)) {
        if (last && last[1] === at) last[1] = at + len
        else out.push([at, at + len])
      }
      at += len
    }
  }
  return out
}

/** Removes the selected elements (last range first, so earlier indexes hold); paragraphs merge as on delete. */
function dropFrom(seg: Seg, drop: (e: El) => boolean): void {
  for (const [s, end] of dropRanges(seg, drop).reverse()) {
    // The segment's final newline always stays (a suggestion cannot remove it either).
    const e = Math.min(end, segEnd(seg) - 1)
    if (e <= s) continue
    try {
      deleteIn(seg.blocks, seg.from, s, e)
      shiftDelete(seg, s, e)
    } catch {
      // Deviation: a suggestion whose removal would cut a table or section break apart stays in the preview.
      // Seeds do not make such suggestions; deleteIn throws before it changes anything.
    }
  }
}

/**
 * The document as a view mode shows it. SUGGESTIONS_INLINE is the stored model itself (marks rendered by
 * wire.ts); PREVIEW_SUGGESTIONS_ACCEPTED drops suggested deletions and applies suggested style changes;
 * PREVIEW_WITHOUT_SUGGESTIONS drops suggested insertions. Both previews carry no marks.
 */
export function viewOf(doc: DocModel, mode: ViewMode): DocModel {
  if (mode === 'SUGGESTIONS_INLINE' || !hasSuggestions(doc)) return doc
  const out = clone(doc)
  const accept = mode === 'PREVIEW_SUGGESTIONS_ACCEPTED'
  for (const seg of segmentsOfDoc(out)) {
    dropFrom(seg, (e) => !!(accept ? e.sug?.del?.length : e.sug?.ins?.length))
    eachPara(seg.blocks, (p) => {
      if (accept) for (const change of Object.values(p.sps ?? {})) Object.assign(p.style, clone(change))
      delete p.sps
      for (const e of p.els) {
        if (accept) for (const change of Object.values(e.sug?.ts ?? {})) Object.assign(e.style, clone(change))
        delete e.sug
      }
      normalize(p)
    })
  }
  delete out.suggestions
  return out
}

/** The document with every pending suggestion rejected: what Drive export, full text and dumps read. */
export const baseView = (doc: DocModel): DocModel => viewOf(doc, 'PREVIEW_WITHOUT_SUGGESTIONS')

/** One pending suggestion as dumps show it. */
export type SuggestionSummary = {
  id: string
  author: string
  tabId: string
  /** The text it inserts and the text it deletes (each in document order, '' when none). */
  inserted: string
  deleted: string
  /** Text style and paragraph style fields it changes. */
  textStyle: string[]
  paragraphStyle: string[]
}

/** Every suggestion still present in the document, in order of first appearance. */
export function pendingSuggestions(doc: DocModel): SuggestionSummary[] {
  const byId = new Map<string, SuggestionSummary>()
  const get = (id: string, tabId: string) => {
    let s = byId.get(id)
    if (!s) {
      s = {
        id,
        author: doc.suggestions?.[id]?.author ?? '',
        tabId,
        inserted: '',
        deleted: '',
        textStyle: [],
        paragraphStyle: [],
      }
      byId.set(id, s)
    }
    return s
  }
  const addAll = (list: string[], keys: string[]) => {
    for (const k of keys) if (!list.includes(k)) list.push(k)
  }
  for (const seg of segmentsOfDoc(doc)) {
    const tabId = seg.tab.props.tabId
    eachPara(seg.blocks, (p) => {
      for (const [id, change] of Object.entries(p.sps ?? {})) addAll(get(id, tabId).paragraphStyle, Object.keys(change))
      for (const e of p.els) {
        const text = e.t === 'text' ? e.text : '\uFFFC'
        for (const id of e.sug?.ins ?? []) get(id, tabId).inserted += text
        for (const id of e.sug?.del ?? []) get(id, tabId).deleted += text
        for (const [id, change] of Object.entries(e.sug?.ts ?? {})) {
          addAll(get(id, tabId).textStyle, Object.keys(change))
        }
      }
    })
  }
  return [...byId.values()]
}
