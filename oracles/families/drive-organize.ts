import type { OracleInput, OracleResult } from '../types.ts'
import { entities, nothingElseChanged, verdict } from '../predicates.ts'

export type DriveOrganizeParams = { folderName: string; fileIds: string[] }

/**
 * Exactly the named client's files end up in the client folder and nowhere else. Moving everything fails (extra
 * files), copying leaves the originals (new files are collateral), trashing is an unrequested delete; only the
 * `parents` (and bookkeeping) of files may change.
 */
export function driveOrganize({ final, diff, params: p }: OracleInput<DriveOrganizeParams>): OracleResult {
  const folder = entities(final, 'drive', 'files').find((f) => f.name === p.folderName && f.mimeType === 'application/vnd.google-apps.folder' && !f.trashed)
  const inFolder = entities(final, 'drive', 'files').filter((f) => folder && (f.parents as string[]).includes(String(folder.id)) && !f.trashed).map((f) => String(f.id))
  const want = new Set(p.fileIds)
  const moved = p.fileIds.filter((id) => {
    const f = final.services.drive?.entities.files?.[id] as { parents?: string[] } | undefined
    return folder && f?.parents?.length === 1 && f.parents[0] === folder.id
  })
  const checks = [
    { name: 'the client folder exists', ok: !!folder },
    { name: "all the client's files are in it (and only there)", ok: moved.length === want.size, note: `${moved.length}/${want.size}` },
    { name: 'no other file is in it', ok: inFolder.every((id) => want.has(id)) },
  ]
  const violations = nothingElseChanged(diff, [
    { service: 'drive', collection: 'files', id: (_id, c) => c.op === 'updated' && Object.keys(c.fields).every((f) => ['parents', 'modifiedTime', 'version', 'lastModifyingUser'].includes(f)) },
  ])
  return verdict(checks, violations)
}
