import { bad } from '../errors.ts'
import { blockAt, checkSurrogate, findPara, parasIn, splitEls, starts, type ParaHit } from './locate.ts'
import { isIndexed } from './block-index.ts'
import { charge } from './work.ts'
import { segEnd, shiftDelete, shiftInsert, type Seg } from './segment.ts'
import { blockLen, clone, contentLen, elLen, type Block, type El, type Para, type TabModel } from './types.ts'
import { spliceAll } from '../../core/arrays.ts'

/** Merges adjacent text runs with equal styles and drops empty runs, as Google keeps runs maximal. */
export function normalize(p: Para) {
  // Two JSON texts per element: dearer than a walk's step.
  charge(NORMALIZE_COST * p.els.length)
  const out: El[] = []
  for (const e of p.els) {
    if (e.t === 'text' && e.text === '') continue
    const last = out[out.length - 1]
    if (e.t === 'text' && last?.t === 'text' && sameStyle(last.style, e.style) && sameSug(last, e)) last.text += e.text
    else out.push(e)
  }
  p.els = out
}

/** Units a normalised element costs (two small JSON.stringify calls, against a walk's one property read). */
export const NORMALIZE_COST = 20

export const sameStyle = (a: object, b: object) => JSON.stringify(a) === JSON.stringify(b)

/** Runs with different suggestion marks stay apart (Google splits runs at suggestion boundaries). */
export const sameSug = (a: El, b: El) => JSON.stringify(a.sug ?? null) === JSON.stringify(b.sug ?? null)

/** The paragraph where text may be inserted at `index`, with Google's bounds errors. */
export function insertionPoint(seg: Seg, index: number): ParaHit {
  if (!Number.isInteger(index) || index < 0) throw bad(`Index ${index} must be greater than or equal to 0.`)
  const hit = findPara(seg.blocks, seg.from, index)
  const end = hit ? Infinity : segEnd(seg)
  if (index >= end) throw bad(`Index ${index} must be less than the end index of the referenced segment, ${end}.`)
  if (!hit)
    throw bad(
      'The insertion index must be inside the bounds of an existing paragraph. You can still create new paragraphs by inserting newlines.',
    )
  checkSurrogate(hit, 'insert')
  return hit
}

/** Text style new text takes at a point: that of the preceding character in the paragraph, else the next one. */
function styleAt(p: Para, offset: number): Record<string, unknown> {
  const [left, right] = splitEls(p, offset)
  const src = left[left.length - 1] ?? right[0]
  const style = src ? clone(src.style) : {}
  delete style.link
  return style
}

/** Inserts text (newlines split the paragraph; new paragraphs copy its style and bullet). */
export function insertText(seg: Seg, index: number, text: string, hit = insertionPoint(seg, index)) {
  if (text === '') return
  const { para, offset, container, i } = hit
  const style = styleAt(para, offset)
  const [left, right] = splitEls(para, offset)
  const lines = text.split('\n')
  if (lines.length === 1) {
    para.els = [...left, { t: 'text', text, style }, ...right]
    normalize(para)
  } else {
    const copy = (els: El[]): Para => {
      const p: Para = { t: 'p', els, style: clone(para.style) }
      delete p.style.headingId
      if (para.bullet) p.bullet = clone(para.bullet)
      normalize(p)
      return p
    }
    // Each new paragraph clones two styles and is normalised: charged like a normalised element more.
    charge(NORMALIZE_COST * lines.length + (container.length - i) / 8)
    const fresh: Para[] = [copy([...left, { t: 'text', text: `${lines[0]}\n`, style: clone(style) }])]
    for (const line of lines.slice(1, -1)) fresh.push(copy([{ t: 'text', text: `${line}\n`, style: clone(style) }]))
    para.els = [{ t: 'text', text: lines[lines.length - 1]!, style: clone(style) }, ...right]
    normalize(para)
    spliceAll(container, i, 0, fresh)
  }
  shiftInsert(seg, index, text.length)
}

