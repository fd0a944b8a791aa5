import { describe, expect, it } from 'vitest'
import { engine } from './engine.ts'

const tableOf = (e: ReturnType<typeof engine>) => e.body().find((x: any) => x.table)
const cellText = (cell: any) =>
  cell.content.map((p: any) => p.paragraph.elements.map((x: any) => x.textRun?.content ?? '').join('')).join('')

describe('docs.documents.batchUpdate insertTable', () => {
  it('inserts a newline then the table with Google index layout', () => {
    const e = engine()
    e.apply({ insertTable: { location: { index: 1 }, rows: 2, columns: 2 } })
    const body = e.body()
    expect(body.map((x: any) => Object.keys(x).find((k) => k !== 'startIndex' && k !== 'endIndex'))).toEqual([
      'sectionBreak',
      'paragraph',
      'table',
      'paragraph',
    ])
    const t = body[2]
    expect([t.startIndex, t.endIndex]).toEqual([2, 14])
    expect(t.table.rows).toBe(2)
    expect(t.table.columns).toBe(2)
    const r0 = t.table.tableRows[0]
    expect(r0.startIndex).toBe(3)
    expect(r0.tableCells.map((c: any) => [c.startIndex, c.endIndex])).toEqual([
      [4, 6],
      [6, 8],
    ])
    expect(r0.tableCells[0].content[0].startIndex).toBe(5)
    expect(t.table.tableRows[1].tableCells[1].content[0].startIndex).toBe(12)
    expect(body[3].startIndex).toBe(14)
    expect(t.table.tableStyle.tableColumnProperties).toHaveLength(2)
    expect(r0.tableCells[0].tableCellStyle).toMatchObject({ rowSpan: 1, columnSpan: 1, contentAlignment: 'TOP' })
  })

  it('lets text be written into a cell at its content index', () => {
    const e = engine()
    e.apply(
      { insertTable: { location: { index: 1 }, rows: 1, columns: 2 } },
      { insertText: { location: { index: 5 }, text: 'Name' } },
      { insertText: { location: { index: 11 }, text: 'Qty' } },
    )
    const t = tableOf(e)
    expect(t.table.tableRows[0].tableCells.map(cellText)).toEqual(['Name\n', 'Qty\n'])
    expect(t.endIndex).toBe(2 + 1 + 1 + (1 + 5) + (1 + 4) + 1)
  })

  it('rejects zero rows and more than 20 columns', () => {
    const e = engine()
    expect(e.error({ insertTable: { location: { index: 1 }, rows: 0, columns: 2 } })).toMatch(/rows must be at least 1/)
    expect(e.error({ insertTable: { location: { index: 1 }, rows: 1, columns: 21 } })).toMatch(/at most 20/)
  })
})

