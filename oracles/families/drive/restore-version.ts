import type { OracleInput, OracleResult } from '../../types.ts'
import { entities, nothingElseChanged, readStateChanges, verdict } from '../../predicates.ts'

export type RestoreVersionParams = { actor: string; file: string; sha256: string; wrong: string[] }

/**
 * Restore an earlier version of a file: the named file's bytes equal that version's (sha256), it keeps its name, type
 * and folder, and nothing else changed (only the file's content fields may). Another version's bytes, or a retyped
 * approximation, fail.
 */
export function restoreVersion({ initial, final, diff, params: p }: OracleInput<RestoreVersionParams>): OracleResult {
  const before = entities(initial, 'drive', 'files').find((f) => f.name === p.file && !f.trashed)
  const after = entities(final, 'drive', 'files').find((f) => f.id === before?.id)
  const checks = [
    { name: 'the file exists', ok: before !== undefined && after !== undefined },
    { name: 'it holds the version asked for, byte for byte', ok: after?.sha256 === p.sha256 },
    {
      name: 'it keeps its name, type and folder',
      ok:
        after !== undefined &&
        after.name === before!.name &&
        after.mimeType === before!.mimeType &&
        !after.trashed &&
        JSON.stringify(after.parents) === JSON.stringify(before!.parents),
    },
  ]
  const content = ['sha256', 'size', 'text', 'body', 'modifiedTime', 'version', 'lastModifyingUser']
  return verdict(
    checks,
    nothingElseChanged(diff, [
      {
        service: 'drive',
        collection: 'files',
        id: (id, c) =>
          id === before?.id && c.op === 'updated' && Object.keys(c.fields).every((f) => content.includes(f)),
      },
      readStateChanges,
    ]),
  )
}