/** Inserts one non-text element (page break, image, person, …) at an index. */
export function insertElement(seg: Seg, index: number, el: El, hit = insertionPoint(seg, index)) {
  const [left, right] = splitEls(hit.para, hit.offset)
  if (!('style' in el) || Object.keys(el.style).length === 0) el.style = styleAt(hit.para, hit.offset)
  hit.para.els = [...left, el, ...right]
  normalize(hit.para)
  shiftInsert(seg, index, 1)
}

/** Deletes [s, e) of a segment with Google's rules on tables, cells and the final newline. */
export function deleteRange(seg: Seg, s: number, e: number) {
  if (!Number.isInteger(s) || !Number.isInteger(e)) throw bad('The range indices must be integers.')
  // A paragraph at e proves e is before the segment end without walking the whole segment.
  const b = findPara(seg.blocks, seg.from, e)
  const end = b ? Infinity : segEnd(seg)
  if (e <= s)
    throw bad(
      e === s ? 'The range should not be empty.' : 'The start index of the range must be less than the end index.',
    )
  if (s < (seg.id === '' ? 1 : 0)) throw bad(`Index ${s} must be greater than or equal to ${seg.id === '' ? 1 : 0}.`)
  if (e > end) throw bad(`Index ${e - 1} must be less than the end index of the referenced segment, ${end}.`)
  if (e === end) throw bad('The range cannot include the newline character at the end of the segment.')
  const a = findPara(seg.blocks, seg.from, s)
  if (a) checkSurrogate(a, 'delete')
  if (b) checkSurrogate(b, 'delete')
  const notes = seg.id === '' && Object.keys(seg.tab.footnotes).length > 0 ? footnoteRefsIn(seg, s, e) : []
  deleteIn(seg.blocks, seg.from, s, e)
  shiftDelete(seg, s, e)
  // A footnote goes with its reference at once, so that a later request of the same batch cannot address it.
  for (const id of notes) dropFootnote(seg.tab, id)
}

/** Ids of the footnote references in [s, e) of a segment. */
function footnoteRefsIn(seg: Seg, s: number, e: number): string[] {
  const out: string[] = []
  for (const hit of parasIn(seg.blocks, seg.from, s, e)) {
    let at = hit.start
    charge(hit.para.els.length)
    for (const el of hit.para.els) {
      if (el.t === 'footnoteRef' && at >= s && at < e) out.push(el.id)
      at += elLen(el)
    }
  }
  return out
}

/** Ids of the footnote references anywhere in `blocks` (cells included). */
export function footnoteRefsOf(blocks: Block[], out: string[] = []): string[] {
  for (const b of blocks) {
    if (b.t === 'p') {
      charge(b.els.length)
      for (const el of b.els) if (el.t === 'footnoteRef') out.push(el.id)
    } else if (b.t === 'table')
      for (const row of b.rows) for (const cell of row.cells) footnoteRefsOf(cell.content, out)
  }
  return out
}

/** Runs `fn`, an edit of `blocks`, then drops the footnotes whose references it removed from them. */
export function keepingFootnotes(tab: TabModel, blocks: Block[], fn: () => void) {
  if (Object.keys(tab.footnotes).length === 0) return fn()
  const before = footnoteRefsOf(blocks)
  fn()
  const after = new Set(footnoteRefsOf(blocks))
  for (const id of before) if (!after.has(id)) dropFootnote(tab, id)
}

/** A footnote and the named ranges inside it. */
export function dropFootnote(tab: TabModel, id: string) {
  delete tab.footnotes[id]
  tab.namedRanges.forEach((nr) => (nr.ranges = nr.ranges.filter((r) => r.segmentId !== id)))
  tab.namedRanges = tab.namedRanges.filter((nr) => nr.ranges.length > 0)
}

