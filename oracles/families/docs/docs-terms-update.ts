import type { Entity, OracleInput, OracleResult } from '../../types.ts'
import { nothingElseChanged, readStateChanges, verdict } from '../../predicates.ts'
import { docEdits, fileIdByName } from '../doc-correction.ts'
import { docRestUnchanged } from '../../docs-rest.ts'

export type DocsTermsUpdateParams = {
  actor: string
  title: string
  /** Row label (first column) → the value the second column must hold. */
  cells: Record<string, string>
  namedRange: string
  /** The named range's new content. */
  text: string
  /** The paragraph that holds the named range, before and after the edit. */
  sentence: { from: string; to: string }
}

type Tab = {
  paragraphs: { text: string }[]
  tables: { rows: number; columns: number; cells: string[][] }[]
  namedRanges: { name: string; ranges: { text?: string }[] }[]
}
const tabOf = (state: OracleInput['initial'], id: string | undefined): Tab | undefined => {
  const doc = state.services.docs?.entities.documents?.[id ?? ''] as Entity | undefined
  return (doc?.tabs as unknown as Tab[] | undefined)?.[0]
}

/**
 * Update a terms table and a named range in one document. In the named document the rows named in `cells` hold the
 * new values in their second column and every other cell is as it was; the named range still exists once and holds
 * exactly the new text; the paragraph holding it reads as `sentence.to`, and every other paragraph (the history line
 * that repeats the old values) is unchanged; the rest of the document (styles, tabs, headers and footers, the table's
 * shape) is as it was. The near-duplicate document and everything else stay unchanged.
 */
export function docsTermsUpdate({ initial, final, diff, params: p }: OracleInput<DocsTermsUpdateParams>): OracleResult {
  const docId = fileIdByName(initial, p.title)
  const before = tabOf(initial, docId)
  const after = tabOf(final, docId)
  const table = (t: Tab | undefined) => t?.tables.find((x) => x.columns === 2)
  const [tb, ta] = [table(before), table(after)]
  const wantCells = tb?.cells.map((row) => (row[0]! in p.cells ? [row[0]!, p.cells[row[0]!]!] : row))
  const ranges = after?.namedRanges.filter((n) => n.name === p.namedRange) ?? []
  const wantParas = before?.paragraphs.map((x) => (x.text === p.sentence.from ? p.sentence.to : x.text))
  const checks = [
    { name: 'the document exists', ok: before !== undefined && after !== undefined },
    {
      name: 'the table rows hold the new values and every other cell is unchanged',
      ok: ta !== undefined && JSON.stringify(ta.cells) === JSON.stringify(wantCells),
    },
    {
      name: `the named range "${p.namedRange}" still exists, once, and holds the new text`,
      ok: ranges.length === 1 && ranges[0]!.ranges.length === 1 && ranges[0]!.ranges[0]!.text === p.text,
      note: ranges.map((r) => r.ranges.map((x) => x.text).join('|')).join(', '),
    },
    {
      name: 'the renewal sentence is updated and every other paragraph is unchanged',
      ok: wantParas !== undefined && JSON.stringify(after?.paragraphs.map((x) => x.text)) === JSON.stringify(wantParas),
    },
    // The texts alone paid a struck-through paragraph or an added tab (docs/decisions/0474).
    {
      name: 'the rest of the document is unchanged',
      ok: docRestUnchanged(initial, final, docId, { cells: true, rangeContent: true }),
    },
  ]
  return verdict(checks, nothingElseChanged(diff, [...docEdits(docId), readStateChanges]))
}
