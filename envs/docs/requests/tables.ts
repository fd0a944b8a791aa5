import { bad } from '../errors.ts'
import { dropFootnote, footnoteRefsOf, insertText, insertionPoint, keepingFootnotes } from '../model/edit.ts'
import { findTableAt, tableDepthAt } from '../model/locate.ts'
import { emptyPara } from '../model/new.ts'
import { segOf, shiftDelete, shiftInsert, type Seg } from '../model/segment.ts'
import { blockLen, clone, type Block, type Cell, type Obj, type Table } from '../model/types.ts'
import { applyMask, pointOf, type Ctx, type Loc } from './common.ts'
import { pushAll } from '../../core/arrays.ts'

const emptyCell = (style: Obj = {}): Cell => ({ content: [emptyPara()], style: clone(style) })
const MAX_CELLS = 20_000
/**
 * Deepest nesting of tables (a table in a cell of a table in a cell …). Deviation (unverified limit): Docs documents
 * none. Each level made every index lookup walk the levels below again: one batchUpdate of 400 nested insertTable
 * requests held the server for 67 s, and documents.get of the result was 163 MB.
 */
export const MAX_TABLE_NESTING = 16

/** insertTable: a newline is inserted first, then the table after it. */
export function insertTableReq(
  ctx: Ctx,
  r: { location?: Loc; endOfSegmentLocation?: { tabId?: string; segmentId?: string }; rows?: number; columns?: number },
) {
  const rows = r.rows ?? 0
  const columns = r.columns ?? 0
  if (!Number.isInteger(rows) || rows < 1) throw bad('The number of rows must be at least 1.')
  if (!Number.isInteger(columns) || columns < 1) throw bad('The number of columns must be at least 1.')
  if (columns > 20) throw bad('The number of columns must be at most 20.')
  if (rows * columns > MAX_CELLS) throw bad('The table is too large.')
  const { seg, index } = pointOf(ctx, r)
  if (seg.tab.footnotes[seg.id]) throw bad('Tables cannot be inserted into footnotes.')
  if (tableDepthAt(seg.blocks, seg.from, index) >= MAX_TABLE_NESTING)
    throw bad(`Tables can be nested at most ${MAX_TABLE_NESTING} deep.`)
  const hit = insertionPoint(seg, index)
  insertText(seg, index, '\n', hit)
  const table: Table = {
    t: 'table',
    columns,
    colProps: Array.from({ length: columns }, () => ({ widthType: 'EVENLY_DISTRIBUTED' })),
    rows: Array.from({ length: rows }, () => ({
      style: {},
      cells: Array.from({ length: columns }, () => emptyCell()),
    })),
  }
  // The paragraph that now starts at index + 1 is the one the table goes before.
  const after = insertionPoint(seg, index + 1)
  after.container.splice(after.i, 0, table)
  shiftInsert(seg, index + 1, blockLen(table))
  return {}
}

type CellLoc = { tableStartLocation?: Loc; rowIndex?: number; columnIndex?: number }

/** The table whose start index a location names. */
export function tableAt(
  ctx: Ctx,
  loc: Loc | undefined,
): { seg: Seg; table: Table; start: number; container: Block[]; i: number } {
  if (!loc) throw bad('The table start location must be specified.')
  const seg = segOf(ctx.doc, loc.tabId, loc.segmentId)
  const hit = findTableAt(seg.blocks, seg.from, loc.index ?? 0)
  if (!hit) throw bad(`The table start location is invalid: there is no table starting at index ${loc.index ?? 0}.`)
  return { seg, table: hit.table, start: hit.start, container: hit.container, i: hit.i }
}

function cellOf(ctx: Ctx, c: CellLoc | undefined) {
  const t = tableAt(ctx, c?.tableStartLocation)
  const row = c?.rowIndex ?? 0
  const col = c?.columnIndex ?? 0
  if (row < 0 || row >= t.table.rows.length)
    throw bad(`The row index ${row} is out of bounds. The table has ${t.table.rows.length} rows.`)
  if (col < 0 || col >= t.table.columns)
    throw bad(`The column index ${col} is out of bounds. The table has ${t.table.columns} columns.`)
  return { ...t, row, col }
}

/** Rewrites a table in place and shifts named ranges by the size change at its end. */
function edit(t: { seg: Seg; table: Table; start: number }, fn: () => void) {
  const before = blockLen(t.table)
  fn()
  const after = blockLen(t.table)
  const end = t.start + Math.min(before, after)
  // Deviation: named ranges inside a table are shifted at the table's end, not per cell.
  if (after > before) shiftInsert(t.seg, end - 1, after - before)
  else if (after < before) shiftDelete(t.seg, end - 1, end - 1 + before - after)
}

