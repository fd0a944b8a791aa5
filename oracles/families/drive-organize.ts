import type { OracleInput, OracleResult } from '../types.ts'
import { entities, nothingElseChanged, verdict } from '../predicates.ts'
import { fileByName } from '../artifacts.ts'

export type DriveOrganizeParams = {
  /** The client folder (a folder of this name inside `parentName`). */
  folderName: string
  parentName: string
  /** Names of every file that must end up in it (the ones already there included). */
  fileNames: string[]
}

const FOLDER = 'application/vnd.google-apps.folder'
const BOOKKEEPING = ['modifiedTime', 'version', 'lastModifyingUser']

/**
 * Exactly the named client's files end up in the client folder and nowhere else. Only the `parents` of those files
 * may change: moving any other file anywhere (into the near-duplicate folder, say) is collateral, moving everything
 * fails, copying leaves the originals (new files are collateral) and trashing is an unrequested delete.
 */
export function driveOrganize({ initial, final, diff, params: p }: OracleInput<DriveOrganizeParams>): OracleResult {
  const parent = entities(initial, 'drive', 'files').find(
    (f) => f.name === p.parentName && f.mimeType === FOLDER && !f.trashed,
  )
  const folder = entities(initial, 'drive', 'files').find(
    (f) =>
      f.name === p.folderName &&
      f.mimeType === FOLDER &&
      !f.trashed &&
      (f.parents as string[]).includes(String(parent?.id)),
  )
  const want = new Set(p.fileNames.map((n) => String(fileByName(initial, n)?.id ?? `missing:${n}`)))
  const now = (id: string) =>
    final.services.drive?.entities.files?.[id] as { parents?: string[]; trashed?: boolean } | undefined
  const inFolder = entities(final, 'drive', 'files')
    .filter((f) => folder && (f.parents as string[]).includes(String(folder.id)) && !f.trashed)
    .map((f) => String(f.id))
  const moved = [...want].filter(
    (id) => folder && now(id)?.parents?.length === 1 && now(id)!.parents![0] === folder.id && !now(id)!.trashed,
  )
  const checks = [
    { name: 'the client folder exists', ok: !!folder },
    {
      name: "all the client's files are in it (and only there)",
      ok: moved.length === want.size,
      note: `${moved.length}/${want.size}`,
    },
    { name: 'no other file is in it', ok: inFolder.every((id) => want.has(id)) },
  ]
  const violations = nothingElseChanged(diff, [
    {
      service: 'drive',
      collection: 'files',
      id: (id, c) =>
        want.has(id) &&
        c.op === 'updated' &&
        Object.keys(c.fields).every((f) => f === 'parents' || BOOKKEEPING.includes(f)),
    },
  ])
  return verdict(checks, violations)
}
