import { describe, expect, test } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import { harness, type Harness } from '../../envs/core/testing/harness.ts'
import { nowMs } from '../../envs/core/clock.ts'
import { updateRows } from '../../envs/core/db.ts'
import { files, permissions } from '../../envs/drive/schema.ts'
import { nameColumns } from '../../envs/drive/store/name-search.ts'

// The role walk takes the file and user rows its caller holds and reads the clock only for expiring grants;
// toFile skips what `fields=` leaves out; Drive's updates run without drizzle's query building (decision 0305).

const F = '/drive/v3/files'
const FOLDER = 'application/vnd.google-apps.folder'

function seed() {
  return {
    name: 'role-facts',
    now: '2026-03-10T15:00:00Z',
    users: [
      { id: 'ann', email: 'ann@example.com', name: 'Ann' },
      { id: 'ben', email: 'ben@example.com', name: 'Ben' },
      { id: 'cat', email: 'cat@example.com', name: 'Cat' },
    ],
    drive: {
      files: [
        {
          key: 'team',
          name: 'Team',
          mimeType: FOLDER,
          owner: 'ann',
          permissions: [
            { type: 'user' as const, role: 'writer' as const, user: 'ben' },
            { type: 'user' as const, role: 'reader' as const, user: 'cat' },
          ],
        },
        { key: 'doc', id: 'docInTeam0001', name: 'doc in team', owner: 'ann', parent: 'team', text: 'hello' },
        { key: 'solo', id: 'annSoloFile01', name: 'ann solo', owner: 'ann', text: 'solo' },
        { key: 'other', id: 'annOtherFile1', name: 'ann other', owner: 'ann', text: 'other' },
      ],
    },
  }
}

const as = (h: Harness, user: string) => ({ token: h.google(user) })
const get = (h: Harness, user: string, id: string, fields = '*') =>
  h.call('GET', `${F}/${id}?fields=${encodeURIComponent(fields)}`, as(h, user))

describe('drive role walk with the rows the caller holds', () => {
  test('a grant on the folder reaches the file inside, with its role', async () => {
    const h = harness(seed())
    const ben = await get(h, 'ben', 'docInTeam0001')
    expect(ben.status, ben.text).toBe(200)
    expect(ben.body.capabilities.canEdit).toBe(true)
    expect(ben.body.capabilities.canDelete).toBe(false)
    const cat = await get(h, 'cat', 'docInTeam0001')
    expect(cat.status).toBe(200)
    expect(cat.body.capabilities.canEdit).toBe(false)
    expect(cat.body.permissions).toBeUndefined()
    const rename = (user: string) =>
      h.call('PATCH', `${F}/docInTeam0001`, { json: { name: `by ${user}` }, ...as(h, user) })
    expect((await rename('ben')).status).toBe(200)
    expect((await rename('cat')).status).toBe(403)
    expect((await h.call('DELETE', `${F}/docInTeam0001`, as(h, 'ben'))).status).toBe(403)
    expect((await get(h, 'cat', 'annSoloFile01')).status).toBe(404)
    expect((await h.call('DELETE', `${F}/annSoloFile01`, as(h, 'ann'))).status).toBe(204)
  })

  test('an expired grant gives no access and an unexpired one does', async () => {
    const h = harness(seed())
    const grant = {
      role: 'reader',
      type: 'user',
      emailAddress: 'cat@example.com',
      expirationTime: '2026-03-01T00:00:00Z',
    }
    const made = await h.call('POST', `${F}/annSoloFile01/permissions`, { json: grant, ...as(h, 'ann') })
    expect(made.status, made.text).toBe(200)
    expect((await get(h, 'cat', 'annSoloFile01')).status).toBe(404)
    const later = { expirationTime: '2026-04-01T00:00:00Z' }
    const path = `${F}/annSoloFile01/permissions/${made.body.id}`
    expect((await h.call('PATCH', path, { json: later, ...as(h, 'ann') })).status).toBe(200)
    const seen = await get(h, 'cat', 'annSoloFile01')
    expect(seen.status).toBe(200)
    expect(seen.body.capabilities.canDownload).toBe(true)
    // Once the grant is gone, so is the access.
    expect((await h.call('DELETE', path, as(h, 'ann'))).status).toBe(204)
    expect((await get(h, 'cat', 'annSoloFile01')).status).toBe(404)
  })

  test('owner and last modifier show as themselves to each viewer, listed or got', async () => {
    const h = harness(seed())
    const edit = { json: { name: 'edited' }, ...as(h, 'ben') }
    expect((await h.call('PATCH', `${F}/docInTeam0001`, edit)).status).toBe(200)
    const ann = await get(h, 'ann', 'docInTeam0001')
    const annAsOwner = { emailAddress: 'ann@example.com', displayName: 'Ann', me: true }
    expect(ann.body.owners).toEqual([expect.objectContaining(annAsOwner)])
    expect(ann.body.lastModifyingUser).toEqual(expect.objectContaining({ emailAddress: 'ben@example.com', me: false }))
    expect(ann.body.modifiedByMe).toBe(false)
    const ben = await get(h, 'ben', 'docInTeam0001')
    expect(ben.body.owners[0]).toEqual(expect.objectContaining({ displayName: 'Ann', me: false }))
    expect(ben.body.lastModifyingUser).toEqual(expect.objectContaining({ displayName: 'Ben', me: true }))
    expect(ben.body.owners[0].permissionId).toBe(ann.body.owners[0].permissionId)
    const q = encodeURIComponent("name = 'edited'")
    const some = await h.call('GET', `${F}?q=${q}&fields=files(id,owners,lastModifyingUser)`, as(h, 'ben'))
    const { owners, lastModifyingUser } = ben.body
    expect(some.body.files).toEqual([{ id: 'docInTeam0001', owners, lastModifyingUser }])
    const few = await h.call('GET', `${F}?q=${q}&fields=files(id,name,capabilities/canEdit)`, as(h, 'cat'))
    expect(few.body.files).toEqual([{ id: 'docInTeam0001', name: 'edited', capabilities: { canEdit: false } }])
  })
})

