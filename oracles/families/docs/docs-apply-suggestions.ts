import type { Entity, OracleInput, OracleResult } from '../../types.ts'
import { nothingElseChanged, readStateChanges, verdict } from '../../predicates.ts'
import { docEdits, fileIdByName } from '../doc-correction.ts'
import { docRestUnchanged } from '../../docs-rest.ts'

export type DocsApplySuggestionsParams = {
  actor: string
  title: string
  /** Emails of the suggestion authors: legal's are applied, the intern's stay pending. */
  legal: string
  intern: string
  /** Legal's suggestions: in the paragraph starting with `clause`, `from` becomes `to`. */
  edits: { clause: string; from: string; to: string }[]
}

type Suggestion = { id: string; author: string; inserted: string; deleted: string }
type DocView = { paragraphs: string[]; suggestions: Suggestion[] }
type Tab = { paragraphs?: { text?: string }[] }

/** Body paragraphs (the text without pending suggestions) and the pending suggestions of one document. */
function docView(state: OracleInput['initial'], id: string | undefined): DocView | undefined {
  const doc = state.services.docs?.entities.documents?.[id ?? ''] as Entity | undefined
  if (!doc) return undefined
  const tabs = (doc.tabs as unknown as Tab[] | undefined) ?? []
  return {
    paragraphs: tabs[0]?.paragraphs?.map((p) => p.text ?? '') ?? [],
    suggestions: (doc.suggestions as unknown as Suggestion[] | undefined) ?? [],
  }
}

/**
 * Apply one author's suggestions as real edits. The document's text without pending suggestions must equal the
 * initial one with exactly legal's replacements made in their clauses (every other paragraph, the history that
 * repeats the old values included, unchanged); none of legal's suggestions may stay pending; every one of the
 * intern's must still be pending with the same inserted and deleted text. The rest of the document (styles, tabs,
 * headers and footers, named ranges, tables) must be as it was. Nothing else may change.
 */
export function docsApplySuggestions({
  initial,
  final,
  diff,
  params: p,
}: OracleInput<DocsApplySuggestionsParams>): OracleResult {
  const docId = fileIdByName(initial, p.title)
  const before = docView(initial, docId)
  const after = docView(final, docId)
  const want = before?.paragraphs.map((text) => {
    const e = p.edits.find((x) => text.startsWith(x.clause))
    return e ? text.replace(e.from, e.to) : text
  })
  const got = after?.paragraphs ?? []
  const clauses = (ps: string[] | undefined) => ps?.filter((t) => p.edits.some((e) => t.startsWith(e.clause)))
  const others = (ps: string[] | undefined) => ps?.filter((t) => !p.edits.some((e) => t.startsWith(e.clause)))
  const same = (a: unknown, b: unknown) => a !== undefined && JSON.stringify(a) === JSON.stringify(b)
  const key = (s: Suggestion) => JSON.stringify([s.id, s.inserted, s.deleted])
  const internBefore = before?.suggestions.filter((s) => s.author === p.intern).map(key) ?? []
  const internAfter = after?.suggestions.filter((s) => s.author === p.intern).map(key) ?? []
  const legalLeft = after?.suggestions.filter((s) => s.author === p.legal) ?? []
  const checks = [
    { name: 'the document exists', ok: before !== undefined && after !== undefined },
    {
      name: "legal's clauses read with their suggested values",
      ok: same(clauses(got), clauses(want)),
      note: (clauses(got) ?? []).join(' | '),
    },
    { name: 'every other paragraph is unchanged', ok: same(others(got), others(want)) && got.length === want?.length },
    // A clause deleted and written again elsewhere (at the end, say) keeps both lists above but not the document.
    { name: 'the paragraphs keep their order', ok: same(got, want) },
    // The paragraph texts alone paid a struck-through or restyled paragraph, or an added tab (docs/decisions/0473).
    { name: 'the rest of the document is unchanged', ok: docRestUnchanged(initial, final, docId) },
    {
      name: "none of legal's suggestions is still pending",
      ok: legalLeft.length === 0,
      note: `${legalLeft.length} pending`,
    },
    {
      name: "the intern's suggestions are all still pending, unchanged",
      ok: internBefore.length > 0 && same(internAfter, internBefore),
    },
  ]
  return verdict(checks, nothingElseChanged(diff, [...docEdits(docId), readStateChanges]))
}
