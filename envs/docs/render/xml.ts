import type { Obj, Table, TabModel } from '../model/types.ts'

/** Characters XML 1.0 cannot hold (C0 controls but tab and newlines, lone surrogates, U+FFFE/U+FFFF). */
export const NOT_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** Text as XML character data or an attribute value: markup characters escaped, characters XML cannot hold dropped. */
export const xmlEscape = (s: string) =>
  s.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/**
 * A copy of a model whose strings hold no character XML cannot (NOT_XML dropped), for a renderer that writes XML
 * without that care (the docx package writes U+FFFE and U+FFFF as they are: Word refuses such a file).
 */
export function xmlSafe<T>(value: T): T {
  const drop = (_key: string, v: unknown) => (typeof v === 'string' ? v.replace(NOT_XML, '') : v)
  return JSON.parse(JSON.stringify(value), drop) as T
}

/** Every tab of a document in reading order (a tab, then its child tabs), as the other exports read them. */
export function tabsInOrder(tabs: readonly TabModel[]): TabModel[] {
  const out: TabModel[] = []
  const walk = (ts: readonly TabModel[]) => ts.forEach((t) => (out.push(t), walk(t.children)))
  walk(tabs)
  return out
}

/** The cells a merged cell covers (`row,column`): they stay in the model, emptied, and are not drawn. */
export function coveredCells(table: Table): Set<string> {
  const out = new Set<string>()
  table.rows.forEach((row, y) =>
    row.cells.forEach((cell, x) => {
      const rows = Math.max(1, Number(cell.style.rowSpan ?? 1) || 1)
      const cols = Math.max(1, Number(cell.style.columnSpan ?? 1) || 1)
      for (let dy = 0; dy < rows; dy++) for (let dx = 0; dx < cols; dx++) if (dy || dx) out.add(`${y + dy},${x + dx}`)
    }),
  )
  return out
}

/** A Docs colour (`{color: {rgbColor: {red, green, blue}}}`, channels 0..1, clamped) as `#rrggbb`. */
export function hexColor(c: unknown): string | undefined {
  const rgb = ((c as Obj | undefined)?.color as Obj | undefined)?.rgbColor as Obj | undefined
  if (!rgb) return undefined
  const h = (x: unknown) => {
    const n = typeof x === 'number' && Number.isFinite(x) ? Math.min(Math.max(x, 0), 1) : 0
    return Math.round(n * 255)
      .toString(16)
      .padStart(2, '0')
  }
  return `#${h(rgb.red)}${h(rgb.green)}${h(rgb.blue)}`
}
