import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { validateAgainst } from '../support/discovery.ts'
import { driveSeed, q } from './fixtures.ts'

const D = '/drive/v3/drives'
const F = '/drive/v3/files'
const ALL = 'supportsAllDrives=true'

type H = ReturnType<typeof harness>

/** Ann creates a shared drive and adds Ben as `role`; returns its id. */
async function teamDrive(h: H, name = 'Launch', role = 'writer', requestId = 'req-1') {
  const created = await h.call('POST', `${D}?requestId=${requestId}`, { json: { name } })
  expect(created.status).toBe(200)
  const id = created.body.id as string
  if (role)
    expect(
      (
        await h.call('POST', `${F}/${id}/permissions?${ALL}&sendNotificationEmail=false`, {
          json: { type: 'user', role, emailAddress: 'ben@example.com' },
        })
      ).status,
    ).toBe(200)
  return id
}

describe('drive.drives.create', () => {
  test('creates a shared drive whose creator is its organizer, idempotent per requestId', async () => {
    const h = harness(driveSeed)
    const res = await h.call('POST', `${D}?requestId=abc&fields=*`, { json: { name: 'Launch', themeId: 'abacus' } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      kind: 'drive#drive',
      name: 'Launch',
      themeId: 'abacus',
      hidden: false,
      capabilities: { canManageMembers: true, canDeleteDrive: true },
    })
    expect(res.body.id).toMatch(/^0A[A-Za-z0-9]{9}Uk9PVA$/)
    expect(validateAgainst('drive', 'Drive', res.body)).toEqual([])
    const again = await h.call('POST', `${D}?requestId=abc`, { json: { name: 'Launch' } })
    expect(again.status).toBe(409)
    expect(again.body.error.errors[0].reason).toBe('duplicate')
    expect((await h.call('POST', D, { json: { name: 'x' } })).status).toBe(400)
    expect(
      (await h.call('POST', `${D}?requestId=t`, { json: { name: 'x', themeId: 'abacus', colorRgb: '#ffffff' } }))
        .status,
    ).toBe(400)
    const members = (await h.call('GET', `${F}/${res.body.id}/permissions?${ALL}`)).body.permissions
    expect(members.map((p: { emailAddress: string; role: string }) => [p.emailAddress, p.role])).toEqual([
      ['ann@example.com', 'organizer'],
    ])
  })
})

describe('drive.drives.get', () => {
  test('answers members only; others get Shared drive not found', async () => {
    const h = harness(driveSeed)
    const id = await teamDrive(h)
    expect((await h.call('GET', `${D}/${id}`)).body).toEqual({ kind: 'drive#drive', id, name: 'Launch' })
    const ben = (await h.call('GET', `${D}/${id}?fields=*`, { token: h.google('ben') })).body
    expect(ben.capabilities).toMatchObject({ canAddChildren: true, canManageMembers: false, canDeleteChildren: false })
    const cy = await h.call('GET', `${D}/${id}`, { token: h.google('cy') })
    expect(cy.status).toBe(404)
    expect(cy.body.error.message).toBe(`Shared drive not found: ${id}`)
    expect(cy.body.error.status).toBeUndefined()
  })
})

describe('drive.drives.list', () => {
  test('lists the caller’s drives and filters them with q', async () => {
    const h = harness(driveSeed)
    await teamDrive(h, 'Launch')
    await teamDrive(h, 'Finance', '', 'req-2')
    const ann = (await h.call('GET', D)).body
    expect(ann.kind).toBe('drive#driveList')
    expect(ann.drives.map((d: { name: string }) => d.name)).toEqual(['Launch', 'Finance'])
    expect(
      (await h.call('GET', D, { token: h.google('ben') })).body.drives.map((d: { name: string }) => d.name),
    ).toEqual(['Launch'])
    expect(
      (await h.call('GET', `${D}?q=${q("name contains 'fin'")}`)).body.drives.map((d: { name: string }) => d.name),
    ).toEqual(['Finance'])
    expect(
      (await h.call('GET', `${D}?q=${q('memberCount > 1 and not hidden = true')}`)).body.drives.map(
        (d: { name: string }) => d.name,
      ),
    ).toEqual(['Launch'])
    expect(
      (await h.call('GET', `${D}?q=${q("createdTime > '2030-01-01T00:00:00Z' or organizerCount = 1")}`)).body.drives,
    ).toHaveLength(2)
    expect((await h.call('GET', `${D}?q=${q('size > 3')}`)).status).toBe(400)
    const page = (await h.call('GET', `${D}?pageSize=1`)).body
    expect(page.drives).toHaveLength(1)
    expect((await h.call('GET', `${D}?pageSize=1&pageToken=${page.nextPageToken}`)).body.drives[0].name).toBe('Finance')
    expect((await h.call('GET', `${D}?useDomainAdminAccess=true`, { token: h.google('cy') })).status).toBe(403)
  })
})

