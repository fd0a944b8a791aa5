import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google, type admin_directory_v1 } from 'googleapis'
import { demoSeed } from '../../seeds/demo/index.ts'
import { refusal as failure } from './refusal.ts'
import { startSdkServer, type SdkServer } from './server.ts'
import { checkSeed } from '../../server/seeding.ts'

// Directory admin roles through googleapis: the privilege catalog, pre-built and custom roles, role assignments,
// and what a delegated admin may then call (docs/decisions/0468). Alice is the demo's super admin; bob and dan are
// ordinary users.
let server: SdkServer
let alice: admin_directory_v1.Admin
let bob: admin_directory_v1.Admin
const customer = 'my_customer'
const seed = () => ({
  ...demoSeed(1),
  identity: {
    users: [{ user: 'dan', orgUnitPath: '/Sales' }],
    adminRoles: [{ name: 'Seeded viewers', privileges: ['USERS_RETRIEVE'] }],
    roleAssignments: [{ role: 'Seeded viewers', user: 'carol' }],
  },
})

beforeAll(async () => {
  server = await startSdkServer(seed())
  alice = google.admin({ version: 'directory_v1', auth: server.auth('alice'), rootUrl: server.url })
  bob = google.admin({ version: 'directory_v1', auth: server.auth('bob'), rootUrl: server.url })
})
afterAll(async () => {
  await server.close()
})

const SERVICE = '00haapch16h1ysv'
const grant = (...names: string[]) => names.map((privilegeName) => ({ serviceId: SERVICE, privilegeName }))
const userId = async (email: string) => (await alice.users.get({ userKey: email })).data.id!

describe('directory.privileges.list, directory.roles.list, directory.roles.get', () => {
  test('the catalog is a tree of privileges; the pre-built roles are listed, the super admin role marked', async () => {
    const privileges = (await alice.privileges.list({ customer })).data
    expect(privileges.kind).toBe('admin#directory#privileges')
    const users = privileges.items!.find((p) => p.privilegeName === 'USERS_ALL')!
    expect(users).toMatchObject({ kind: 'admin#directory#privilege', serviceId: SERVICE, isOuScopable: true })
    expect(users.childPrivileges!.map((p) => p.privilegeName)).toContain('USERS_RETRIEVE')
    const roles = (await alice.roles.list({ customer })).data
    expect(roles.kind).toBe('admin#directory#roles')
    const seed = roles.items!.find((r) => r.roleName === '_SEED_ADMIN_ROLE')!
    expect(seed).toMatchObject({ isSystemRole: true, isSuperAdminRole: true, roleDescription: 'Super Admin' })
    expect(seed.roleId).toMatch(/^[1-9]\d{16}$/)
    expect((await alice.roles.get({ customer, roleId: seed.roleId! })).data.roleName).toBe('_SEED_ADMIN_ROLE')
    const paged = await alice.roles.list({ customer, maxResults: 2 })
    expect(paged.data.items).toHaveLength(2)
    const rest = await alice.roles.list({ customer, pageToken: paged.data.nextPageToken! })
    expect([...paged.data.items!, ...rest.data.items!].map((r) => r.roleId)).toEqual(roles.items!.map((r) => r.roleId))
    expect(await failure(alice.roles.get({ customer, roleId: '12345' }))).toEqual({ status: 404, reason: 'notFound' })
    // Role management is for super admins only.
    expect(await failure(bob.roles.list({ customer }))).toEqual({ status: 403, reason: 'forbidden' })
  })
})

