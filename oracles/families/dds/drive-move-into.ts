import type { OracleInput, OracleResult } from '../../types.ts'
import { entities, nothingElseChanged, verdict } from '../../predicates.ts'

export type DriveMoveIntoParams = { actor: string; fileName: string; folderName: string; driveName: string }

/** Fields a move changes on the moved file (its place, and who owns it once a shared drive holds it). */
const MOVE_FIELDS = ['parents', 'driveId', 'owner', 'modifiedTime', 'version', 'lastModifyingUser']

/**
 * Move one file into a folder of a shared drive. The file (by exact name, untrashed, in the initial state) must end
 * with that folder (the one of that name in the shared drive of that name, not its near-duplicates in another
 * shared drive or in My Drive) as its only parent, with the same bytes; a copy instead of a move, moving the
 * near-duplicate files too, trashing or any other change is collateral (or a delete).
 */
export function driveMoveInto({ initial, final, diff, params: p }: OracleInput<DriveMoveIntoParams>): OracleResult {
  const drive = entities(initial, 'drive', 'drives').find((d) => d.name === p.driveName)
  const folder = entities(initial, 'drive', 'files').find(
    (f) => f.name === p.folderName && f.driveId === drive?.id && !f.trashed,
  )
  const file = entities(initial, 'drive', 'files').find((f) => f.name === p.fileName && !f.trashed)
  const after = entities(final, 'drive', 'files').find((f) => f.id === file?.id)
  const parents = (after?.parents as string[] | undefined) ?? []
  const checks = [
    { name: 'the file is in the folder asked for', ok: !!folder && parents.length === 1 && parents[0] === folder.id },
    { name: 'it sits in that shared drive', ok: !!after && !!drive && after.driveId === drive.id },
    {
      name: 'it is the same file, untouched',
      ok: !!after && !after.trashed && after.sha256 === file?.sha256 && after.name === file?.name,
    },
  ]
  const moved = (id: string) => id === file?.id
  const violations = nothingElseChanged(diff, [
    {
      service: 'drive',
      collection: 'files',
      id: (id, c) => moved(id) && c.op === 'updated' && Object.keys(c.fields).every((f) => MOVE_FIELDS.includes(f)),
    },
    // The owner's permission goes when a shared drive takes the file over.
    {
      service: 'drive',
      collection: 'permissions',
      id: (id, c) => moved(id.split('/')[0]!) && c.op === 'deleted' && (c.before as { role?: string }).role === 'owner',
    },
  ])
  return verdict(checks, violations, { parents: parents.length })
}
