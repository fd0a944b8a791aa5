import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { driveSeed, q } from './fixtures.ts'

const F = '/drive/v3/files'
const idOf = async (h: ReturnType<typeof harness>, name: string) =>
  (await h.call('GET', `${F}?q=${q(`name = '${name}'`)}`)).body.files[0].id as string

describe('drive.permissions.create', () => {
  test('shares a file, mails the grantee, and the grantee can then read it', async () => {
    const h = harness(driveSeed)
    const id = await idOf(h, 'Atlas plan.txt')
    expect((await h.call('GET', `${F}/${id}`, { token: h.google('cy') })).status).toBe(404)
    const perm = await h.call('POST', `${F}/${id}/permissions`, {
      json: { type: 'user', role: 'reader', emailAddress: 'cy@example.com' },
    })
    expect(perm.body).toMatchObject({
      kind: 'drive#permission',
      type: 'user',
      role: 'reader',
      emailAddress: 'cy@example.com',
    })
    expect((await h.call('GET', `${F}/${id}`, { token: h.google('cy') })).status).toBe(200)
    const mail = await h.call('GET', '/gmail/v1/users/me/messages?q=subject:"Atlas plan.txt"', {
      token: h.google('cy'),
    })
    expect(mail.body.resultSizeEstimate).toBe(1)
  })

  test('a domain with a lone surrogate is granted as stored (U+FFFD), not a 500', async () => {
    const h = harness(driveSeed)
    const id = await idOf(h, 'Atlas plan.txt')
    // A JSON escape is the only way a lone surrogate reaches a handler (UTF-8 bytes cannot carry one).
    const body = '{"type":"domain","role":"reader","domain":"\\ud800example.com"}'
    const headers = { 'content-type': 'application/json' }
    const perm = await h.call('POST', `${F}/${id}/permissions`, { body, headers })
    expect(perm.status, perm.text).toBe(200)
    expect(perm.body).toMatchObject({ id: '\ufffdexample.comWithLink', domain: '\ufffdexample.com' })
    const got = await h.call('GET', `${F}/${id}/permissions/${encodeURIComponent(perm.body.id)}`)
    expect(got.body.domain).toBe('\ufffdexample.com')
  })

  test('does not mail when sendNotificationEmail=false and validates the request', async () => {
    const h = harness(driveSeed)
    const id = await idOf(h, 'Atlas plan.txt')
    await h.call('POST', `${F}/${id}/permissions?sendNotificationEmail=false`, {
      json: { type: 'user', role: 'writer', emailAddress: 'cy@example.com' },
    })
    expect(
      (await h.call('GET', '/gmail/v1/users/me/messages', { token: h.google('cy') })).body.resultSizeEstimate,
    ).toBe(0)
    expect((await h.call('POST', `${F}/${id}/permissions`, { json: { type: 'user', role: 'reader' } })).status).toBe(
      400,
    )
    expect(
      (await h.call('POST', `${F}/${id}/permissions`, { json: { type: 'user', role: 'boss', emailAddress: 'x@y.z' } }))
        .status,
    ).toBe(400)
    const press = await idOf(h, 'Press kit')
    // Cy can open the link-shared folder but, as a reader, cannot share it.
    expect(
      (
        await h.call('POST', `${F}/${press}/permissions`, {
          token: h.google('cy'),
          json: { type: 'anyone', role: 'writer' },
        })
      ).status,
    ).toBe(403)
  })

  test('needs transferOwnership to make someone the owner, then transfers it', async () => {
    const h = harness(driveSeed)
    const id = await idOf(h, 'Atlas plan.txt')
    const refused = await h.call('POST', `${F}/${id}/permissions`, {
      json: { type: 'user', role: 'owner', emailAddress: 'ben@example.com' },
    })
    expect(refused.status).toBe(403)
    expect(refused.body.error.message).toBe(
      "The transferOwnership parameter must be enabled when the permission role is 'owner'.",
    )
    await h.call('POST', `${F}/${id}/permissions?transferOwnership=true`, {
      json: { type: 'user', role: 'owner', emailAddress: 'ben@example.com' },
    })
    expect((await h.call('GET', `${F}/${id}?fields=owners`)).body.owners[0].emailAddress).toBe('ben@example.com')
  })

  test('an expired permission no longer grants access', async () => {
    const h = harness(driveSeed)
    const id = await idOf(h, 'Atlas plan.txt')
    await h.call('POST', `${F}/${id}/permissions?sendNotificationEmail=false`, {
      json: { type: 'user', role: 'reader', emailAddress: 'cy@example.com', expirationTime: '2026-03-10T15:00:30Z' },
    })
    expect((await h.call('GET', `${F}/${id}`, { token: h.google('cy') })).status).toBe(200)
    h.entry.world.tx((db) =>
      db.$client
        .prepare("UPDATE world_meta SET value = ? WHERE key = 'clock_ms'")
        .run(String(Date.parse('2026-03-11T00:00:00Z'))),
    )
    expect((await h.call('GET', `${F}/${id}`, { token: h.google('cy') })).status).toBe(404)
  })
})