export function insertTableRowReq(ctx: Ctx, r: { tableCellLocation?: CellLoc; insertBelow?: boolean }) {
  const t = cellOf(ctx, r.tableCellLocation)
  edit(t, () => {
    const ref = t.table.rows[t.row]!
    const row = { style: clone(ref.style), cells: ref.cells.map((c) => emptyCell(spanless(c.style))) }
    const at = r.insertBelow ? t.row + 1 : t.row
    growSpans(t.table, 'rowSpan', at, (y, x) => [y, x])
    t.table.rows.splice(at, 0, row)
  })
  return {}
}

export function insertTableColumnReq(ctx: Ctx, r: { tableCellLocation?: CellLoc; insertRight?: boolean }) {
  const t = cellOf(ctx, r.tableCellLocation)
  if (t.table.columns >= 20) throw bad('The number of columns must be at most 20.')
  edit(t, () => {
    const at = r.insertRight ? t.col + 1 : t.col
    growSpans(t.table, 'columnSpan', at, (y, x) => [x, y])
    for (const row of t.table.rows) row.cells.splice(at, 0, emptyCell(spanless(row.cells[t.col]?.style ?? {})))
    t.table.colProps.splice(at, 0, clone(t.table.colProps[t.col] ?? { widthType: 'EVENLY_DISTRIBUTED' }))
    t.table.columns += 1
  })
  return {}
}

/**
 * A row (column) inserted at `at` inside a merged cell's span makes the span one longer: every head
 * cell starting before `at` whose span reaches past it grows. `pos` maps (row, col) to (along, across).
 */
function growSpans(
  table: Table,
  key: 'rowSpan' | 'columnSpan',
  at: number,
  pos: (y: number, x: number) => [number, number],
) {
  table.rows.forEach((row, y) =>
    row.cells.forEach((cell, x) => {
      const span = Number(cell.style[key] ?? 1)
      const [along] = pos(y, x)
      if (span > 1 && along < at && along + span > at) cell.style[key] = span + 1
    }),
  )
}

/** A deleted row (column) shortens the spans of merged cells that start before it and cover it. */
function shrinkSpans(
  table: Table,
  key: 'rowSpan' | 'columnSpan',
  gone: number,
  pos: (y: number, x: number) => [number, number],
) {
  table.rows.forEach((row, y) =>
    row.cells.forEach((cell, x) => {
      const span = Number(cell.style[key] ?? 1)
      const [along] = pos(y, x)
      if (span > 1 && along < gone && along + span > gone) cell.style[key] = span - 1
    }),
  )
}

const spanless = (s: Obj) => {
  const o = clone(s)
  delete o.rowSpan
  delete o.columnSpan
  return o
}

/** Removes a whole table block (used when its last row or column goes). */
function removeTable(t: { seg: Seg; table: Table; start: number; container: Block[]; i: number }) {
  const len = blockLen(t.table)
  // Footnotes referenced from the table go with it at once (model/edit.ts).
  if (Object.keys(t.seg.tab.footnotes).length) for (const id of footnoteRefsOf([t.table])) dropFootnote(t.seg.tab, id)
  t.container.splice(t.i, 1)
  shiftDelete(t.seg, t.start, t.start + len)
  // A table always follows a paragraph's newline; merging is not needed because that newline stays.
}

export function deleteTableRowReq(ctx: Ctx, r: { tableCellLocation?: CellLoc }) {
  const t = cellOf(ctx, r.tableCellLocation)
  if (t.table.rows.length === 1) return (removeTable(t), {})
  edit(t, () =>
    keepingFootnotes(t.seg.tab, [t.table], () => {
      shrinkSpans(t.table, 'rowSpan', t.row, (y, x) => [y, x])
      t.table.rows.splice(t.row, 1)
    }),
  )
  return {}
}

export function deleteTableColumnReq(ctx: Ctx, r: { tableCellLocation?: CellLoc }) {
  const t = cellOf(ctx, r.tableCellLocation)
  if (t.table.columns === 1) return (removeTable(t), {})
  edit(t, () =>
    keepingFootnotes(t.seg.tab, [t.table], () => {
      shrinkSpans(t.table, 'columnSpan', t.col, (y, x) => [x, y])
      for (const row of t.table.rows) row.cells.splice(t.col, 1)
      t.table.colProps.splice(t.col, 1)
      t.table.columns -= 1
    }),
  )
  return {}
}

type TableRangeIn = { tableCellLocation?: CellLoc; rowSpan?: number; columnSpan?: number }

function rangeCells(ctx: Ctx, tr: TableRangeIn | undefined) {
  const t = cellOf(ctx, tr?.tableCellLocation)
  const rs = tr?.rowSpan ?? 0
  const cs = tr?.columnSpan ?? 0
  if (rs < 1 || cs < 1) throw bad('The table range must span at least one row and one column.')
  if (t.row + rs > t.table.rows.length || t.col + cs > t.table.columns)
    throw bad('The table range is out of the bounds of the table.')
  return { ...t, rs, cs }
}