describe('drive.drives.update', () => {
  test('renames and restricts for organizers only', async () => {
    const h = harness(driveSeed)
    const id = await teamDrive(h)
    const res = await h.call('PATCH', `${D}/${id}?fields=name,colorRgb,restrictions`, {
      json: { name: 'Launch 2', colorRgb: '#123456', restrictions: { driveMembersOnly: true } },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      name: 'Launch 2',
      colorRgb: '#123456',
      restrictions: { driveMembersOnly: true, domainUsersOnly: false },
    })
    expect((await h.call('PATCH', `${D}/${id}`, { json: { name: 'Mine' }, token: h.google('ben') })).status).toBe(403)
    expect((await h.call('PATCH', `${D}/${id}`, { json: { themeId: 'nope' } })).status).toBe(400)
  })
})

describe('drive.drives.hide', () => {
  test('hides a drive for the caller only; drive.drives.unhide shows it again', async () => {
    const h = harness(driveSeed)
    const id = await teamDrive(h)
    expect((await h.call('POST', `${D}/${id}/hide`)).body).toEqual({
      kind: 'drive#drive',
      id,
      name: 'Launch',
      hidden: true,
    })
    expect((await h.call('GET', `${D}?q=${q('hidden = true')}`)).body.drives).toHaveLength(1)
    expect((await h.call('GET', `${D}?q=${q('hidden = true')}`, { token: h.google('ben') })).body.drives).toHaveLength(
      0,
    )
    expect((await h.call('POST', `${D}/${id}/unhide`)).body.hidden).toBe(false)
    expect((await h.call('POST', `${D}/${id}/hide`, { token: h.google('cy') })).status).toBe(404)
  })
})

describe('drive.drives.delete', () => {
  test('refuses a drive with untrashed items and deletes an empty one', async () => {
    const h = harness(driveSeed)
    const id = await teamDrive(h)
    const file = (await h.call('POST', `${F}?${ALL}`, { json: { name: 'plan.txt', parents: [id] } })).body.id
    expect((await h.call('DELETE', `${D}/${id}`, { token: h.google('ben') })).status).toBe(403)
    const busy = await h.call('DELETE', `${D}/${id}`)
    expect(busy.status).toBe(403)
    expect(busy.body.error.errors[0].reason).toBe('cannotDeleteResourceWithChildren')
    await h.call('PATCH', `${F}/${file}?${ALL}`, { json: { trashed: true } })
    expect((await h.call('DELETE', `${D}/${id}`)).status).toBe(204)
    expect((await h.call('GET', `${D}/${id}`)).status).toBe(404)
    expect((await h.call('GET', `${F}/${file}?${ALL}`)).status).toBe(404)
  })
})

describe('drive.teamdrives.list', () => {
  // Also drive.teamdrives.get, drive.teamdrives.create,
  // drive.teamdrives.update and drive.teamdrives.delete (same store).
  test('shows the same store through the legacy Team Drives API', async () => {
    const h = harness(driveSeed)
    const id = await teamDrive(h)
    const list = (await h.call('GET', '/drive/v3/teamdrives')).body
    expect(list).toEqual({ kind: 'drive#teamDriveList', teamDrives: [{ kind: 'drive#teamDrive', id, name: 'Launch' }] })
    const full = (await h.call('GET', `/drive/v3/teamdrives/${id}?fields=*`)).body
    expect(full.capabilities.canRenameTeamDrive).toBe(true)
    expect(validateAgainst('drive', 'TeamDrive', full)).toEqual([])
    const made = (await h.call('POST', '/drive/v3/teamdrives?requestId=legacy', { json: { name: 'Old' } })).body
    expect((await h.call('PATCH', `/drive/v3/teamdrives/${made.id}`, { json: { name: 'Older' } })).body.name).toBe(
      'Older',
    )
    expect((await h.call('GET', `${D}/${made.id}`)).body.name).toBe('Older')
    expect((await h.call('DELETE', `/drive/v3/teamdrives/${made.id}`)).status).toBe(204)
    expect((await h.call('GET', `/drive/v3/teamdrives/${made.id}`)).body.error.errors[0].location).toBe('teamDriveId')
  })
})

