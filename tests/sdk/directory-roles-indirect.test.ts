import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { google, type admin_directory_v1 } from 'googleapis'
import { demoSeed } from '../../seeds/demo/index.ts'
import { startSdkServer, type SdkServer } from './server.ts'

// roleAssignments.list with includeIndirectRoleAssignments, and the seeded Calendar resources admin as a role
// assignment (docs/decisions/0476). Alice is the demo's super admin; bob sits in `eng`, which sits in `staff`.
const D = '@northwind.test'
const customer = 'my_customer'
const seed = () => ({
  ...demoSeed(1),
  identity: {
    groups: [
      { email: `eng${D}`, name: 'Engineering', members: [{ email: `bob${D}` }] },
      { email: `staff${D}`, name: 'Staff', members: [{ email: `eng${D}` }] },
    ],
    adminRoles: [{ name: 'Viewers', privileges: ['USERS_RETRIEVE'] }],
    roleAssignments: [
      { role: 'Viewers', user: 'bob' },
      { role: '_GROUPS_READER_ROLE', group: `eng${D}` },
      { role: '_HELP_DESK_ADMIN_ROLE', group: `staff${D}` },
    ],
    resourceAdmins: ['carol'],
  },
})

let server: SdkServer
let alice: admin_directory_v1.Admin
beforeEach(async () => {
  server = await startSdkServer(seed())
  alice = google.admin({ version: 'directory_v1', auth: server.auth('alice'), rootUrl: server.url })
})
afterEach(async () => {
  await server.close()
})

const roleNames = async () =>
  new Map((await alice.roles.list({ customer })).data.items!.map((r) => [r.roleId!, r.roleName!]))
const status = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e) => e.response.status as number,
  )

describe('directory.roleAssignments.list', () => {
  test('includeIndirectRoleAssignments adds the roles held through groups, nested ones included', async () => {
    const names = await roleNames()
    const listed = async (params: admin_directory_v1.Params$Resource$Roleassignments$List) =>
      (await alice.roleAssignments.list({ customer, ...params })).data.items ?? []
    const direct = await listed({ userKey: `bob${D}` })
    expect(direct.map((a) => names.get(a.roleId!))).toEqual(['Viewers'])
    expect(direct[0]).toMatchObject({ assigneeType: 'USER' })

    const all = await listed({ userKey: `bob${D}`, includeIndirectRoleAssignments: true })
    expect(all.map((a) => names.get(a.roleId!))).toEqual(['Viewers', '_GROUPS_READER_ROLE', '_HELP_DESK_ADMIN_ROLE'])
    const eng = (await alice.groups.get({ groupKey: `eng${D}` })).data.id
    expect(all[1]).toMatchObject({ assignedTo: eng, assigneeType: 'GROUP', scopeType: 'CUSTOMER' })
    // `false` is the default; a group as the key lists its own and, indirectly, its parents'.
    expect(await listed({ userKey: `bob${D}`, includeIndirectRoleAssignments: false })).toHaveLength(1)
    const group = await listed({ userKey: `eng${D}`, includeIndirectRoleAssignments: true })
    expect(group.map((a) => names.get(a.roleId!))).toEqual(['_GROUPS_READER_ROLE', '_HELP_DESK_ADMIN_ROLE'])
    // Without userKey the flag adds nothing ("You must specify userKey or the indirect role assignments will not be
    // included"): the whole list, as without it.
    const plain = await listed({})
    expect(await listed({ includeIndirectRoleAssignments: true })).toEqual(plain)
    expect(await status(alice.roleAssignments.list({ customer, userKey: `nobody${D}` }))).toBe(404)
  })
})

describe('directory.roleAssignments.list, directory.roleAssignments.delete (Calendar resources admin)', () => {
  test('the seeded Calendar resources admin is listed; deleting the assignment ends the grant', async () => {
    const names = await roleNames()
    const carolAdmin = google.admin({ version: 'directory_v1', auth: server.auth('carol'), rootUrl: server.url })
    const rooms = () => status(carolAdmin.resources.calendars.list({ customer }))
    expect(await rooms()).toBe(200)
    const carol = (await alice.roleAssignments.list({ customer, userKey: `carol${D}` })).data.items ?? []
    expect(carol.map((a) => names.get(a.roleId!))).toEqual(['_CALENDAR_RESOURCES_ADMIN_ROLE'])
    const got = await alice.roleAssignments.get({ customer, roleAssignmentId: carol[0]!.roleAssignmentId! })
    expect(got.data).toMatchObject({ assigneeType: 'USER', scopeType: 'CUSTOMER' })
    await alice.roleAssignments.delete({ customer, roleAssignmentId: carol[0]!.roleAssignmentId! })
    expect(await rooms()).toBe(403)
    expect((await alice.roleAssignments.list({ customer, userKey: `carol${D}` })).data.items ?? []).toEqual([])

    // Given back by roleAssignments.insert, to her or to a group she is in.
    const roleId = [...names].find(([, n]) => n === '_CALENDAR_RESOURCES_ADMIN_ROLE')![0]
    const carolId = (await alice.users.get({ userKey: `carol${D}` })).data.id!
    const made = await alice.roleAssignments.insert({
      customer,
      requestBody: { roleId, assignedTo: carolId, scopeType: 'CUSTOMER' },
    })
    expect(await rooms()).toBe(200)
    const again = alice.roleAssignments.insert({
      customer,
      requestBody: { roleId, assignedTo: carolId, scopeType: 'CUSTOMER' },
    })
    expect(await status(again)).toBe(409)
    await alice.roleAssignments.delete({ customer, roleAssignmentId: made.data.roleAssignmentId! })
    expect(await rooms()).toBe(403)
    const team = (await alice.groups.insert({ requestBody: { email: `rooms${D}`, name: 'Rooms' } })).data.id!
    await alice.members.insert({ groupKey: team, requestBody: { email: `carol${D}` } })
    await alice.roleAssignments.insert({ customer, requestBody: { roleId, assignedTo: team, scopeType: 'CUSTOMER' } })
    expect(await rooms()).toBe(200)
  })
})
