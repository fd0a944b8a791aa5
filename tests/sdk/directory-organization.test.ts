import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google, type admin_directory_v1 } from 'googleapis'
import { demoSeed } from '../../seeds/demo/index.ts'
import { startSdkServer, type SdkServer } from './server.ts'
// Directory org units through googleapis (`{+orgUnitPath}`: the path keeps its slashes) and the users in them; the
// workspace as a customer and its domain.
let server: SdkServer
let admin: admin_directory_v1.Admin
let bob: admin_directory_v1.Admin
const seed = () => ({
  ...demoSeed(1),
  identity: {
    users: [{ user: 'dan', orgUnitPath: '/Sales/EMEA' }],
    orgUnits: [{ path: '/Engineering', description: 'Builders' }],
  },
})

beforeAll(async () => {
  server = await startSdkServer(seed())
  admin = google.admin({ version: 'directory_v1', auth: server.auth('alice'), rootUrl: server.url })
  bob = google.admin({ version: 'directory_v1', auth: server.auth('bob'), rootUrl: server.url })
})
afterAll(async () => {
  await server.close()
})

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e) => ({ status: e.response.status as number, error: e.response.data.error.errors[0] }),
  )
const paths = (r: { data: admin_directory_v1.Schema$OrgUnits }) =>
  (r.data.organizationUnits ?? []).map((u) => u.orgUnitPath)

describe('directory.orgunits.list, directory.orgunits.get', () => {
  test('seeded units (and the ancestors a user names) are listed; children by default, all with type=all', async () => {
    const customerId = 'my_customer'
    expect(paths(await admin.orgunits.list({ customerId }))).toEqual(['/Engineering', '/Sales'])
    expect(paths(await admin.orgunits.list({ customerId, type: 'all' }))).toEqual([
      '/Engineering',
      '/Sales',
      '/Sales/EMEA',
    ])
    expect(paths(await admin.orgunits.list({ customerId, orgUnitPath: '/Sales' }))).toEqual(['/Sales/EMEA'])
    const emea = await admin.orgunits.get({ customerId, orgUnitPath: 'Sales/EMEA' })
    expect(emea.data).toMatchObject({
      kind: 'admin#directory#orgUnit',
      name: 'EMEA',
      orgUnitPath: '/Sales/EMEA',
      parentOrgUnitPath: '/Sales',
      blockInheritance: false,
    })
    expect(emea.data.orgUnitId).toMatch(/^id:03[0-9a-z]{13}$/)
    const byId = await admin.orgunits.get({ customerId, orgUnitPath: emea.data.orgUnitId! })
    expect(byId.data.orgUnitPath).toBe('/Sales/EMEA')
    const eng = await admin.orgunits.get({ customerId, orgUnitPath: 'Engineering' })
    expect(eng.data.description).toBe('Builders')
    expect(await failure(admin.orgunits.get({ customerId, orgUnitPath: 'Nowhere' }))).toEqual({
      status: 404,
      error: expect.objectContaining({ reason: 'notFound', message: 'Org unit not found' }),
    })
    expect((await failure(bob.orgunits.list({ customerId })))?.status).toBe(403)
  })
})

