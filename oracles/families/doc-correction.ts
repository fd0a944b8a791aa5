import type { OracleInput, OracleResult } from '../types.ts'
import { docRestUnchanged } from '../docs-rest.ts'
import { entities, nothingElseChanged, readStateChanges, verdict, type Allowed } from '../predicates.ts'

export type DocCorrectionParams = { title: string; wrong: string; right: string }

/** The Drive id of the (untrashed) file with this exact name. */
export const fileIdByName = (state: OracleInput['initial'], name: string) =>
  entities(state, 'drive', 'files').find((f) => f.name === name && !f.trashed)?.id as string | undefined

/** Edits to one document (its Docs entity and Drive bookkeeping fields) are allowed. */
export function docEdits(docId: string | undefined): Allowed[] {
  return [
    { service: 'docs', collection: 'documents', id: (id, c) => id === docId && c.op === 'updated' },
    {
      service: 'drive',
      collection: 'files',
      id: (id, c) =>
        id === docId &&
        c.op === 'updated' &&
        Object.keys(c.fields).every((f) =>
          ['modifiedTime', 'version', 'lastModifyingUser', 'text', 'size'].includes(f),
        ),
    },
  ]
}

/**
 * Correct a figure in one document: its final text must equal the initial text with every occurrence of the
 * wrong figure replaced by the right one (wiping, rewriting or appending the figure fails); the near-duplicate
 * document and everything else must stay unchanged. The rest of the document (styles, tabs, headers and footers,
 * named ranges) must be as it was.
 */
export function docCorrection({ initial, final, diff, params: p }: OracleInput<DocCorrectionParams>): OracleResult {
  const docId = fileIdByName(initial, p.title)
  const before = String(
    (initial.services.docs?.entities.documents?.[docId ?? ''] as { text?: string } | undefined)?.text ?? '',
  )
  const after = String(
    (final.services.docs?.entities.documents?.[docId ?? ''] as { text?: string } | undefined)?.text ?? '',
  )
  const expected = before.split(p.wrong).join(p.right)
  const checks = [
    { name: 'the wrong text is gone from the document', ok: !after.includes(p.wrong) && after.length > 0 },
    { name: 'the document reads exactly as before except for the correction', ok: after === expected },
    // The text alone paid a struck-through paragraph or an added tab (docs/decisions/0474).
    { name: 'the rest of the document is unchanged', ok: docRestUnchanged(initial, final, docId) },
  ]
  return verdict(checks, nothingElseChanged(diff, [...docEdits(docId), readStateChanges]))
}
