import { bad } from '../errors.ts'
import { indexedLength, noteChange } from './block-index.ts'
import { charge } from './work.ts'
import { contentLen, type Block, type DocModel, type TabModel } from './types.ts'

/** One addressable segment: the body (indices from 0, a section break first) or a header/footer/footnote (from 0). */
export type Seg = { tab: TabModel; id: string; blocks: Block[]; from: number }

/** Every tab, depth first, in document order. */
export function allTabs(doc: DocModel): TabModel[] {
  const out: TabModel[] = []
  const walk = (tabs: TabModel[]) => tabs.forEach((t) => (out.push(t), walk(t.children)))
  walk(doc.tabs)
  return out
}

/** The tab a request addresses: `tabId` or the first tab. */
export function tabOf(doc: DocModel, tabId: string | undefined): TabModel {
  if (tabId === undefined || tabId === '') return doc.tabs[0]!
  const tab = allTabs(doc).find((t) => t.props.tabId === tabId)
  if (!tab) throw bad(`The tab with ID ${tabId} does not exist.`)
  return tab
}

/** The segment a location/range addresses. */
export function segOf(doc: DocModel, tabId: string | undefined, segmentId: string | undefined): Seg {
  const tab = tabOf(doc, tabId)
  if (!segmentId) return { tab, id: '', blocks: tab.body, from: 0 }
  const blocks = tab.headers[segmentId] ?? tab.footers[segmentId] ?? tab.footnotes[segmentId]
  if (!blocks) throw bad(`The segment with ID ${segmentId} does not exist.`)
  return { tab, id: segmentId, blocks, from: 0 }
}

export const segEnd = (seg: Seg) => seg.from + (indexedLength(seg.blocks) ?? contentLen(seg.blocks))

/** Every segment of a tab (body first). */
export function segmentsOf(tab: TabModel): Seg[] {
  const out: Seg[] = [{ tab, id: '', blocks: tab.body, from: 0 }]
  for (const group of [tab.headers, tab.footers, tab.footnotes])
    for (const [id, blocks] of Object.entries(group)) out.push({ tab, id, blocks, from: 0 })
  return out
}

/**
 * Shifts named ranges after `len` units were inserted at `index` of a segment. Every change of a segment's length
 * is reported here or to shiftDelete, right after it is made: the segment's block index follows it (block-index.ts).
 */
export function shiftInsert(seg: Seg, index: number, len: number) {
  noteChange(seg.blocks, index - seg.from, index - seg.from)
  charge(seg.tab.namedRanges.length)
  for (const nr of seg.tab.namedRanges)
    for (const r of nr.ranges) {
      if (r.segmentId !== seg.id) continue
      if (index <= r.start) ((r.start += len), (r.end += len))
      else if (index < r.end) r.end += len
    }
}

/** Shrinks named ranges after [s, e) of a segment was deleted; ranges left empty are dropped. */
export function shiftDelete(seg: Seg, s: number, e: number) {
  noteChange(seg.blocks, s - seg.from, e - seg.from)
  charge(seg.tab.namedRanges.length)
  const cut = (x: number) => (x <= s ? x : x >= e ? x - (e - s) : s)
  for (const nr of seg.tab.namedRanges) {
    for (const r of nr.ranges) if (r.segmentId === seg.id) ((r.start = cut(r.start)), (r.end = cut(r.end)))
    nr.ranges = nr.ranges.filter((r) => r.end > r.start)
  }
  seg.tab.namedRanges = seg.tab.namedRanges.filter((nr) => nr.ranges.length > 0)
}