describe('drive.permissions.list', () => {
  test('lists permissions with seed-given ids kept (drive.permissions.get)', async () => {
    const h = harness(driveSeed)
    const list = await h.call('GET', `${F}/folderProjects0000000001/permissions`)
    expect(list.body.kind).toBe('drive#permissionList')
    expect(list.body.permissions.map((p: { id: string; role: string }) => [p.id, p.role])).toContainEqual([
      'perm-ben-kept',
      'writer',
    ])
    expect((await h.call('GET', `${F}/folderProjects0000000001/permissions/perm-ben-kept`)).body.emailAddress).toBe(
      'ben@example.com',
    )
    expect((await h.call('GET', `${F}/folderProjects0000000001/permissions/nope`)).status).toBe(404)
  })
})

describe('drive.permissions.update', () => {
  test("changes a role; drive.permissions.delete revokes access inherited by the folder's files", async () => {
    const h = harness(driveSeed)
    const budget = await idOf(h, 'Atlas budget.txt')
    const ben = h.google('ben')
    const down = await h.call('PATCH', `${F}/folderProjects0000000001/permissions/perm-ben-kept`, {
      json: { role: 'reader' },
    })
    expect(down.body.role).toBe('reader')
    expect((await h.call('GET', `${F}/${budget}?fields=capabilities`, { token: ben })).body.capabilities.canEdit).toBe(
      false,
    )
    expect((await h.call('DELETE', `${F}/folderProjects0000000001/permissions/perm-ben-kept`)).status).toBe(204)
    expect((await h.call('GET', `${F}/${budget}`, { token: ben })).status).toBe(404)
  })

  test('the owner permission cannot be removed', async () => {
    const h = harness(driveSeed)
    const list = await h.call('GET', `${F}/folderProjects0000000001/permissions`)
    const owner = list.body.permissions.find((p: { role: string }) => p.role === 'owner')
    expect((await h.call('DELETE', `${F}/folderProjects0000000001/permissions/${owner.id}`)).status).toBe(403)
  })
})

describe('lock down a link-shared folder', () => {
  test('removing anyoneWithLink keeps named collaborators and hides the folder from others', async () => {
    const h = harness(driveSeed)
    const press = await idOf(h, 'Press kit')
    await h.call('POST', `${F}/${press}/permissions?sendNotificationEmail=false`, {
      json: { type: 'user', role: 'writer', emailAddress: 'ben@example.com' },
    })
    expect((await h.call('DELETE', `${F}/${press}/permissions/anyoneWithLink`)).status).toBe(204)
    expect((await h.call('GET', `${F}/${press}`, { token: h.google('cy') })).status).toBe(404)
    expect((await h.call('GET', `${F}/${press}`, { token: h.google('ben') })).status).toBe(200)
  })
})