describe('shared drive items', () => {
  test('have a driveId and no owners, and take capabilities from membership', async () => {
    const h = harness(driveSeed)
    const id = await teamDrive(h)
    const made = await h.call('POST', `${F}?${ALL}&fields=*`, {
      json: { name: 'spec.txt', parents: [id] },
      token: h.google('ben'),
    })
    expect(made.status).toBe(200)
    expect(made.body).toMatchObject({ driveId: id, teamDriveId: id, parents: [id], ownedByMe: false })
    expect(made.body.owners).toBeUndefined()
    expect(made.body.capabilities).toMatchObject({ canEdit: true, canDelete: false, canTrash: false })
    expect(validateAgainst('drive', 'File', made.body)).toEqual([])
    const annView = (await h.call('GET', `${F}/${made.body.id}?${ALL}&fields=capabilities`)).body
    expect(annView.capabilities).toMatchObject({ canDelete: true, canTrash: true })
    expect((await h.call('GET', `${F}/${made.body.id}`)).status).toBe(404)
    expect((await h.call('GET', `${F}/${made.body.id}?${ALL}`, { token: h.google('cy') })).status).toBe(404)
    expect((await h.call('POST', F, { json: { name: 'x', parents: [id] } })).status).toBe(404)
    expect(
      (await h.call('POST', `${F}?${ALL}`, { json: { name: 'x', parents: [id] }, token: h.google('cy') })).status,
    ).toBe(404)
    expect((await h.call('DELETE', `${F}/${made.body.id}?${ALL}`, { token: h.google('ben') })).status).toBe(403)
    expect(
      (await h.call('PATCH', `${F}/${made.body.id}?${ALL}`, { json: { trashed: true }, token: h.google('ben') }))
        .status,
    ).toBe(403)
    expect((await h.call('DELETE', `${F}/${made.body.id}?${ALL}`)).status).toBe(204)
  })

  test('drive.files.list narrows by corpora and driveId, never widening', async () => {
    const h = harness(driveSeed)
    const id = await teamDrive(h)
    await h.call('POST', `${F}?${ALL}`, { json: { name: 'spec.txt', parents: [id] } })
    const names = async (query: string, who = 'ann') =>
      (await h.call('GET', `${F}?${query}`, { token: h.google(who) })).body.files?.map((f: { name: string }) => f.name)
    expect(await names('')).not.toContain('spec.txt')
    expect(await names(`corpora=drive&driveId=${id}&includeItemsFromAllDrives=true&${ALL}`)).toEqual(['spec.txt'])
    expect(await names(`corpora=drive&driveId=${id}&includeItemsFromAllDrives=true&${ALL}`, 'ben')).toEqual([
      'spec.txt',
    ])
    expect(
      await names(`corpora=allDrives&includeItemsFromAllDrives=true&${ALL}&q=${q("name contains 'spec'")}`, 'ben'),
    ).toEqual(['spec.txt'])
    expect(
      await names(`corpora=allDrives&includeItemsFromAllDrives=true&${ALL}&q=${q("name contains 'spec'")}`, 'cy'),
    ).toEqual([])
    const wrong = await h.call('GET', `${F}?driveId=${id}`)
    expect(wrong.status).toBe(400)
    expect(wrong.body.error.message).toBe(
      'The driveId parameter must be specified if and only if corpora is set to drive.',
    )
    expect((await h.call('GET', `${F}?corpora=drive&driveId=${id}&${ALL}`)).status).toBe(400)
    const stranger = await h.call('GET', `${F}?corpora=drive&driveId=${id}&includeItemsFromAllDrives=true&${ALL}`, {
      token: h.google('cy'),
    })
    expect(stranger.status).toBe(404)
    expect(stranger.body.error.message).toBe(`Shared drive not found: ${id}`)
  })

  test('move into and out of a shared drive, trash cascade and emptyTrash per drive', async () => {
    const h = harness(driveSeed)
    const id = await teamDrive(h, 'Launch', 'fileOrganizer')
    const folder = (await h.call('POST', F, { json: { name: 'Mine', mimeType: 'application/vnd.google-apps.folder' } }))
      .body.id
    const inner = (await h.call('POST', F, { json: { name: 'inner.txt', parents: [folder] } })).body.id
    const moved = await h.call('PATCH', `${F}/${folder}?${ALL}&addParents=${id}&fields=driveId,parents,owners`, {
      json: {},
    })
    expect(moved.status).toBe(200)
    expect(moved.body).toEqual({ driveId: id, parents: [id] })
    expect((await h.call('GET', `${F}/${inner}?${ALL}&fields=driveId`, { token: h.google('ben') })).body.driveId).toBe(
      id,
    )
    expect(
      (await h.call('PATCH', `${F}/${folder}?${ALL}`, { json: { trashed: true }, token: h.google('ben') })).status,
    ).toBe(200)
    expect((await h.call('GET', `${F}/${inner}?${ALL}&fields=trashed`)).body.trashed).toBe(true)
    await h.call('PATCH', `${F}/${folder}?${ALL}`, { json: { trashed: false } })
    const out = await h.call(
      'PATCH',
      `${F}/${inner}?${ALL}&removeParents=${folder}&addParents=root&fields=driveId,owners(emailAddress)`,
      { json: {}, token: h.google('ben') },
    )
    expect(out.status).toBe(200)
    expect(out.body).toEqual({ owners: [{ emailAddress: 'ben@example.com' }] })
    await h.call('PATCH', `${F}/${folder}?${ALL}`, { json: { trashed: true } })
    expect((await h.call('DELETE', `${F}/trash?driveId=${id}`, { token: h.google('ben') })).status).toBe(403)
    expect((await h.call('DELETE', `${F}/trash?driveId=${id}`)).status).toBe(204)
    expect((await h.call('GET', `${F}/${folder}?${ALL}`)).status).toBe(404)
    expect((await h.call('GET', `${F}/${inner}`, { token: h.google('ben') })).status).toBe(200)
  })

  test('drive.permissions.create on a shared drive needs supportsAllDrives and an organizer', async () => {
    const h = harness(driveSeed)
    const id = await teamDrive(h)
    const plain = await h.call('POST', `${F}/${id}/permissions`, {
      json: { type: 'user', role: 'reader', emailAddress: 'cy@example.com' },
    })
    expect(plain.status).toBe(404)
    expect(plain.body.error.message).toBe(`File not found: ${id}.`)
    expect(
      (
        await h.call('POST', `${F}/${id}/permissions?${ALL}`, {
          json: { type: 'user', role: 'reader', emailAddress: 'cy@example.com' },
          token: h.google('ben'),
        })
      ).status,
    ).toBe(403)
    const added = await h.call('POST', `${F}/${id}/permissions?${ALL}&sendNotificationEmail=false`, {
      json: { type: 'user', role: 'commenter', emailAddress: 'cy@example.com' },
    })
    expect(added.body.role).toBe('commenter')
    expect((await h.call('GET', `${D}/${id}`, { token: h.google('cy') })).status).toBe(200)
    expect((await h.call('DELETE', `${F}/${id}/permissions/${added.body.id}?${ALL}`)).status).toBe(204)
    expect((await h.call('GET', `${D}/${id}`, { token: h.google('cy') })).status).toBe(404)
    const myFile = (await h.call('GET', `${F}?q=${q("name = 'Atlas plan.txt'")}`)).body.files[0].id
    expect(
      (
        await h.call('POST', `${F}/${myFile}/permissions`, {
          json: { type: 'user', role: 'organizer', emailAddress: 'cy@example.com' },
        })
      ).status,
    ).toBe(400)
  })
})