describe('drive writes through updateRows', () => {
  test('file and permission updates write what they set', async () => {
    const h = harness(seed())
    const patch = { name: 'renamed solo', description: 'about it', starred: true, properties: { a: '1' } }
    expect((await h.call('PATCH', `${F}/annSoloFile01`, { json: patch, ...as(h, 'ann') })).status).toBe(200)
    const got = await get(h, 'ann', 'annSoloFile01')
    expect(got.body).toEqual(expect.objectContaining({ ...patch, trashed: false, version: '1' }))
    expect((await h.call('GET', `${F}?q=${encodeURIComponent("name contains 'renamed'")}`)).body.files).toHaveLength(1)
    expect((await h.call('PATCH', `${F}/annSoloFile01`, { json: { trashed: true } })).status).toBe(200)
    const trashed = (await get(h, 'ann', 'annSoloFile01')).body
    expect(trashed).toEqual(expect.objectContaining({ trashed: true, explicitlyTrashed: true }))
    const grant = (role: string) =>
      h.call('POST', `${F}/annOtherFile1/permissions`, {
        json: { role, type: 'user', emailAddress: 'Ben@example.com' },
      })
    const first = await grant('reader')
    const second = await grant('writer')
    expect(second.body.id).toBe(first.body.id)
    const listed = await h.call('GET', `${F}/annOtherFile1/permissions`)
    expect(listed.body.permissions.filter((p: { id: string }) => p.id === first.body.id)).toEqual([
      expect.objectContaining({ role: 'writer', emailAddress: 'ben@example.com', type: 'user' }),
    ])
    const path = `${F}/annOtherFile1/permissions/${first.body.id}`
    expect((await h.call('PATCH', path, { json: { role: 'commenter' } })).body.role).toBe('commenter')
    expect((await get(h, 'ben', 'annOtherFile1')).body.capabilities.canComment).toBe(true)
    expect((await h.call('DELETE', path)).status).toBe(204)
    expect((await get(h, 'ben', 'annOtherFile1')).status).toBe(404)
  })

  test('updateRows leaves a row as drizzle update does, and hands SQL values to drizzle', () => {
    const h = harness(seed())
    const db = h.entry.world.db
    const set = {
      name: 'Same Name',
      starred: true,
      trashed: false,
      description: '',
      size: null,
      ...nameColumns(db, 'Same Name'),
    }
    expect(updateRows(db, files, set, { id: 'annSoloFile01' }).changes).toBe(1)
    db.update(files).set(set).where(eq(files.id, 'annOtherFile1')).run()
    const row = (id: string) =>
      db.$client.prepare('SELECT * FROM drive_files WHERE id = ?').get(id) as Record<string, unknown>
    const { id: _a, content: _c1, full_text: _t1, checksums: _s1, head_revision_id: _r1, ...one } = row('annSoloFile01')
    const { id: _b, content: _c2, full_text: _t2, checksums: _s2, head_revision_id: _r2, ...two } = row('annOtherFile1')
    expect({ ...one, created_ms: 0, modified_ms: 0 }).toEqual({ ...two, created_ms: 0, modified_ms: 0 })
    expect(row('annSoloFile01').starred).toBe(1)
    const appended = { name: sql`name || '!'` as unknown as string, starred: undefined }
    expect(updateRows(db, files, appended, { id: 'annSoloFile01' }).changes).toBe(1)
    expect(row('annSoloFile01').name).toBe('Same Name!')
    expect(row('annSoloFile01').starred).toBe(1)
    const nobody = { fileId: 'docInTeam0001', id: 'nobody' }
    expect(updateRows(db, permissions, { role: 'commenter' }, nobody).changes).toBe(0)
    expect(() => updateRows(db, files, { name: 'x' }, { id: undefined })).toThrow(/id is undefined/)
    expect(nowMs(db)).toBeGreaterThan(0)
  })
})