describe('docs.documents.batchUpdate table rows and columns', () => {
  const grid = () =>
    engine([
      {
        table: [
          ['a', 'b'],
          ['c', 'd'],
        ],
      },
    ])

  it('insertTableRow adds a row below with as many cells as columns', () => {
    const e = grid()
    const start = tableOf(e).startIndex
    e.apply({
      insertTableRow: {
        tableCellLocation: { tableStartLocation: { index: start }, rowIndex: 0, columnIndex: 0 },
        insertBelow: true,
      },
    })
    const t = tableOf(e).table
    expect(t.rows).toBe(3)
    expect(t.tableRows.map((r: any) => r.tableCells.map(cellText))).toEqual([
      ['a\n', 'b\n'],
      ['\n', '\n'],
      ['c\n', 'd\n'],
    ])
  })

  it('insertTableColumn adds a column to the left and widens the column properties', () => {
    const e = grid()
    const start = tableOf(e).startIndex
    e.apply({
      insertTableColumn: {
        tableCellLocation: { tableStartLocation: { index: start }, rowIndex: 1, columnIndex: 1 },
        insertRight: false,
      },
    })
    const t = tableOf(e).table
    expect(t.columns).toBe(3)
    expect(t.tableStyle.tableColumnProperties).toHaveLength(3)
    expect(t.tableRows[1].tableCells.map(cellText)).toEqual(['c\n', '\n', 'd\n'])
  })

  it('deleteTableRow and deleteTableColumn remove cells and shift the following paragraph', () => {
    const e = grid()
    const before = tableOf(e)
    e.apply({
      deleteTableRow: { tableCellLocation: { tableStartLocation: { index: before.startIndex }, rowIndex: 0 } },
    })
    e.apply({
      deleteTableColumn: { tableCellLocation: { tableStartLocation: { index: before.startIndex }, columnIndex: 1 } },
    })
    const body = e.body()
    const t = body.find((x: any) => x.table)
    expect(t.table.tableRows.map((r: any) => r.tableCells.map(cellText))).toEqual([['c\n']])
    expect(t.endIndex).toBe(t.startIndex + 6)
    expect(body[body.indexOf(t) + 1].startIndex).toBe(t.endIndex)
  })

  it('deleting the last row removes the table', () => {
    const e = engine([{ table: [['only']] }])
    e.apply({
      deleteTableRow: { tableCellLocation: { tableStartLocation: { index: tableOf(e).startIndex }, rowIndex: 0 } },
    })
    expect(tableOf(e)).toBeUndefined()
  })

  it('rejects a table start location that is not a table and out-of-range cells', () => {
    const e = grid()
    expect(
      e.error({ insertTableRow: { tableCellLocation: { tableStartLocation: { index: 1 }, rowIndex: 0 } } }),
    ).toMatch(/no table starting at index 1/)
    expect(
      e.error({
        deleteTableRow: { tableCellLocation: { tableStartLocation: { index: tableOf(e).startIndex }, rowIndex: 5 } },
      }),
    ).toMatch(/row index 5 is out of bounds/)
  })
})

describe('docs.documents.batchUpdate merge and cell styles', () => {
  it('mergeTableCells concatenates text into the head cell and sets spans; unmerge resets them', () => {
    const e = engine([
      {
        table: [
          ['a', 'b'],
          ['c', 'd'],
        ],
      },
    ])
    const start = tableOf(e).startIndex
    e.apply({
      mergeTableCells: {
        tableRange: {
          tableCellLocation: { tableStartLocation: { index: start }, rowIndex: 0, columnIndex: 0 },
          rowSpan: 1,
          columnSpan: 2,
        },
      },
    })
    let head = tableOf(e).table.tableRows[0].tableCells[0]
    expect(head.tableCellStyle).toMatchObject({ rowSpan: 1, columnSpan: 2 })
    expect(cellText(head)).toBe('a\nb\n')
    expect(cellText(tableOf(e).table.tableRows[0].tableCells[1])).toBe('\n')
    e.apply({
      unmergeTableCells: {
        tableRange: {
          tableCellLocation: { tableStartLocation: { index: start }, rowIndex: 0, columnIndex: 0 },
          rowSpan: 1,
          columnSpan: 2,
        },
      },
    })
    head = tableOf(e).table.tableRows[0].tableCells[0]
    expect(head.tableCellStyle.columnSpan).toBe(1)
  })

  it('updateTableCellStyle, updateTableRowStyle, updateTableColumnProperties and pinTableHeaderRows change only the masked fields', () => {
    const e = engine([
      {
        table: [
          ['a', 'b'],
          ['c', 'd'],
        ],
      },
    ])
    const loc = { index: tableOf(e).startIndex }
    const bg = { color: { rgbColor: { red: 1 } } }
    e.apply(
      {
        updateTableCellStyle: {
          tableRange: {
            tableCellLocation: { tableStartLocation: loc, rowIndex: 1, columnIndex: 1 },
            rowSpan: 1,
            columnSpan: 1,
          },
          tableCellStyle: { backgroundColor: bg, contentAlignment: 'MIDDLE' },
          fields: 'backgroundColor',
        },
      },
      {
        updateTableRowStyle: {
          tableStartLocation: loc,
          rowIndices: [0],
          tableRowStyle: { minRowHeight: { magnitude: 30, unit: 'PT' } },
          fields: 'minRowHeight',
        },
      },
      {
        updateTableColumnProperties: {
          tableStartLocation: loc,
          columnIndices: [1],
          tableColumnProperties: { widthType: 'FIXED_WIDTH', width: { magnitude: 90, unit: 'PT' } },
          fields: 'widthType,width',
        },
      },
      { pinTableHeaderRows: { tableStartLocation: loc, pinnedHeaderRowsCount: 1 } },
    )
    const t = tableOf(e).table
    expect(t.tableRows[1].tableCells[1].tableCellStyle.backgroundColor).toEqual(bg)
    expect(t.tableRows[1].tableCells[1].tableCellStyle.contentAlignment).toBe('TOP')
    expect(t.tableRows[0].tableCells[0].tableCellStyle.backgroundColor).toEqual({})
    expect(t.tableRows[0].tableRowStyle).toMatchObject({
      minRowHeight: { magnitude: 30, unit: 'PT' },
      tableHeader: true,
    })
    expect(t.tableRows[1].tableRowStyle.tableHeader).toBeUndefined()
    expect(t.tableStyle.tableColumnProperties[1]).toEqual({
      widthType: 'FIXED_WIDTH',
      width: { magnitude: 90, unit: 'PT' },
    })
    expect(
      e.error({
        updateTableColumnProperties: {
          tableStartLocation: loc,
          tableColumnProperties: { width: { magnitude: 2, unit: 'PT' } },
          fields: 'width',
        },
      }),
    ).toMatch(/at least 5 points/)
  })
})