describe('demo shared drive', () => {
  test('Product Launch has its members, items inside a folder and Dan’s pending access request', async () => {
    const h = harness('demo')
    const drives = (await h.call('GET', '/drive/v3/drives', { token: h.google('dan') })).body.drives
    expect(drives.map((d: { name: string }) => d.name)).toEqual(['Product Launch'])
    const id = drives[0].id
    const members = (await h.call('GET', `${F}/${id}/permissions?${ALL}`, { token: h.google('bob') })).body.permissions
    expect(members.map((p: { role: string }) => p.role).sort()).toEqual([
      'fileOrganizer',
      'organizer',
      'reader',
      'writer',
    ])
    const items = (
      await h.call(
        'GET',
        `${F}?corpora=drive&driveId=${id}&includeItemsFromAllDrives=true&${ALL}&orderBy=name&fields=files(name,driveId)`,
        { token: h.google('alice') },
      )
    ).body.files
    expect(items.map((f: { name: string }) => f.name)).toEqual([
      'Launch checklist.txt',
      'Plans',
      'Press release draft.txt',
    ])
    expect((await h.call('GET', D, { token: h.google('erin') })).body.drives).toEqual([])
    const eng = (await h.call('GET', `${F}?q=${q("name = 'Engineering'")}`, { token: h.google('bob') })).body.files[0]
      .id
    expect(
      (await h.call('GET', `${F}/${eng}/accessproposals`, { token: h.google('bob') })).body.accessProposals[0]
        .requesterEmailAddress,
    ).toMatch(/^dan@/)
  })
})