describe('directory.roles.insert, directory.roles.patch, directory.roles.update, directory.roles.delete', () => {
  test('a custom role: unique name, catalog privileges, pre-built roles cannot change, assigned roles stay', async () => {
    const made = (
      await alice.roles.insert({
        customer,
        requestBody: { roleName: 'Directory viewer', rolePrivileges: grant('USERS_RETRIEVE') },
      })
    ).data
    expect(made).toMatchObject({ kind: 'admin#directory#role', roleName: 'Directory viewer' })
    expect(made.isSystemRole).toBeUndefined()
    const again = alice.roles.insert({
      customer,
      requestBody: { roleName: 'directory VIEWER', rolePrivileges: grant('USERS_RETRIEVE') },
    })
    expect(await failure(again)).toEqual({ status: 409, reason: 'duplicate' })
    const unknown = alice.roles.insert({ customer, requestBody: { roleName: 'X', rolePrivileges: grant('ROOT') } })
    expect(await failure(unknown)).toEqual({ status: 400, reason: 'invalid' })
    const empty = alice.roles.insert({ customer, requestBody: { roleName: 'Y', rolePrivileges: [] } })
    expect(await failure(empty)).toEqual({ status: 400, reason: 'invalid' })
    const patched = await alice.roles.patch({
      customer,
      roleId: made.roleId!,
      requestBody: { roleDescription: 'Reads the directory' },
    })
    expect(patched.data).toMatchObject({ roleName: 'Directory viewer', roleDescription: 'Reads the directory' })
    expect(patched.data.rolePrivileges).toEqual(grant('USERS_RETRIEVE'))
    const updated = await alice.roles.update({
      customer,
      roleId: made.roleId!,
      requestBody: { roleName: 'Directory reader', rolePrivileges: grant('USERS_RETRIEVE', 'GROUPS_RETRIEVE') },
    })
    expect(updated.data.roleDescription).toBeUndefined()
    expect(updated.data.rolePrivileges).toHaveLength(2)
    const system = (await alice.roles.list({ customer })).data.items!.find((r) => r.roleName === '_GROUPS_ADMIN_ROLE')!
    const touch = alice.roles.patch({ customer, roleId: system.roleId!, requestBody: { roleDescription: 'x' } })
    expect(await failure(touch)).toEqual({ status: 400, reason: 'invalid' })
    const assigned = await alice.roleAssignments.insert({
      customer,
      requestBody: { roleId: made.roleId, assignedTo: await userId('dan@northwind.test'), scopeType: 'CUSTOMER' },
    })
    expect(await failure(alice.roles.delete({ customer, roleId: made.roleId! }))).toEqual({
      status: 400,
      reason: 'conditionNotMet',
    })
    await alice.roleAssignments.delete({ customer, roleAssignmentId: assigned.data.roleAssignmentId! })
    await alice.roles.delete({ customer, roleId: made.roleId! })
    expect(await failure(alice.roles.get({ customer, roleId: made.roleId! }))).toEqual({
      status: 404,
      reason: 'notFound',
    })
  })
})

