import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { findUserById } from '../../envs/core/users.ts'
import { nowMs } from '../../envs/core/clock.ts'
import { Rng } from '../../envs/core/rng.ts'
import type { Db } from '../../envs/core/db.ts'
import { listableFiles } from '../../envs/drive/store/visibility.ts'
import { audiences, effectiveRole } from '../../envs/drive/store/files.ts'
import { listUsers } from '../../envs/core/users.ts'

const FOLDER = 'application/vnd.google-apps.folder'
const USERS = ['ann', 'ben', 'cy', 'dee']

/** A random world: nested folders, shared drives, every kind of grant (some expired), files under files. */
function randomSeed(rng: Rng) {
  const keys: string[] = ['team', 'ops']
  const folders: string[] = ['team', 'ops']
  const files = Array.from({ length: 120 }, (_, i) => {
    const folder = rng.chance(0.25)
    // Mostly under a folder or drive; now and then under a plain file, which only a seed can do.
    const parent = rng.chance(0.2) ? undefined : rng.chance(0.06) ? rng.pick(keys) : rng.pick(folders)
    const permissions = Array.from({ length: rng.int(0, 2) }, (_, j) => {
      const type = rng.pick(['user', 'user', 'group', 'domain', 'anyone'] as const)
      return {
        id: `p${i}x${j}`,
        type,
        role: rng.pick(['reader', 'writer', 'owner']),
        ...(type === 'user' ? { user: rng.pick(USERS) } : {}),
        ...(type === 'group' ? { emailAddress: rng.pick(['Dee@Example.com', 'crew@other.org']) } : {}),
        ...(type === 'domain' ? { domain: rng.pick(['example.com', 'EXAMPLE.COM', 'other.org']) } : {}),
        ...(type === 'domain' || type === 'anyone' ? { allowFileDiscovery: rng.chance(0.5) } : {}),
        ...(rng.chance(0.15) ? { expiration: rng.pick(['-1d', '+1d']) } : {}),
      }
    })
    const key = `k${i}`
    keys.push(key)
    if (folder) folders.push(key)
    return {
      key,
      name: `item ${i}`,
      mimeType: folder ? FOLDER : 'text/plain',
      owner: rng.pick(USERS),
      ...(parent ? { parent } : {}),
      permissions,
    }
  })
  return {
    name: 'visibility',
    now: '2026-03-10T15:00:00Z',
    users: USERS.map((id) => ({ id, email: `${id}@example.com`, name: id })),
    drive: {
      sharedDrives: [
        { key: 'team', name: 'Team', creator: 'ann', members: [{ user: 'ben', role: 'reader' }] },
        { key: 'ops', name: 'Ops', creator: 'cy', members: [{ emailAddress: 'dee@example.com', role: 'writer' }] },
      ],
      files,
    },
  }
}

/**
 * What files.list may show a user, worked out directly: a file they own in My Drive, or one they hold an
 * unexpired user/group grant on (or a discoverable domain/anyone one), or one below a folder or shared drive
 * (or any parent) they reach that way.
 */
function expectedVisible(db: Db, userId: string): string[] {
  const user = findUserById(db, userId)!
  const me = user.email.toLowerCase()
  const domain = me.split('@')[1]
  const now = nowMs(db)
  const rows = db.$client
    .prepare('SELECT id, mime_type AS mimeType, owner_id AS ownerId, drive_id AS driveId, parents FROM drive_files')
    .all() as { id: string; mimeType: string; ownerId: string; driveId: string | null; parents: string }[]
  const perms = db.$client
    .prepare(
      'SELECT file_id AS fileId, type, email_address AS email, domain, allow_file_discovery AS discovery, expiration_ms AS exp FROM drive_permissions',
    )
    .all() as {
    fileId: string
    type: string
    email: string | null
    domain: string | null
    discovery: number
    exp: number | null
  }[]
  const direct = new Set(rows.filter((r) => r.ownerId === userId && r.driveId === null).map((r) => r.id))
  for (const p of perms) {
    if (p.exp !== null && p.exp <= now) continue
    const applies =
      p.type === 'user' || p.type === 'group'
        ? p.email?.toLowerCase() === me
        : p.type === 'domain'
          ? p.discovery === 1 && p.domain?.toLowerCase() === domain
          : p.discovery === 1
    if (applies) direct.add(p.fileId)
  }
  const folders = new Map(
    rows.filter((r) => r.mimeType === FOLDER).map((r) => [r.id, JSON.parse(r.parents) as string[]]),
  )
  const reached = new Set(direct)
  for (let grew = true; grew;) {
    grew = false
    for (const [id, parents] of folders)
      if (!reached.has(id) && parents.some((p) => reached.has(p))) {
        reached.add(id)
        grew = true
      }
  }
  return rows
    .filter((r) => direct.has(r.id) || (JSON.parse(r.parents) as string[]).some((p) => reached.has(p)))
    .map((r) => r.id)
    .sort()
}

describe('drive.files.list visibility', () => {
  test('lists exactly the files a user owns, is granted, or reaches through folders and shared drives', async () => {
    for (const value of [1, 2, 3]) {
      const h = harness(randomSeed(new Rng(value)))
      // Later grants and moves change what is reachable: a folder shared after the fact, a file moved under it.
      const ann = h.google('ann')
      const list = (
        await h.call('GET', '/drive/v3/files?pageSize=1000&fields=files(id,mimeType,ownedByMe,parents)', { token: ann })
      ).body.files as { id: string; mimeType: string; ownedByMe: boolean; parents?: string[] }[]
      const mine = list.filter((f) => f.ownedByMe)
      const folder = mine.find((f) => f.mimeType === FOLDER)
      const file = mine.find((f) => f.mimeType !== FOLDER && f.id !== folder?.id)
      if (folder)
        expect(
          (
            await h.call('POST', `/drive/v3/files/${folder.id}/permissions`, {
              token: ann,
              json: { type: 'user', role: 'reader', emailAddress: 'cy@example.com' },
            })
          ).status,
        ).toBe(200)
      if (folder && file)
        expect(
          (
            await h.call(
              'PATCH',
              `/drive/v3/files/${file.id}?addParents=${folder.id}&removeParents=${(file.parents ?? []).join(',')}`,
              { token: ann, json: {} },
            )
          ).status,
        ).toBe(200)
      const db = h.entry.world.db
      for (const id of USERS) {
        const listed = listableFiles(db, findUserById(db, id)!)
          .map((v) => v.row.id)
          .sort()
        const expected = expectedVisible(db, id)
        expect(expected.length).toBeGreaterThan(0)
        expect(listed, `seed ${value}, ${id}`).toEqual(expected)
      }
    }
  })
})

describe('who can see a file (the audience a removal keeps for the changes feed)', () => {
  test('audiences() names exactly the users whose effective role is not none, for every file', () => {
    for (const value of [1, 2, 3, 4]) {
      const h = harness(randomSeed(new Rng(value)))
      const db = h.entry.world.db
      const ids = db.$client.prepare('SELECT id FROM drive_files ORDER BY rowid').pluck().all() as string[]
      const users = listUsers(db)
      const got = audiences(db, ids, users)
      let seen = 0
      for (const id of ids) {
        const want = users.filter((u) => effectiveRole(db, id, u.id) !== 'none').map((u) => u.id)
        expect(got.get(id), `file ${id}, seed ${value}`).toEqual(want)
        seen += want.length
      }
      // Neither everything nor nothing: the random grants leave files that some users see and others do not.
      expect(seen).toBeGreaterThan(ids.length)
      expect(seen).toBeLessThan(ids.length * users.length)
    }
  })
})
