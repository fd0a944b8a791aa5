import { createHash } from 'node:crypto'
import type { Json } from '../../../envs/core/service.ts'
import type { OracleInput, OracleResult } from '../../types.ts'
import { entities, nothingElseChanged, readStateChanges, verdict } from '../../predicates.ts'

export type RestoreVersionParams = { actor: string; file: string; sha256: string; wrong: string[] }

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')

/**
 * Whether a file holds the version: its bytes (sha256), or its text with the line endings and final newlines no
 * reader sees set aside. An agent restores through http_request by typing out the text it read from the revision
 * (it cannot pass bytes on), so a lost final newline or CRLF endings are the same version; any other change is not
 * (docs/decisions/0466).
 */
function holdsVersion(file: { sha256?: Json; body?: Json } | undefined, want: string): boolean {
  if (!file) return false
  if (file.sha256 === want) return true
  if (typeof file.body !== 'string') return false
  const text = file.body.replace(/\r\n?/g, '\n').replace(/\n+$/, '')
  return sha(text) === want || sha(`${text}\n`) === want
}

/**
 * Restore an earlier version of a file: the named file's bytes equal that version's (sha256), it keeps its name, type
 * and folder, and nothing else changed (only the file's content fields may). Another version's bytes, or a retyped
 * approximation, fail; the same text retyped (line endings, a final newline aside) holds it (holdsVersion).
 */
export function restoreVersion({ initial, final, diff, params: p }: OracleInput<RestoreVersionParams>): OracleResult {
  const before = entities(initial, 'drive', 'files').find((f) => f.name === p.file && !f.trashed)
  const after = entities(final, 'drive', 'files').find((f) => f.id === before?.id)
  const checks = [
    { name: 'the file exists', ok: before !== undefined && after !== undefined },
    { name: 'it holds the version asked for, its text exactly', ok: holdsVersion(after, p.sha256) },
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