/** Positions of the blocks holding s and e - 1, and the start index of each block (only those two are read). */
type Ends = [number, number, Record<number, number>]

function walkedEnds(container: Block[], from: number, s: number, e: number): Ends {
  const at = starts(container, from)
  // Blocks are contiguous: the block holding x is the last one starting at or before x (binary search).
  const idxOf = (x: number) => {
    let lo = 0
    let hi = at.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (at[mid]! <= x) lo = mid
      else hi = mid - 1
    }
    return lo
  }
  return [idxOf(s), idxOf(e - 1), at]
}

/** As walkedEnds, from the container's block index (the range lies inside the container: callers checked it). */
function indexedEnds(container: Block[], from: number, s: number, e: number): Ends {
  const a = blockAt(container, from, s)
  const b = blockAt(container, from, e - 1)
  if (!a || !b) return walkedEnds(container, from, s, e)
  return [a.i, b.i, { [a.i]: a.start, [b.i]: b.start }]
}

/** Deletes [s, e) inside one container, descending into a cell when the range lies inside it. */
export function deleteIn(container: Block[], from: number, s: number, e: number): void {
  const [i1, i2, at] = isIndexed(container) ? indexedEnds(container, from, s, e) : walkedEnds(container, from, s, e)
  const b1 = container[i1]!
  if (i1 === i2 && b1.t === 'table' && !(s === at[i1] && e === at[i1]! + blockLen(b1))) {
    // Inside one table: both ends must be in the same cell.
    let at2 = at[i1]! + 1
    for (const row of b1.rows) {
      at2 += 1
      for (const cell of row.cells) {
        at2 += 1
        const cEnd = at2 + contentLen(cell.content)
        if (s >= at2 && e <= cEnd) {
          if (e === cEnd) throw bad('The range cannot include the newline character at the end of the cell.')
          return deleteIn(cell.content, at2, s, e)
        }
        at2 = cEnd
      }
    }
    throw bad('Invalid deletion range. Cannot delete a partial table: the range must include the whole table.')
  }
  if (b1.t === 'table' && s !== at[i1])
    throw bad('Invalid deletion range. Cannot delete a partial table: the range must include the whole table.')
  const b2 = container[i2]!
  if (b2.t === 'table' && e !== at[i2]! + blockLen(b2))
    throw bad('Invalid deletion range. Cannot delete a partial table: the range must include the whole table.')
  if (container[0]?.t === 'section' && i1 === 0 && from === 0)
    throw bad('The range cannot include the section break at the start of the body.')
  const head: El[] = b1.t === 'p' ? splitEls(b1, s - at[i1]!)[0] : []
  let last = i2
  let tail: Para | undefined
  if (b2.t === 'p' && e < at[i2]! + blockLen(b2)) {
    tail = { ...b2, els: splitEls(b2, e - at[i2]!)[1] }
  } else if (head.length > 0) {
    const next = container[i2 + 1]
    if (!next || next.t !== 'p')
      throw bad('Invalid deletion range. The paragraph before a table or section break cannot be merged with it.')
    tail = next
    last = i2 + 1
  }
  const next = container[last + 1]
  if (!tail && next && next.t !== 'p' && (i1 === 0 || container[i1 - 1]!.t !== 'p'))
    throw bad('Invalid deletion range. Cannot delete the newline before a table or section break.')
  charge((container.length - i1) / 8)
  const out: Block[] = []
  if (tail) {
    const merged: Para = { ...tail, els: [...head, ...tail.els] }
    if (head.length > 0 && b1.t === 'p' && i1 !== last) {
      // The merged paragraph keeps the paragraph style of the newline that survives (the tail's).
      merged.positioned = [...(b1.positioned ?? []), ...(tail.positioned ?? [])]
      if (merged.positioned.length === 0) delete merged.positioned
    }
    normalize(merged)
    out.push(merged)
  }
  spliceAll(container, i1, last - i1 + 1, out)
}

export { elLen }