describe('drive.permissions.list on shared drive items', () => {
  test('lists the drive members as inherited next to the item’s own grants; restrictions limit new grants', async () => {
    const h = harness(driveSeed)
    const id = await teamDrive(h)
    const file = (await h.call('POST', `${F}?${ALL}`, { json: { name: 'spec.txt', parents: [id] } })).body.id
    await h.call('POST', `${F}/${file}/permissions?${ALL}&sendNotificationEmail=false`, {
      json: { type: 'user', role: 'commenter', emailAddress: 'cy@example.com' },
    })
    const perms = (await h.call('GET', `${F}/${file}/permissions?${ALL}`)).body.permissions
    expect(
      perms.map((p: { emailAddress: string; role: string; permissionDetails: { inherited: boolean }[] }) => [
        p.emailAddress,
        p.role,
        p.permissionDetails[0]!.inherited,
      ]),
    ).toEqual([
      ['ann@example.com', 'organizer', true],
      ['ben@example.com', 'writer', true],
      ['cy@example.com', 'commenter', false],
    ])
    expect(validateAgainst('drive', 'PermissionList', { kind: 'drive#permissionList', permissions: perms })).toEqual([])
    expect((await h.call('GET', `${F}/${file}?${ALL}&fields=id`, { token: h.google('cy') })).status).toBe(200)
    await h.call('PATCH', `${D}/${id}`, { json: { restrictions: { driveMembersOnly: true } } })
    const refused = await h.call('POST', `${F}/${file}/permissions?${ALL}&sendNotificationEmail=false`, {
      json: { type: 'user', role: 'reader', emailAddress: 'zed@example.com' },
    })
    expect(refused.status).toBe(403)
    expect(refused.body.error.errors[0].reason).toBe('teamDriveTeamMembersOnlyRestriction')
    expect(
      (
        await h.call('POST', `${F}/${file}/permissions?${ALL}&sendNotificationEmail=false`, {
          json: { type: 'user', role: 'writer', emailAddress: 'ben@example.com' },
        })
      ).status,
    ).toBe(200)
    await h.call('PATCH', `${D}/${id}`, { json: { restrictions: { driveMembersOnly: false, domainUsersOnly: true } } })
    expect(
      (await h.call('POST', `${F}/${file}/permissions?${ALL}`, { json: { type: 'anyone', role: 'reader' } })).status,
    ).toBe(403)
    expect(
      (
        await h.call('POST', `${F}/${file}/permissions?${ALL}&sendNotificationEmail=false`, {
          json: { type: 'user', role: 'reader', emailAddress: 'out@other.test' },
        })
      ).status,
    ).toBe(403)
  })
})

describe('useDomainAdminAccess', () => {
  test('lets a domain administrator list, read and delete drives they are not a member of', async () => {
    const seed = { ...driveSeed, users: driveSeed.users.map((u) => (u.id === 'cy' ? { ...u, admin: true } : u)) }
    const h = harness(seed)
    const id = await teamDrive(h)
    await h.call('POST', `${F}?${ALL}`, { json: { name: 'left behind.txt', parents: [id] } })
    const cy = h.google('cy')
    expect((await h.call('GET', D, { token: cy })).body.drives).toEqual([])
    expect(
      (await h.call('GET', `${D}?useDomainAdminAccess=true`, { token: cy })).body.drives.map(
        (d: { id: string }) => d.id,
      ),
    ).toEqual([id])
    expect((await h.call('GET', `${D}/${id}?useDomainAdminAccess=true`, { token: cy })).status).toBe(200)
    expect((await h.call('DELETE', `${D}/${id}?allowItemDeletion=true`, { token: cy })).status).toBe(404)
    expect((await h.call('DELETE', `${D}/${id}?allowItemDeletion=true`)).status).toBe(400)
    expect(
      (await h.call('DELETE', `${D}/${id}?useDomainAdminAccess=true&allowItemDeletion=true`, { token: cy })).status,
    ).toBe(204)
    expect((await h.call('GET', D)).body.drives).toEqual([])
    expect((await h.call('GET', `${D}?useDomainAdminAccess=true`, { token: h.google('ben') })).status).toBe(403)
  })
})