// directory.roleAssignments.insert, directory.roleAssignments.list, directory.roleAssignments.get and
// directory.roleAssignments.delete, and what a delegated admin may then call.
describe('directory.roleAssignments', () => {
  test('a delegated admin may call what their role grants, and nothing else', async () => {
    const bobId = await userId('bob@northwind.test')
    // Before: bob is no admin.
    expect(await failure(bob.users.list({ customer }))).toEqual({ status: 403, reason: 'forbidden' })
    const role = await alice.roles.insert({
      customer,
      requestBody: { roleName: 'Help desk lite', rolePrivileges: grant('USERS_RETRIEVE', 'USERS_UPDATE') },
    })
    const assignment = (
      await alice.roleAssignments.insert({
        customer,
        requestBody: { roleId: role.data.roleId, assignedTo: bobId, scopeType: 'CUSTOMER' },
      })
    ).data
    expect(assignment).toMatchObject({
      kind: 'admin#directory#roleAssignment',
      roleId: role.data.roleId,
      assignedTo: bobId,
      scopeType: 'CUSTOMER',
    })
    const duplicate = alice.roleAssignments.insert({
      customer,
      requestBody: { roleId: role.data.roleId, assignedTo: bobId, scopeType: 'CUSTOMER' },
    })
    expect(await failure(duplicate)).toEqual({ status: 409, reason: 'duplicate' })
    const got = await alice.roleAssignments.get({ customer, roleAssignmentId: assignment.roleAssignmentId! })
    expect(got.data).toEqual(assignment)
    const listed = await alice.roleAssignments.list({ customer, userKey: 'bob@northwind.test' })
    expect(listed.data.items!.map((a) => a.roleAssignmentId)).toEqual([assignment.roleAssignmentId])
    expect((await bob.users.get({ userKey: 'bob@northwind.test' })).data.isDelegatedAdmin).toBe(true)

    // What the role grants.
    expect((await bob.users.list({ customer })).data.users!.length).toBeGreaterThan(3)
    const patched = await bob.users.patch({
      userKey: 'dan@northwind.test',
      requestBody: { name: { givenName: 'Daniel' } },
    })
    expect(patched.data.name!.givenName).toBe('Daniel')
    // What it does not: a privilege it lacks, a super admin's account, role management, makeAdmin.
    const insert = bob.users.insert({
      requestBody: { primaryEmail: 'new@northwind.test', name: { givenName: 'N', familyName: 'U' }, password: 'x' },
    })
    expect(await failure(insert)).toEqual({ status: 403, reason: 'forbidden' })
    const onAlice = bob.users.patch({ userKey: 'alice@northwind.test', requestBody: { name: { givenName: 'A' } } })
    expect(await failure(onAlice)).toEqual({ status: 403, reason: 'forbidden' })
    expect(await failure(bob.groups.list({ customer }))).toEqual({ status: 403, reason: 'forbidden' })
    expect(await failure(bob.roleAssignments.list({ customer }))).toEqual({ status: 403, reason: 'forbidden' })
    const self = bob.users.makeAdmin({ userKey: 'bob@northwind.test', requestBody: { status: true } })
    expect(await failure(self)).toEqual({ status: 403, reason: 'forbidden' })

    // Taken away, the privileges go with it.
    await alice.roleAssignments.delete({ customer, roleAssignmentId: assignment.roleAssignmentId! })
    expect(await failure(bob.users.list({ customer }))).toEqual({ status: 403, reason: 'forbidden' })
    const gone = alice.roleAssignments.get({ customer, roleAssignmentId: assignment.roleAssignmentId! })
    expect(await failure(gone)).toEqual({ status: 404, reason: 'notFound' })
  })

  test('assigning the super admin role makes a super admin; deleting the assignment ends it', async () => {
    const danId = await userId('dan@northwind.test')
    const superRole = (await alice.roles.list({ customer })).data.items!.find((r) => r.isSuperAdminRole)!
    const before = await alice.roleAssignments.list({ customer, roleId: superRole.roleId! })
    expect(before.data.items!.map((a) => a.assignedTo)).toEqual([await userId('alice@northwind.test')])
    const made = await alice.roleAssignments.insert({
      customer,
      requestBody: { roleId: superRole.roleId, assignedTo: danId, scopeType: 'CUSTOMER' },
    })
    expect((await alice.users.get({ userKey: danId })).data.isAdmin).toBe(true)
    const after = await alice.roleAssignments.list({ customer, roleId: superRole.roleId! })
    expect(after.data.items!.map((a) => a.roleAssignmentId)).toContain(made.data.roleAssignmentId)
    await alice.roleAssignments.delete({ customer, roleAssignmentId: made.data.roleAssignmentId! })
    expect((await alice.users.get({ userKey: danId })).data.isAdmin).toBe(false)
    const scoped = alice.roleAssignments.insert({
      customer,
      requestBody: { roleId: superRole.roleId, assignedTo: danId, scopeType: 'ORG_UNIT', orgUnitId: 'x' },
    })
    expect(await failure(scoped)).toEqual({ status: 400, reason: 'invalid' })
  })

  test('a role held by a group: its members hold it, and a groups admin cannot join that group', async () => {
    const g = await alice.groups.insert({ requestBody: { email: 'helpdesk@northwind.test', name: 'Helpdesk' } })
    const other = await alice.groups.insert({ requestBody: { email: 'social@northwind.test', name: 'Social' } })
    const viewer = await alice.roles.insert({
      customer,
      requestBody: { roleName: 'Viewers', rolePrivileges: grant('USERS_RETRIEVE') },
    })
    await alice.roleAssignments.insert({
      customer,
      requestBody: { roleId: viewer.data.roleId, assignedTo: g.data.id, scopeType: 'CUSTOMER' },
    })
    const groupsAdmin = (await alice.roles.list({ customer })).data.items!.find(
      (r) => r.roleName === '_GROUPS_ADMIN_ROLE',
    )!
    const mine = await alice.roleAssignments.insert({
      customer,
      requestBody: {
        roleId: groupsAdmin.roleId,
        assignedTo: await userId('bob@northwind.test'),
        scopeType: 'CUSTOMER',
      },
    })
    // A groups admin manages ordinary groups…
    await bob.members.insert({ groupKey: other.data.id!, requestBody: { email: 'bob@northwind.test' } })
    // …but joining the role-holding group would grant its role: refused, and bob gains nothing.
    const join = bob.members.insert({ groupKey: g.data.id!, requestBody: { email: 'carol@northwind.test' } })
    expect(await failure(join)).toEqual({ status: 403, reason: 'forbidden' })
    // So is joining a group nested in it (its members hold the role too).
    const nested = await alice.groups.insert({ requestBody: { email: 'tier2@northwind.test', name: 'Tier 2' } })
    await alice.members.insert({ groupKey: g.data.id!, requestBody: { email: 'tier2@northwind.test' } })
    const viaNested = bob.members.insert({ groupKey: nested.data.id!, requestBody: { email: 'bob@northwind.test' } })
    expect(await failure(viaNested)).toEqual({ status: 403, reason: 'forbidden' })
    await alice.roleAssignments.delete({ customer, roleAssignmentId: mine.data.roleAssignmentId! })
    expect(await failure(bob.users.get({ userKey: 'dan@northwind.test' }))).toEqual({
      status: 403,
      reason: 'forbidden',
    })
    // A member of the group holds its role.
    await alice.members.insert({ groupKey: g.data.id!, requestBody: { email: 'bob@northwind.test' } })
    expect((await bob.users.get({ userKey: 'dan@northwind.test' })).data.primaryEmail).toBe('dan@northwind.test')
  })

  test('a role scoped to an organizational unit grants nothing through the API (Deviation)', async () => {
    const unit = (await alice.orgunits.get({ customerId: customer, orgUnitPath: 'Sales' })).data.orgUnitId!
    const viewer = await alice.roles.insert({
      customer,
      requestBody: { roleName: 'Sales viewers', rolePrivileges: grant('USERS_RETRIEVE') },
    })
    const made = await alice.roleAssignments.insert({
      customer,
      requestBody: {
        roleId: viewer.data.roleId,
        assignedTo: await userId('erin@northwind.test'),
        scopeType: 'ORG_UNIT',
        orgUnitId: unit,
      },
    })
    expect(made.data).toMatchObject({ scopeType: 'ORG_UNIT', orgUnitId: unit.replace(/^id:/, '') })
    const erin = google.admin({ version: 'directory_v1', auth: server.auth('erin'), rootUrl: server.url })
    expect(await failure(erin.users.get({ userKey: 'dan@northwind.test' }))).toEqual({
      status: 403,
      reason: 'forbidden',
    })
  })
})