/** mergeTableCells: the head cell spans the range; covered cells' text is appended to it. */
export function mergeTableCellsReq(ctx: Ctx, r: { tableRange?: TableRangeIn }) {
  const t = rangeCells(ctx, r.tableRange)
  edit(t, () => {
    const head = t.table.rows[t.row]!.cells[t.col]!
    for (let y = t.row; y < t.row + t.rs; y++)
      for (let x = t.col; x < t.col + t.cs; x++) {
        if (y === t.row && x === t.col) continue
        const cell = t.table.rows[y]!.cells[x]!
        const hasText = cell.content.some((b) => b.t !== 'p' || b.els.some((e) => e.t !== 'text' || e.text !== '\n'))
        if (hasText) pushAll(head.content, cell.content)
        cell.content = [emptyPara()]
        cell.style = spanless(cell.style)
      }
    // An empty head paragraph is dropped when other cells brought text.
    const first = head.content[0]
    if (
      head.content.length > 1 &&
      first?.t === 'p' &&
      first.els.length === 1 &&
      first.els[0]!.t === 'text' &&
      first.els[0]!.text === '\n'
    )
      head.content.shift()
    head.style.rowSpan = t.rs
    head.style.columnSpan = t.cs
  })
  return {}
}

export function unmergeTableCellsReq(ctx: Ctx, r: { tableRange?: TableRangeIn }) {
  const t = rangeCells(ctx, r.tableRange)
  for (let y = t.row; y < t.row + t.rs; y++)
    for (let x = t.col; x < t.col + t.cs; x++) {
      const st = t.table.rows[y]!.cells[x]!.style
      delete st.rowSpan
      delete st.columnSpan
    }
  return {}
}

const CELL_FIELDS = [
  'backgroundColor',
  'borderLeft',
  'borderRight',
  'borderTop',
  'borderBottom',
  'paddingLeft',
  'paddingRight',
  'paddingTop',
  'paddingBottom',
  'contentAlignment',
]

export function updateTableCellStyleReq(
  ctx: Ctx,
  r: { tableRange?: TableRangeIn; tableStartLocation?: Loc; tableCellStyle?: Obj; fields?: string },
) {
  if (r.tableRange && r.tableStartLocation) throw bad('Exactly one of tableRange or tableStartLocation must be set.')
  const t = r.tableRange
    ? rangeCells(ctx, r.tableRange)
    : { ...tableAt(ctx, r.tableStartLocation), row: 0, col: 0, rs: 0, cs: 0 }
  const rs = t.rs || t.table.rows.length
  const cs = t.cs || t.table.columns
  for (let y = t.row; y < t.row + rs; y++)
    for (let x = t.col; x < t.col + cs; x++)
      applyMask(t.table.rows[y]!.cells[x]!.style, r.tableCellStyle, r.fields, CELL_FIELDS, 'updateTableCellStyle')
  return {}
}

export function updateTableColumnPropertiesReq(
  ctx: Ctx,
  r: { tableStartLocation?: Loc; columnIndices?: number[]; tableColumnProperties?: Obj; fields?: string },
) {
  const t = tableAt(ctx, r.tableStartLocation)
  const width = (r.tableColumnProperties?.width as Obj | undefined)?.magnitude
  if (typeof width === 'number' && width < 5) throw bad('The column width must be at least 5 points.')
  const cols = r.columnIndices?.length ? r.columnIndices : t.table.colProps.map((_, k) => k)
  for (const k of cols) {
    if (!Number.isInteger(k) || k < 0 || k >= t.table.columns)
      throw bad(`The column index ${k} is out of bounds. The table has ${t.table.columns} columns.`)
    applyMask(
      t.table.colProps[k]!,
      r.tableColumnProperties,
      r.fields,
      ['width', 'widthType'],
      'updateTableColumnProperties',
    )
  }
  return {}
}

export function updateTableRowStyleReq(
  ctx: Ctx,
  r: { tableStartLocation?: Loc; rowIndices?: number[]; tableRowStyle?: Obj; fields?: string },
) {
  const t = tableAt(ctx, r.tableStartLocation)
  const rows = r.rowIndices?.length ? r.rowIndices : t.table.rows.map((_, k) => k)
  for (const k of rows) {
    if (!Number.isInteger(k) || k < 0 || k >= t.table.rows.length)
      throw bad(`The row index ${k} is out of bounds. The table has ${t.table.rows.length} rows.`)
    applyMask(
      t.table.rows[k]!.style,
      r.tableRowStyle,
      r.fields,
      ['minRowHeight', 'tableHeader', 'preventOverflow'],
      'updateTableRowStyle',
    )
  }
  return {}
}

export function pinTableHeaderRowsReq(ctx: Ctx, r: { tableStartLocation?: Loc; pinnedHeaderRowsCount?: number }) {
  const t = tableAt(ctx, r.tableStartLocation)
  const n = r.pinnedHeaderRowsCount ?? 0
  if (!Number.isInteger(n) || n < 0 || n > t.table.rows.length)
    throw bad(`The pinned header rows count ${n} is out of bounds. The table has ${t.table.rows.length} rows.`)
  t.table.rows.forEach((row, k) => {
    if (k < n) row.style.tableHeader = true
    else delete row.style.tableHeader
  })
  return {}
}