describe('docs.documents.batchUpdate tables: index arithmetic across edits', () => {
  it('text typed into a cell moves every later cell and the paragraph after the table', () => {
    const e = engine([
      {
        table: [
          ['a', 'b'],
          ['c', 'd'],
        ],
      },
      'after',
    ])
    const before = tableOf(e)
    const cell00 = before.table.tableRows[0].tableCells[0].content[0].startIndex
    e.apply({ insertText: { location: { index: cell00 }, text: 'xyz' } })
    const after = tableOf(e)
    const b1 = before.table.tableRows[1].tableCells[1]
    const a1 = after.table.tableRows[1].tableCells[1]
    expect(a1.startIndex).toBe(b1.startIndex + 3)
    expect(after.endIndex).toBe(before.endIndex + 3)
    expect(cellText(after.table.tableRows[0].tableCells[0])).toBe('xyza\n')
    expect(e.text()).toBe('\nxyza\tb\nc\td\nafter\n')
  })

  it('a newline in a cell makes a second paragraph in that cell', () => {
    const e = engine([{ table: [['a']] }])
    const c = tableOf(e).table.tableRows[0].tableCells[0]
    e.apply({ insertText: { location: { index: c.content[0].startIndex + 1 }, text: '\nb' } })
    const cell = tableOf(e).table.tableRows[0].tableCells[0]
    expect(cell.content).toHaveLength(2)
    expect(cell.content.map((p: any) => [p.startIndex, p.endIndex])).toEqual([
      [c.content[0].startIndex, c.content[0].startIndex + 2],
      [c.content[0].startIndex + 2, c.content[0].startIndex + 4],
    ])
    expect(cell.endIndex).toBe(c.content[0].startIndex + 4)
  })

  it('tables nest inside cells', () => {
    const e = engine([{ table: [['outer']] }])
    const c = tableOf(e).table.tableRows[0].tableCells[0]
    e.apply({ insertTable: { location: { index: c.content[0].startIndex }, rows: 1, columns: 1 } })
    const cell = tableOf(e).table.tableRows[0].tableCells[0]
    expect(cell.content.map((x: any) => (x.table ? 'table' : 'p'))).toEqual(['p', 'table', 'p'])
    expect(cell.content[1].table.tableRows[0].tableCells[0].content[0].startIndex).toBe(cell.content[1].startIndex + 3)
  })

  it('insertTableRow below the last row and a whole-table cell style', () => {
    const e = engine([{ table: [['a'], ['b']] }])
    const loc = { index: tableOf(e).startIndex }
    e.apply(
      {
        insertTableRow: {
          tableCellLocation: { tableStartLocation: loc, rowIndex: 1, columnIndex: 0 },
          insertBelow: true,
        },
      },
      {
        updateTableCellStyle: {
          tableStartLocation: loc,
          tableCellStyle: { contentAlignment: 'BOTTOM' },
          fields: 'contentAlignment',
        },
      },
    )
    const t = tableOf(e).table
    expect(t.tableRows.map((r: any) => cellText(r.tableCells[0]))).toEqual(['a\n', 'b\n', '\n'])
    expect(t.tableRows.every((r: any) => r.tableCells[0].tableCellStyle.contentAlignment === 'BOTTOM')).toBe(true)
  })

  it('merging a 2x2 block concatenates all four cells into the head, row by row', () => {
    const e = engine([
      {
        table: [
          ['a', 'b', 'x'],
          ['c', 'd', 'y'],
        ],
      },
    ])
    const start = tableOf(e).startIndex
    e.apply({
      mergeTableCells: {
        tableRange: {
          tableCellLocation: { tableStartLocation: { index: start }, rowIndex: 0, columnIndex: 0 },
          rowSpan: 2,
          columnSpan: 2,
        },
      },
    })
    const t = tableOf(e).table
    expect(cellText(t.tableRows[0].tableCells[0])).toBe('a\nb\nc\nd\n')
    expect(t.tableRows[0].tableCells[0].tableCellStyle).toMatchObject({ rowSpan: 2, columnSpan: 2 })
    expect(cellText(t.tableRows[0].tableCells[2])).toBe('x\n')
    expect(
      e.error({
        mergeTableCells: {
          tableRange: {
            tableCellLocation: { tableStartLocation: { index: start }, rowIndex: 1, columnIndex: 2 },
            rowSpan: 2,
            columnSpan: 1,
          },
        },
      }),
    ).toMatch(/out of the bounds/)
  })
})

