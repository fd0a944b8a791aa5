import { describe, expect, test } from 'vitest'
import { getTableColumns } from 'drizzle-orm'
import { harness } from '../../envs/core/testing/harness.ts'
import { insertRow, type Db } from '../../envs/core/db.ts'
import { driveId, nextCounter } from '../../envs/core/ids.ts'
import { nowMs } from '../../envs/core/clock.ts'
import { findUserById } from '../../envs/core/users.ts'
import {
  checksumsOf,
  fileValues,
  FOLDER,
  permissionIdFor,
  recordChange,
  writeFile,
  type NewFile,
} from '../../envs/drive/store/files.ts'
import { nameColumns } from '../../envs/drive/store/name-search.ts'
import { files, permissions, revisions, type FileRow } from '../../envs/drive/schema.ts'
import { driveSeed } from './fixtures.ts'

// writeFile writes a new file's rows through Drive's own statements (docs/decisions/0355); the world it leaves must
// be the one the shared insertRow leaves.

/** What writeFile did before its own statements: the shared writer, for the same rows. */
function referenceWrite(db: Db, f: NewFile): string {
  const owner = f.owner?.id === f.ownerId ? f.owner : findUserById(db, f.ownerId)
  if (!owner) throw new Error(`no user ${f.ownerId}`)
  const now = nowMs(db)
  const at = f.createdMs ?? now
  const id = f.id ?? driveId(db)
  const hasContent = f.content !== undefined
  const row = {
    id,
    name: f.name,
    mimeType: f.mimeType,
    ownerId: owner.id,
    parents: JSON.stringify(f.parents ?? []),
    description: f.description ?? '',
    createdMs: at,
    modifiedMs: f.modifiedMs ?? at,
    lastModifyingUserId: owner.id,
    version: 1,
    content: f.content ?? null,
    size: hasContent ? f.content!.length : null,
    fullText: f.fullText ?? (hasContent && /^text\//.test(f.mimeType) ? f.content!.toString('utf8') : ''),
    headRevisionId: hasContent ? `0B${nextCounter(db, `drive.revision.${id}`)}` : null,
    checksums: hasContent ? checksumsOf(f.content!) : null,
    driveId: f.driveId ?? null,
    ...nameColumns(db, f.name),
  }
  insertRow(db, files, row)
  if (!f.driveId) {
    const perm = { fileId: id, id: permissionIdFor(db, owner.id), type: 'user', role: 'owner' } as const
    insertRow(db, permissions, { ...perm, emailAddress: owner.email })
  }
  if (hasContent) {
    const { headRevisionId, modifiedMs, size } = row
    const rev = { fileId: id, id: headRevisionId!, modifiedMs, userId: owner.id, mimeType: f.mimeType, size }
    // The first revision is the head: its bytes are the file's, not stored again (docs/decisions/0421).
    insertRow(db, revisions, { ...rev, content: null })
  }
  recordChange(db, id, false, now)
  return id
}

const newFiles = (drive: string): NewFile[] => [
  { name: 'notes 1', mimeType: 'text/plain', ownerId: 'ann', content: Buffer.alloc(0) },
  { name: 'Report Q1.txt', mimeType: 'text/plain', ownerId: 'ben', content: Buffer.from('figures'), parents: ['p'] },
  { name: 'Folder', mimeType: FOLDER, ownerId: 'ann', description: 'd', createdMs: 5, modifiedMs: 9 },
  { id: 'clientGivenId0001', name: 'Ünï naïve \ud800', mimeType: 'image/png', ownerId: 'cy', content: Buffer.of(1, 2) },
  { name: 'in a shared drive', mimeType: 'text/csv', ownerId: 'ann', content: Buffer.from('a,b'), driveId: drive },
  { name: 'text given', mimeType: 'text/plain', ownerId: 'ben', content: Buffer.from('x'), fullText: 'other' },
]

describe('writeFile', () => {
  test('reads every column of drive_files, in the table order its statement names them', () => {
    const keys = Object.keys(getTableColumns(files))
    const row = Object.fromEntries(keys.map((k, i) => [k, i % 2 ? `${k}-value` : i])) as unknown as FileRow
    const flags = { starred: true, trashed: false, explicitlyTrashed: true }
    const expected = keys.map((k) => (k in flags ? Number(flags[k as keyof typeof flags]) : (row as never)[k]))
    expect(fileValues({ ...row, ...flags })).toEqual(expected)
  })

  test('leaves the world byte for byte as the shared insertRow does', () => {
    const [mine, theirs] = [harness(driveSeed).entry.world, harness(driveSeed).entry.world]
    expect(Buffer.compare(mine.db.$client.serialize(), theirs.db.$client.serialize())).toBe(0)
    const ids = [mine, theirs].map((w, k) =>
      w.tx((db) => newFiles('0AsharedDrive').map((f) => (k ? referenceWrite : writeFile)(db, f))),
    )
    expect(ids[0]).toEqual(ids[1])
    expect(ids[0]).toHaveLength(6)
    const count = mine.db.$client.prepare('SELECT count(*) FROM drive_revisions WHERE file_id IN (?, ?)').pluck()
    expect(count.get(ids[0]![0], ids[0]![3])).toBe(2)
    expect(Buffer.compare(mine.db.$client.serialize(), theirs.db.$client.serialize())).toBe(0)
  })
})
