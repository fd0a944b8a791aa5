import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { applyFields, parseFields } from '../../envs/core/fields.ts'
import { listUsers } from '../../envs/core/users.ts'
import { Rng } from '../../envs/core/rng.ts'
import type { Db } from '../../envs/core/db.ts'
import { toFile } from '../../envs/drive/map.ts'
import { findFile } from '../../envs/drive/store/files.ts'

/** Every top-level field a rendered file may carry, and the ones a listing row alone renders. */
const ALL_FIELDS = [
  'kind',
  'id',
  'name',
  'mimeType',
  'description',
  'starred',
  'trashed',
  'explicitlyTrashed',
  'parents',
  'properties',
  'appProperties',
  'spaces',
  'version',
  'webViewLink',
  'iconLink',
  'hasThumbnail',
  'viewedByMe',
  'createdTime',
  'modifiedTime',
  'modifiedByMe',
  'owners',
  'driveId',
  'teamDriveId',
  'lastModifyingUser',
  'shared',
  'ownedByMe',
  'capabilities',
  'viewersCanCopyContent',
  'copyRequiresWriterPermission',
  'writersCanShare',
  'permissionIds',
  'isAppAuthorized',
  'permissions',
  'size',
  'quotaBytesUsed',
  'originalFilename',
  'fullFileExtension',
  'fileExtension',
  'headRevisionId',
  'md5Checksum',
  'sha1Checksum',
  'sha256Checksum',
]
const LISTING_FIELDS = [
  'id',
  'name',
  'mimeType',
  'parents',
  'driveId',
  'starred',
  'trashed',
  'createdTime',
  'modifiedTime',
  'owners',
  'ownedByMe',
  'viewedByMe',
  'webViewLink',
  'iconLink',
  'teamDriveId',
]

/** The keys of `full` that `fields` names, in the order it names them (as the `fields` selection answers). */
const project = (full: Record<string, unknown>, fields: readonly string[]) =>
  Object.fromEntries(fields.filter((k) => k in full).map((k) => [k, full[k]]))

/** The users who own Drive files (people, with Google tokens). */
const owners = (db: Db) => {
  const ids = new Set(db.$client.prepare('SELECT DISTINCT owner_id FROM drive_files').pluck().all() as string[])
  return listUsers(db).filter((u) => ids.has(u.id))
}

describe('drive.files.list', () => {
  test('renders a page for a field selection exactly as the whole file, narrowed to those fields', async () => {
    const h = harness('demo')
    const rng = new Rng(7)
    const selections = [
      ['id', 'name', 'mimeType', 'parents', 'driveId'],
      ['id', 'name', 'parents'],
      ...Array.from({ length: 4 }, () => rng.shuffle(LISTING_FIELDS).slice(0, rng.int(1, 6))),
      // With fields a listing row does not hold: the files are read again.
      ...ALL_FIELDS.filter((f) => !LISTING_FIELDS.includes(f)).map((f) => ['id', f]),
      ...Array.from({ length: 4 }, () => rng.shuffle(ALL_FIELDS).slice(0, rng.int(1, 8))),
    ]
    for (const user of owners(h.entry.world.db).slice(0, 3)) {
      const token = h.google(user.id)
      // Values a listing row does not hold: the narrowed pages must still show them.
      const [first] = (await h.call('GET', '/drive/v3/files?pageSize=1&fields=files(id)', { token })).body.files
      const meta = { description: `Notes of ${user.id}`, properties: { a: '1' }, appProperties: { b: '2' } }
      expect((await h.call('PATCH', `/drive/v3/files/${first.id}`, { token, json: meta })).status).toBe(200)
      const allDrives = '&supportsAllDrives=true&includeItemsFromAllDrives=true&orderBy=name'
      for (const query of ['', '&q=trashed%3Dfalse', allDrives]) {
        const full: Record<string, unknown>[] = []
        const narrowed = new Map<string, Record<string, unknown>[]>()
        let pageToken = ''
        let pages = 0
        do {
          const path = `/drive/v3/files?pageSize=5${query}${pageToken && `&pageToken=${pageToken}`}`
          const whole = await h.call('GET', `${path}&fields=nextPageToken,files(*)`, { token })
          expect(whole.status).toBe(200)
          full.push(...(whole.body.files as Record<string, unknown>[]))
          for (const fields of selections) {
            const got = await h.call('GET', `${path}&fields=nextPageToken,files(${fields.join(',')})`, { token })
            expect(got.body.nextPageToken).toBe(whole.body.nextPageToken)
            const key = fields.join(',')
            narrowed.set(key, [...(narrowed.get(key) ?? []), ...(got.body.files as Record<string, unknown>[])])
          }
          pageToken = (whole.body.nextPageToken as string | undefined) ?? ''
          pages++
        } while (pageToken)
        if (query === '') expect(pages, user.id).toBeGreaterThan(1)
        for (const [key, files] of narrowed) {
          const expected = full.map((f) => project(f, key.split(',')))
          expect(JSON.stringify(files), `${user.id} ${query} ${key}`).toBe(JSON.stringify(expected))
        }
      }
    }
  })
})

describe('toFile', () => {
  test('renders the fields it is asked for as the whole rendering has them', () => {
    const h = harness('demo')
    const db = h.entry.world.db
    const rng = new Rng(11)
    const ids = db.$client.prepare('SELECT id FROM drive_files ORDER BY id').pluck().all() as string[]
    expect(ids.length).toBeGreaterThan(20)
    for (const user of owners(db)) {
      for (const id of ids) {
        const row = findFile(db, id)!
        const whole = toFile(db, row, user)
        for (let i = 0; i < 3; i++) {
          const fields = rng.shuffle(ALL_FIELDS).slice(0, rng.int(1, 10))
          const sel = parseFields(fields.join(','))
          const only = new Set(fields)
          const expected = JSON.stringify(applyFields(whole, sel))
          expect(JSON.stringify(applyFields(toFile(db, row, user, only), sel))).toBe(expected)
          expect(JSON.stringify(applyFields(toFile(db, row, user.id, only), sel))).toBe(expected)
        }
      }
    }
  })
})

describe('drive.files.get', () => {
  test('answers the default fields without `fields`, as the whole file has them', async () => {
    const h = harness('demo')
    for (const user of owners(h.entry.world.db).slice(0, 3)) {
      const token = h.google(user.id)
      const list = await h.call('GET', '/drive/v3/files?pageSize=50&fields=files(id)', { token })
      for (const { id } of list.body.files as { id: string }[]) {
        const bare = await h.call('GET', `/drive/v3/files/${id}`, { token })
        const whole = await h.call('GET', `/drive/v3/files/${id}?fields=*`, { token })
        expect(JSON.stringify(bare.body)).toBe(JSON.stringify(project(whole.body, ['kind', 'id', 'name', 'mimeType'])))
      }
    }
  })
})