describe('docs.documents.batchUpdate rows and columns through merged cells', () => {
  it('a row inserted inside a vertical merge lengthens it; deleting a covered row shortens it', () => {
    const e = engine([
      {
        table: [
          ['a', 'b'],
          ['c', 'd'],
          ['e', 'f'],
        ],
      },
    ])
    const loc = { index: tableOf(e).startIndex }
    e.apply({
      mergeTableCells: {
        tableRange: {
          tableCellLocation: { tableStartLocation: loc, rowIndex: 0, columnIndex: 0 },
          rowSpan: 2,
          columnSpan: 1,
        },
      },
    })
    e.apply({
      insertTableRow: {
        tableCellLocation: { tableStartLocation: loc, rowIndex: 0, columnIndex: 1 },
        insertBelow: true,
      },
    })
    expect(tableOf(e).table.tableRows[0].tableCells[0].tableCellStyle.rowSpan).toBe(3)
    e.apply({
      insertTableRow: {
        tableCellLocation: { tableStartLocation: loc, rowIndex: 3, columnIndex: 1 },
        insertBelow: true,
      },
    })
    expect(tableOf(e).table.tableRows[0].tableCells[0].tableCellStyle.rowSpan).toBe(3)
    e.apply({ deleteTableRow: { tableCellLocation: { tableStartLocation: loc, rowIndex: 1, columnIndex: 1 } } })
    expect(tableOf(e).table.tableRows[0].tableCells[0].tableCellStyle.rowSpan).toBe(2)
    expect(tableOf(e).table.rows).toBe(4)
  })

  it('a column inserted inside a horizontal merge widens it', () => {
    const e = engine([{ table: [['a', 'b', 'c']] }])
    const loc = { index: tableOf(e).startIndex }
    e.apply({
      mergeTableCells: {
        tableRange: {
          tableCellLocation: { tableStartLocation: loc, rowIndex: 0, columnIndex: 0 },
          rowSpan: 1,
          columnSpan: 2,
        },
      },
    })
    e.apply({
      insertTableColumn: {
        tableCellLocation: { tableStartLocation: loc, rowIndex: 0, columnIndex: 1 },
        insertRight: false,
      },
    })
    const t = tableOf(e).table
    expect(t.columns).toBe(4)
    expect(t.tableRows[0].tableCells[0].tableCellStyle.columnSpan).toBe(3)
  })
})