describe('seeded roles (identity.adminRoles, identity.roleAssignments)', () => {
  test('a seeded assignment makes a delegated admin; bad seeds name the field', async () => {
    const carol = google.admin({ version: 'directory_v1', auth: server.auth('carol'), rootUrl: server.url })
    expect((await carol.users.list({ customer })).data.users!.length).toBeGreaterThan(3)
    const role = (await alice.roles.list({ customer })).data.items!.find((r) => r.roleName === 'Seeded viewers')!
    const listed = await alice.roleAssignments.list({ customer, roleId: role.roleId! })
    expect(listed.data.items!.map((a) => a.assignedTo)).toEqual([await userId('carol@northwind.test')])
    const bad = (identity: Record<string, unknown>) => () => checkSeed({ ...seed(), identity })
    expect(bad({ adminRoles: [{ name: 'R', privileges: ['ROOT'] }] })).toThrow(
      /identity.adminRoles\[0\].privileges\[0\]/,
    )
    expect(bad({ roleAssignments: [{ role: 'Nope', user: 'carol' }] })).toThrow(/identity.roleAssignments\[0\].role/)
    expect(bad({ roleAssignments: [{ role: '_SEED_ADMIN_ROLE', user: 'carol' }] })).toThrow(/admin: true/)
    expect(bad({ roleAssignments: [{ role: '_GROUPS_ADMIN_ROLE' }] })).toThrow(/exactly one of user and group/)
  })
})
