import type { Entity, OracleInput, OracleResult } from '../../types.ts'
import { nothingElseChanged, readStateChanges, verdict } from '../../predicates.ts'
import { docEdits, fileIdByName } from '../doc-correction.ts'
import { docRestUnchanged } from '../../docs-rest.ts'

/** `digits`: the instruction shows digits ("(1, 2, 3...)"), so roman numerals do not follow it (0460). */
export type DocsNumberedListParams = { actor: string; title: string; items: string[]; digits?: boolean }

type Para = {
  text: string
  namedStyleType: string
  bullet: { listId: string; nestingLevel: number; ordered: boolean; glyphType?: string } | null
}

/**
 * The glyph types that number (Docs' dump names the glyph of an ordered item's level): digits and roman numerals.
 * Letters (ALPHA, UPPER_ALPHA) order a list but do not number it (docs/decisions/0459).
 */
const NUMERALS = new Set(['DECIMAL', 'ZERO_DECIMAL', 'ROMAN', 'UPPER_ROMAN'])
const DIGITS = new Set(['DECIMAL', 'ZERO_DECIMAL'])

const parasOf = (state: OracleInput['initial'], id: string | undefined): Para[] => {
  const doc = state.services.docs?.entities.documents?.[id ?? ''] as Entity | undefined
  const tabs = (doc?.tabs as unknown as { paragraphs: Para[] }[] | undefined) ?? []
  return tabs[0]?.paragraphs ?? []
}

/**
 * Turn one section's lines into a single numbered list. In the named document, the paragraphs listed become items of
 * one ordered list at the top level, numbered with digits or roman numerals (letters fail; roman numerals too where
 * the instruction shows digits); every other paragraph
 * keeps its list state and style (the other plain section, the bulleted section); the text is unchanged (retyping the
 * steps with "1." fails); the rest of the document (text and paragraph styles, headers, tabs) is as it was; the
 * near-duplicate document and everything else stay unchanged.
 */
export function docsNumberedList({
  initial,
  final,
  diff,
  params: p,
}: OracleInput<DocsNumberedListParams>): OracleResult {
  const docId = fileIdByName(initial, p.title)
  const before = parasOf(initial, docId)
  const after = parasOf(final, docId)
  const sameText =
    before.length > 0 && before.length === after.length && before.every((b, i) => b.text === after[i]!.text)
  const items = after.filter((a) => p.items.includes(a.text))
  const lists = new Set(items.map((a) => a.bullet?.listId))
  const others = sameText
    ? before.map((b, i) => [b, after[i]!] as const).filter(([b]) => !p.items.includes(b.text))
    : []
  const kept = others.filter(
    ([b, a]) =>
      b.namedStyleType === a.namedStyleType &&
      !!b.bullet === !!a.bullet &&
      (!b.bullet || b.bullet.ordered === a.bullet!.ordered),
  )
  const glyphs = p.digits ? DIGITS : NUMERALS
  const checks = [
    { name: 'the document text is unchanged', ok: sameText },
    {
      name: 'every step is a numbered list item',
      ok:
        items.length === p.items.length &&
        items.every(
          (a) => a.bullet?.ordered === true && a.bullet.nestingLevel === 0 && glyphs.has(a.bullet.glyphType ?? ''),
        ),
    },
    { name: 'the steps form one list', ok: lists.size === 1 },
    {
      name: 'every other paragraph keeps its list state and style',
      ok: sameText && kept.length === others.length,
      note: `${kept.length}/${others.length}`,
    },
    // Styles, headers, tabs, the steps' own style: a struck-through section, bold steps or an added header paid 1
    // beside the list (docs/decisions/0481). The steps' list state is judged above.
    {
      name: 'the rest of the document is unchanged',
      ok: docRestUnchanged(initial, final, docId, { bulletsOf: p.items }),
    },
  ]
  return verdict(checks, nothingElseChanged(diff, [...docEdits(docId), readStateChanges]))
}
