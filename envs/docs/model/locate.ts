import { bad } from '../errors.ts'
import { indexedBlockAt, indexedLen, isIndexed } from './block-index.ts'
import { charge } from './work.ts'
import { blockLen, elLen, type Block, type Para, type Table } from './types.ts'

/** A paragraph found at an index: its container, position in it, start index and the offset inside it. */
export type ParaHit = { container: Block[]; i: number; start: number; para: Para; offset: number }

/** Start index of every block of a container. */
export function starts(container: readonly Block[], from: number): number[] {
  const out: number[] = []
  let at = from
  for (const b of container) {
    out.push(at)
    at += blockLen(b)
  }
  return out
}

/** Start index of the content of cell (r, c) of a table that starts at `start`. */
export function cellStarts(
  table: Table,
  start: number,
): { row: number; cells: { start: number; content: number }[] }[] {
  let at = start + 1
  return table.rows.map((row) => {
    const rowStart = at
    at += 1
    const cells = row.cells.map((cell) => {
      const s = at
      at += 1
      const content = at
      at += contentLenOf(cell.content)
      return { start: s, content }
    })
    return { row: rowStart, cells }
  })
}

const contentLenOf = (blocks: readonly Block[]) => blocks.reduce((n, b) => n + blockLen(b), 0)

/** The paragraph holding `index` (descending into tables), or undefined when the index is a table/section marker. */
export function findPara(container: Block[], from: number, index: number): ParaHit | undefined {
  const hit = blockAt(container, from, index)
  if (!hit) return undefined
  const { i, start: at } = hit
  const b = container[i]!
  if (b.t === 'p') return { container, i, start: at, para: b, offset: index - at }
  if (b.t === 'table') {
    const layout = cellStarts(b, at)
    for (let r = 0; r < b.rows.length; r++) {
      const row = b.rows[r]!
      for (let c = 0; c < row.cells.length; c++) {
        const cs = layout[r]!.cells[c]!
        const cell = row.cells[c]!
        const end = cs.content + contentLenOf(cell.content)
        if (index >= cs.content && index < end) return findPara(cell.content, cs.content, index)
      }
    }
  }
  return undefined
}

/** The block holding `index` (binary search where the container is indexed, else a walk), if any. */
export function blockAt(container: Block[], from: number, index: number): { i: number; start: number } | undefined {
  const indexed = indexedBlockAt(container, from, index)
  if (indexed !== null) return indexed
  let at = from
  for (let i = 0; i < container.length; i++) {
    const len = blockLen(container[i]!)
    if (index < at + len) return { i, start: at }
    at += len
  }
  return undefined
}

/** How many tables enclose the paragraph holding `index` (0 outside tables, or at a table/section marker). */
export function tableDepthAt(container: Block[], from: number, index: number): number {
  const hit = blockAt(container, from, index)
  if (!hit) return 0
  const b = container[hit.i]!
  if (b.t !== 'table') return 0
  const layout = cellStarts(b, hit.start)
  for (let r = 0; r < b.rows.length; r++)
    for (let c = 0; c < b.rows[r]!.cells.length; c++) {
      const start = layout[r]!.cells[c]!.content
      const cell = b.rows[r]!.cells[c]!.content
      if (index >= start && index < start + contentLenOf(cell)) return 1 + tableDepthAt(cell, start, index)
    }
  return 0
}

/** A table found at its exact start index (anywhere in the segment). */
export type TableHit = { container: Block[]; i: number; start: number; table: Table }

export function findTableAt(container: Block[], from: number, index: number): TableHit | undefined {
  // Only the block holding `index` can be, or hold, a table that starts there.
  const hit = blockAt(container, from, index)
  const b = hit && container[hit.i]
  if (!hit || b?.t !== 'table') return undefined
  if (hit.start === index) return { container, i: hit.i, start: hit.start, table: b }
  const layout = cellStarts(b, hit.start)
  for (let r = 0; r < b.rows.length; r++) {
    for (let c = 0; c < b.rows[r]!.cells.length; c++) {
      const found = findTableAt(b.rows[r]!.cells[c]!.content, layout[r]!.cells[c]!.content, index)
      if (found) return found
    }
  }
  return undefined
}

/** Every paragraph overlapping [start, end) (end exclusive; an empty range selects the paragraph at start). */
export function parasIn(container: Block[], from: number, start: number, end: number, out: ParaHit[] = []): ParaHit[] {
  // Blocks that end at or before `start` overlap nothing: begin at the block holding it.
  const first = start > from && isIndexed(container) ? blockAt(container, from, start) : { i: 0, start: from }
  if (!first) return out
  let at = first.start
  for (let i = first.i; i < container.length; i++) {
    if (end > start ? at >= end : at > start) break
    charge(1)
    const b = container[i]!
    const len = indexedLen(container, i) ?? blockLen(b)
    const overlaps = end > start ? at < end && at + len > start : start >= at && start < at + len
    if (overlaps) {
      if (b.t === 'p') out.push({ container, i, start: at, para: b, offset: 0 })
      else if (b.t === 'table') {
        const layout = cellStarts(b, at)
        b.rows.forEach((row, r) =>
          row.cells.forEach((cell, c) => parasIn(cell.content, layout[r]!.cells[c]!.content, start, end, out)),
        )
      }
    }
    at += len
  }
  return out
}

/** Splits a paragraph's elements at a UTF-16 offset (a text run is cut in two). */
export function splitEls(para: Para, offset: number): [Para['els'], Para['els']] {
  const left: Para['els'] = []
  const right: Para['els'] = []
  charge(para.els.length)
  let at = 0
  for (const e of para.els) {
    const len = elLen(e)
    if (at + len <= offset) left.push(e)
    else if (at >= offset) right.push(e)
    else if (e.t === 'text') {
      // Object.assign onto a new object: copies of `{ ...e, … }` took a hidden class of their own each (0446).
      left.push(Object.assign({}, e, { text: e.text.slice(0, offset - at), style: structuredClone(e.style) }))
      right.push(Object.assign({}, e, { text: e.text.slice(offset - at), style: structuredClone(e.style) }))
    }
    at += len
  }
  return [left, right]
}

/** Text of a paragraph with each non-text element as U+FFFC, so string offsets equal index offsets. */
export const paraText = (p: Para): string => p.els.map((e) => (e.t === 'text' ? e.text : '\uFFFC')).join('')

/** Throws Google's surrogate-pair error when `index` would cut a UTF-16 pair in half. */
export function checkSurrogate(hit: ParaHit, what: 'insert' | 'delete') {
  const [left, right] = splitEls(hit.para, hit.offset)
  const a = left[left.length - 1]
  const b = right[0]
  if (a?.t === 'text' && b?.t === 'text') {
    const hi = a.text.charCodeAt(a.text.length - 1)
    const lo = b.text.charCodeAt(0)
    if (hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff)
      throw bad(
        what === 'insert'
          ? 'The insertion index cannot be within a surrogate pair.'
          : 'The range cannot start or end within a surrogate pair.',
      )
  }
}
