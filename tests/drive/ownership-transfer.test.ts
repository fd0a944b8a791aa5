import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { driveSeed, q } from './fixtures.ts'

// Ownership transfer (permissions.create/update with transferOwnership=true), docs/decisions/0452.

const F = '/drive/v3/files'
type H = ReturnType<typeof harness>
const ids = (r: { body: { files: { id: string }[] } }) => r.body.files.map((f) => f.id)

async function fileOfAnn(h: H, body = 'twelve bytes') {
  const made = await h.call('POST', `/upload${F}?uploadType=multipart`, {
    body: [
      '--b\r\nContent-Type: application/json\r\n\r\n{"name":"Report.txt"}',
      `--b\r\nContent-Type: text/plain\r\n\r\n${body}`,
      '--b--',
    ].join('\r\n'),
    headers: { 'content-type': 'multipart/related; boundary=b' },
  })
  return made.body.id as string
}
const usage = async (h: H, user: string) =>
  Number(
    (await h.call('GET', '/drive/v3/about?fields=storageQuota', { token: h.google(user) })).body.storageQuota.usage,
  )

describe('ownership transfer', () => {
  test('makes the new owner the owner everywhere it shows, and the old one a writer', async () => {
    const h = harness(driveSeed)
    const id = await fileOfAnn(h)
    const before = { ann: await usage(h, 'ann'), ben: await usage(h, 'ben') }
    const tokens = {
      ann: (await h.call('GET', '/drive/v3/changes/startPageToken')).body.startPageToken,
      ben: (await h.call('GET', '/drive/v3/changes/startPageToken', { token: h.google('ben') })).body.startPageToken,
    }
    const made = await h.call('POST', `${F}/${id}/permissions?transferOwnership=true`, {
      json: { type: 'user', role: 'owner', emailAddress: 'ben@example.com' },
    })
    expect(made.status).toBe(200)
    expect(made.body).toMatchObject({ role: 'owner', emailAddress: 'ben@example.com' })
    const fields = 'owners(emailAddress,me),ownedByMe,capabilities(canDelete,canShare)'
    const ann = (await h.call('GET', `${F}/${id}?fields=${fields}`)).body
    const ben = (await h.call('GET', `${F}/${id}?fields=${fields}`, { token: h.google('ben') })).body
    expect(ann).toMatchObject({ ownedByMe: false, owners: [{ emailAddress: 'ben@example.com', me: false }] })
    expect(ann.capabilities.canDelete).toBe(false)
    expect(ben).toMatchObject({ ownedByMe: true, owners: [{ emailAddress: 'ben@example.com', me: true }] })
    expect(ben.capabilities.canDelete).toBe(true)
    const perms = (await h.call('GET', `${F}/${id}/permissions?fields=permissions(emailAddress,role)`)).body
    expect(perms.permissions).toEqual(
      expect.arrayContaining([
        { emailAddress: 'ann@example.com', role: 'writer' },
        { emailAddress: 'ben@example.com', role: 'owner' },
      ]),
    )
    expect(perms.permissions).toHaveLength(2)
    const listed = (who: string, s: string) =>
      h.call('GET', `${F}?q=${q(s)}&fields=files(id,ownedByMe,owners(emailAddress))`, { token: h.google(who) })
    expect(ids(await listed('ann', "'me' in owners"))).not.toContain(id)
    expect(ids(await listed('ann', "'ben@example.com' in owners"))).toContain(id)
    expect(ids(await listed('ben', "'me' in owners"))).toContain(id)
    expect(ids(await listed('ben', "'ann@example.com' in owners"))).not.toContain(id)
    expect(ids(await listed('ben', 'sharedWithMe'))).not.toContain(id)
    expect(ids(await listed('ann', 'sharedWithMe'))).toContain(id)
    // Quota moves with the file; each side's change feed lists it, with the new owners.
    expect(await usage(h, 'ann')).toBe(before.ann - 12)
    expect(await usage(h, 'ben')).toBe(before.ben + 12)
    for (const who of ['ann', 'ben'] as const) {
      const feed = await h.call('GET', `/drive/v3/changes?pageToken=${tokens[who]}&fields=*`, { token: h.google(who) })
      const change = feed.body.changes.find((c: { fileId: string }) => c.fileId === id)
      expect(change, who).toMatchObject({ removed: false, file: { owners: [{ emailAddress: 'ben@example.com' }] } })
      expect(change.file.ownedByMe, who).toBe(who === 'ben')
    }
  })

  test('tells the new owner by mail, through create and through update (0468)', async () => {
    const h = harness(driveSeed)
    const inbox = async (who: string) => {
      const q = encodeURIComponent('from:drive-shares-dm-noreply@google.com')
      const list = await h.call('GET', `/gmail/v1/users/me/messages?q=${q}`, { token: h.google(who) })
      const ids = ((list.body.messages ?? []) as { id: string }[]).map((m) => m.id)
      const got = await Promise.all(
        ids.map((m) => h.call('GET', `/gmail/v1/users/me/messages/${m}?format=full`, { token: h.google(who) })),
      )
      return got.map((g) => Buffer.from(g.body.payload.body.data ?? '', 'base64url').toString() || g.body.snippet)
    }
    const first = await fileOfAnn(h)
    const made = await h.call('POST', `${F}/${first}/permissions?transferOwnership=true&emailMessage=Yours%20now`, {
      json: { type: 'user', role: 'owner', emailAddress: 'ben@example.com' },
    })
    expect(made.status).toBe(200)
    // The old code sent nothing: a transfer's notification cannot be turned off, yet no one was told.
    const afterCreate = await inbox('ben')
    expect(afterCreate).toHaveLength(1)
    expect(afterCreate[0]).toMatch(/made you the owner of a file: Report\.txt/)
    expect(afterCreate[0]).toMatch(/Yours now/)
    const second = await fileOfAnn(h)
    await h.call('POST', `${F}/${second}/permissions?sendNotificationEmail=false`, {
      json: { type: 'user', role: 'writer', emailAddress: 'ben@example.com' },
    })
    expect(await inbox('ben')).toHaveLength(1)
    const benPerm = (await h.call('GET', `${F}/${second}/permissions`)).body.permissions.find(
      (p: { emailAddress: string }) => p.emailAddress === 'ben@example.com',
    ).id
    const ok = await h.call('PATCH', `${F}/${second}/permissions/${benPerm}?transferOwnership=true`, {
      json: { role: 'owner' },
    })
    expect(ok.status).toBe(200)
    expect(await inbox('ben')).toHaveLength(2)
    // Nobody else is written to.
    expect(await inbox('ann')).toHaveLength(0)
  })

  test('update: only the owner can transfer, to a user of the same organisation', async () => {
    const h = harness(driveSeed)
    const id = await fileOfAnn(h)
    await h.call('POST', `${F}/${id}/permissions?sendNotificationEmail=false`, {
      json: { type: 'user', role: 'writer', emailAddress: 'ben@example.com' },
    })
    const benPerm = (await h.call('GET', `${F}/${id}/permissions`)).body.permissions.find(
      (p: { emailAddress: string }) => p.emailAddress === 'ben@example.com',
    ).id
    const byBen = await h.call('PATCH', `${F}/${id}/permissions/${benPerm}?transferOwnership=true`, {
      json: { role: 'owner' },
      token: h.google('ben'),
    })
    expect(byBen.status).toBe(403)
    expect(byBen.body.error.errors[0].reason).toBe('insufficientFilePermissions')
    expect((await h.call('GET', `${F}/${id}?fields=ownedByMe`)).body.ownedByMe).toBe(true)
    const ok = await h.call('PATCH', `${F}/${id}/permissions/${benPerm}?transferOwnership=true`, {
      json: { role: 'owner' },
    })
    expect(ok.status).toBe(200)
    expect(ok.body.role).toBe('owner')
    expect((await h.call('GET', `${F}/${id}?fields=ownedByMe`, { token: h.google('ben') })).body.ownedByMe).toBe(true)
  })

  test('refuses a transfer with its notification turned off (0461), changing nothing', async () => {
    const h = harness(driveSeed)
    const id = await fileOfAnn(h)
    const quiet = await h.call('POST', `${F}/${id}/permissions?transferOwnership=true&sendNotificationEmail=false`, {
      json: { type: 'user', role: 'owner', emailAddress: 'ben@example.com' },
    })
    // The old code transferred the file (200); Discovery: the notification "must not be disabled" for a transfer.
    expect(quiet.status).toBe(400)
    expect(quiet.body.error.errors[0].reason).toBe('badRequest')
    expect((await h.call('GET', `${F}/${id}?fields=ownedByMe`)).body.ownedByMe).toBe(true)
    const perms = (await h.call('GET', `${F}/${id}/permissions?fields=permissions(emailAddress,role)`)).body
    expect(perms.permissions).toEqual([{ emailAddress: 'ann@example.com', role: 'owner' }])
    // With the notification left on (the default, or asked for) the transfer goes through.
    const loud = await h.call('POST', `${F}/${id}/permissions?transferOwnership=true&sendNotificationEmail=true`, {
      json: { type: 'user', role: 'owner', emailAddress: 'ben@example.com' },
    })
    expect(loud.status).toBe(200)
  })

  test('refuses a new owner outside the organisation, and any owner on a shared drive item', async () => {
    const h = harness(driveSeed)
    const id = await fileOfAnn(h)
    const outside = await h.call('POST', `${F}/${id}/permissions?transferOwnership=true`, {
      json: { type: 'user', role: 'owner', emailAddress: 'zed@elsewhere.org' },
    })
    expect(outside.status).toBe(403)
    expect(outside.body.error.errors[0].reason).toBe('ownershipChangeAcrossDomainNotPermitted')
    await h.call('POST', `${F}/${id}/permissions?sendNotificationEmail=false`, {
      json: { type: 'user', role: 'writer', emailAddress: 'zed@elsewhere.org' },
    })
    const zed = (await h.call('GET', `${F}/${id}/permissions`)).body.permissions.find(
      (p: { emailAddress: string }) => p.emailAddress === 'zed@elsewhere.org',
    ).id
    const upd = await h.call('PATCH', `${F}/${id}/permissions/${zed}?transferOwnership=true`, {
      json: { role: 'owner' },
    })
    expect(upd.status).toBe(403)
    expect(upd.body.error.errors[0].reason).toBe('ownershipChangeAcrossDomainNotPermitted')
    expect((await h.call('GET', `${F}/${id}?fields=ownedByMe`)).body.ownedByMe).toBe(true)
    const group = await h.call('POST', `${F}/${id}/permissions?transferOwnership=true`, {
      json: { type: 'anyone', role: 'owner' },
    })
    expect(group.status).toBe(400)

    const drive = (await h.call('POST', '/drive/v3/drives?requestId=r1', { json: { name: 'Team' } })).body.id
    await h.call('POST', `${F}/${drive}/permissions?supportsAllDrives=true`, {
      json: { type: 'user', role: 'writer', emailAddress: 'ben@example.com' },
    })
    const item = (await h.call('POST', `${F}?supportsAllDrives=true`, { json: { name: 'In drive', parents: [drive] } }))
      .body.id
    const cyOnItem = (
      await h.call('POST', `${F}/${item}/permissions?supportsAllDrives=true&sendNotificationEmail=false`, {
        json: { type: 'user', role: 'reader', emailAddress: 'cy@example.com' },
      })
    ).body.id
    const inDrive = await h.call(
      'PATCH',
      `${F}/${item}/permissions/${cyOnItem}?transferOwnership=true&supportsAllDrives=true`,
      {
        json: { role: 'owner' },
      },
    )
    expect(inDrive.status).toBe(403)
    expect(inDrive.body.error.errors[0].reason).toBe('teamDrivesOwnershipTransferNotSupported')
  })

  test("moveToNewOwnersRoot takes a file out of its folders into the new owner's My Drive", async () => {
    const h = harness(driveSeed)
    const folder = 'folderProjects0000000001'
    const made = await h.call('POST', F, { json: { name: 'Moved.txt', parents: [folder] } })
    const id = made.body.id as string
    const r = await h.call('POST', `${F}/${id}/permissions?transferOwnership=true&moveToNewOwnersRoot=true`, {
      json: { type: 'user', role: 'owner', emailAddress: 'ben@example.com' },
    })
    expect(r.status).toBe(200)
    const benRoot = (await h.call('GET', `${F}/root?fields=id`, { token: h.google('ben') })).body.id
    const seen = await h.call('GET', `${F}/${id}?fields=parents`, { token: h.google('ben') })
    expect(seen.body.parents).toEqual([benRoot])
    const inRoot = await h.call('GET', `${F}?q=${q("'root' in parents")}`, { token: h.google('ben') })
    expect(ids(inRoot)).toContain(id)
    expect(ids(await h.call('GET', `${F}?q=${q(`'${folder}' in parents`)}`))).not.toContain(id)
  })
})
