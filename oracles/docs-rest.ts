import type { Entity, OracleInput } from './types.ts'

type Range = { segmentId?: string | null; startIndex?: number; endIndex?: number; text?: string }
type Tab = {
  text?: string
  paragraphs?: { text?: string }[]
  tables?: { rows: number; columns: number; cells: string[][] }[]
  namedRanges?: { ranges?: Range[] }[]
} & Record<string, unknown>

/** What a family's own checks judge in the first tab, left out of the comparison of the rest. */
export type JudgedElsewhere = {
  /** Table cell texts (the table's shape still counts). */
  cells?: boolean
  /** Named ranges' indexes and text (their id, name and segments still count). */
  rangeContent?: boolean
  /** The texts of first-tab paragraphs whose list state (`bullet`) the family judges (their style still counts). */
  bulletsOf?: string[]
}

/**
 * Every tab of one document as the state view shows it (styles, bullets, links, tables, headers, footers, named
 * ranges, other tabs) but the first tab's texts, which a family's paragraph checks judge: a restyled paragraph or
 * an added tab shows here (docs/decisions/0473, 0474). Undefined when the document is missing.
 */
export function docRest(state: OracleInput['initial'], docId: string | undefined, judged: JudgedElsewhere = {}) {
  const doc = state.services.docs?.entities.documents?.[docId ?? ''] as Entity | undefined
  if (!doc) return undefined
  const tabs = (doc.tabs as unknown as Tab[] | undefined) ?? []
  return tabs.map((t, i) => {
    if (i > 0) return t
    const { text: _text, paragraphs, tables, namedRanges, ...rest } = t
    return {
      ...rest,
      paragraphs: (paragraphs ?? []).map(({ text, ...para }) => {
        if (!judged.bulletsOf?.includes(String(text ?? ''))) return para
        const { bullet: _b, ...rest } = para as Record<string, unknown>
        return rest
      }),
      tables: judged.cells ? tables?.map(({ cells: _c, ...shape }) => shape) : tables,
      namedRanges: judged.rangeContent
        ? namedRanges?.map((n) => ({ ...n, ranges: n.ranges?.map((r) => r.segmentId ?? null) }))
        : namedRanges,
    }
  })
}

/** The rest of one document (see docRest) is as it was; false when the document is missing on either side. */
export function docRestUnchanged(
  initial: OracleInput['initial'],
  final: OracleInput['initial'],
  docId: string | undefined,
  judged: JudgedElsewhere = {},
): boolean {
  const before = docRest(initial, docId, judged)
  return before !== undefined && JSON.stringify(docRest(final, docId, judged)) === JSON.stringify(before)
}