describe('directory.orgunits.insert, directory.orgunits.patch, directory.orgunits.update, directory.orgunits.delete', () => {
  test('insert, move a user in, rename the parent: the subtree and its users follow; delete needs it empty', async () => {
    const customerId = 'my_customer'
    const made = await admin.orgunits.insert({
      customerId,
      requestBody: { name: 'Leavers', parentOrgUnitPath: '/Sales' },
    })
    expect(made.data).toMatchObject({ orgUnitPath: '/Sales/Leavers', parentOrgUnitPath: '/Sales' })
    expect(
      (
        await failure(
          admin.orgunits.insert({ customerId, requestBody: { name: 'leavers', parentOrgUnitPath: '/Sales' } }),
        )
      )?.status,
    ).toBe(400)
    expect(
      await failure(admin.orgunits.insert({ customerId, requestBody: { name: 'X', parentOrgUnitPath: '/Gone' } })),
    ).toEqual({ status: 400, error: expect.objectContaining({ message: 'Invalid Parent Orgunit Id' }) })
    const controlChar = admin.orgunits.insert({ customerId, requestBody: { name: 'a\u0000b', parentOrgUnitPath: '/' } })
    expect((await failure(controlChar))?.error.message).toBe('Invalid Ou Name')
    const wrongType = { name: 'Z', parentOrgUnitPath: '/', blockInheritance: 'yes' as unknown as boolean }
    expect((await failure(admin.orgunits.insert({ customerId, requestBody: wrongType })))?.status).toBe(400)
    const moved = await admin.users.update({
      userKey: 'erin@northwind.test',
      requestBody: { orgUnitPath: '/sales/leavers' },
    })
    expect(moved.data.orgUnitPath).toBe('/Sales/Leavers')
    expect(
      await failure(admin.users.patch({ userKey: 'erin@northwind.test', requestBody: { orgUnitPath: '/Nowhere' } })),
    ).toEqual({ status: 400, error: expect.objectContaining({ message: 'Invalid Input: INVALID_OU_ID' }) })

    const renamed = await admin.orgunits.patch({ customerId, orgUnitPath: 'Sales', requestBody: { name: 'Revenue' } })
    expect(renamed.data.orgUnitPath).toBe('/Revenue')
    const all = await admin.orgunits.list({ customerId, type: 'all' })
    expect(paths(all)).toEqual(['/Engineering', '/Revenue', '/Revenue/EMEA', '/Revenue/Leavers'])
    const erin = await admin.users.get({ userKey: 'erin@northwind.test' })
    expect(erin.data.orgUnitPath).toBe('/Revenue/Leavers')
    const inRevenue = await admin.users.list({ customer: 'my_customer', query: "orgUnitPath='/Revenue/EMEA'" })
    expect(inRevenue.data.users?.map((u) => u.primaryEmail)).toEqual(['dan@northwind.test'])
    // "matches all org unit chains under the target": the parent unit's query finds both.
    const chain = await admin.users.list({ customer: 'my_customer', query: 'orgUnitPath=/Revenue', orderBy: 'email' })
    expect(chain.data.users?.map((u) => u.primaryEmail)).toEqual(['dan@northwind.test', 'erin@northwind.test'])

    const underItself = admin.orgunits.update({
      customerId,
      orgUnitPath: 'Revenue',
      requestBody: { parentOrgUnitPath: '/Revenue/EMEA' },
    })
    expect((await failure(underItself))?.error.message).toBe('Invalid Parent Orgunit Id')
    const busy = await failure(admin.orgunits.delete({ customerId, orgUnitPath: 'Revenue/Leavers' }))
    expect(busy).toEqual({ status: 400, error: expect.objectContaining({ reason: 'conditionNotMet' }) })
    await admin.users.update({ userKey: 'erin@northwind.test', requestBody: { orgUnitPath: '/' } })
    const gone = await admin.orgunits.delete({ customerId, orgUnitPath: 'Revenue/Leavers' })
    expect(gone.status).toBe(204)
    expect(paths(await admin.orgunits.list({ customerId, orgUnitPath: '/Revenue' }))).toEqual(['/Revenue/EMEA'])
  })
})

describe('directory.customers.get, directory.customers.patch, directory.customers.update', () => {
  test("the workspace's customer: its id and domain; contact facts patched, then replaced", async () => {
    const got = await admin.customers.get({ customerKey: 'my_customer' })
    expect(got.data).toMatchObject({
      kind: 'admin#directory#customer',
      customerDomain: 'northwind.test',
      language: 'en',
    })
    expect(got.data.id).toMatch(/^C0[0-9a-z]{7}$/)
    expect((await admin.customers.get({ customerKey: got.data.id! })).data.id).toBe(got.data.id)
    const patched = await admin.customers.patch({
      customerKey: 'my_customer',
      requestBody: { phoneNumber: '+1 555 0100', postalAddress: { locality: 'Seattle', countryCode: 'US' } },
    })
    expect(patched.data).toMatchObject({ phoneNumber: '+1 555 0100', postalAddress: { locality: 'Seattle' } })
    const replaced = await admin.customers.update({
      customerKey: 'my_customer',
      requestBody: { alternateEmail: 'it@example.com' },
    })
    expect(replaced.data.alternateEmail).toBe('it@example.com')
    expect(replaced.data.phoneNumber).toBeUndefined()
    const bad = admin.customers.patch({ customerKey: 'my_customer', requestBody: { alternateEmail: 'nope' } })
    expect((await failure(bad))?.status).toBe(400)
    expect((await failure(bob.customers.get({ customerKey: 'my_customer' })))?.status).toBe(403)
    expect((await failure(admin.customers.get({ customerKey: 'C0other00' })))?.status).toBe(404)
  })
})

describe('directory.domains.list, directory.domains.get', () => {
  test("the workspace's one domain: primary and verified", async () => {
    const list = await admin.domains.list({ customer: 'my_customer' })
    expect(list.data.domains?.map((d) => [d.domainName, d.isPrimary, d.verified])).toEqual([
      ['northwind.test', true, true],
    ])
    const one = await admin.domains.get({ customer: 'my_customer', domainName: 'northwind.test' })
    expect(one.data.creationTime).toMatch(/^\d+$/)
    expect((await failure(admin.domains.get({ customer: 'my_customer', domainName: 'other.test' })))?.status).toBe(404)
  })
})
