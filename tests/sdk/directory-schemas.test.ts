import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google, type admin_directory_v1 } from 'googleapis'
import { demoSeed } from '../../seeds/demo/index.ts'
import { refusal as failure } from './refusal.ts'
import { startSdkServer, type SdkServer } from './server.ts'
import { buildWorld } from '../../server/seeding.ts'
import { dumpIdentity } from '../../envs/identity/state.ts'
import { listSchemas } from '../../envs/identity/store/user-schemas.ts'

// Custom user schemas (directory.schemas.*) and users' custom fields (`customSchemas` on directory.users.*) through
// googleapis.
let server: SdkServer
let alice: admin_directory_v1.Admin
const customerId = 'my_customer'
const seed = () => ({
  ...demoSeed(1),
  identity: {
    adminRoles: [{ name: 'Profile editors', privileges: ['USERS_RETRIEVE', 'USERS_UPDATE'] }],
    roleAssignments: [{ role: 'Profile editors', user: 'carol' }],
    schemas: [
      {
        schemaName: 'Badge',
        fields: [
          { fieldName: 'number', fieldType: 'INT64' as const },
          { fieldName: 'clearance', fieldType: 'STRING' as const, readAccessType: 'ADMINS_AND_SELF' as const },
        ],
      },
    ],
    users: [{ user: 'erin', customSchemas: { Badge: { number: 4711, clearance: 'secret' } } }],
  },
})
/** A user's values in one schema, as a plain record. */
const fieldsOf = (u: admin_directory_v1.Schema$User, schema: string) =>
  (u.customSchemas?.[schema] ?? {}) as Record<string, unknown>
const as = (who: string) => google.admin({ version: 'directory_v1', auth: server.auth(who), rootUrl: server.url })

const employment: admin_directory_v1.Schema$Schema = {
  schemaName: 'Employment',
  displayName: 'Employment data',
  fields: [
    { fieldName: 'costCenter', fieldType: 'STRING', displayName: 'Cost center' },
    { fieldName: 'projects', fieldType: 'STRING', displayName: 'Projects', multiValued: true },
    { fieldName: 'startDate', fieldType: 'DATE', displayName: 'Start date' },
    { fieldName: 'fullTime', fieldType: 'BOOL', displayName: 'Full time' },
    { fieldName: 'fte', fieldType: 'DOUBLE', displayName: 'FTE', indexed: false },
    { fieldName: 'manager', fieldType: 'EMAIL', displayName: 'Manager' },
    { fieldName: 'deskPhone', fieldType: 'PHONE', displayName: 'Desk phone', readAccessType: 'ADMINS_AND_SELF' },
  ],
}

beforeAll(async () => {
  server = await startSdkServer(seed())
  alice = as('alice')
})
afterAll(async () => {
  await server.close()
})

describe('directory.schemas.insert, directory.schemas.get, directory.schemas.list', () => {
  test('a schema is made with ids and defaults, found by name or id, and listed', async () => {
    const made = (await alice.schemas.insert({ customerId, requestBody: employment })).data
    expect(made).toMatchObject({ kind: 'admin#directory#schema', schemaName: 'Employment' })
    expect(made.schemaId).toMatch(/^[A-Za-z0-9+/]{22}==$/)
    expect(made.fields![0]).toMatchObject({
      kind: 'admin#directory#schema#fieldspec',
      fieldName: 'costCenter',
      fieldType: 'STRING',
      indexed: true,
      readAccessType: 'ALL_DOMAIN_USERS',
    })
    expect(made.fields![1]!.multiValued).toBe(true)
    expect(made.fields![0]!.fieldId).toMatch(/==$/)
    expect((await alice.schemas.get({ customerId, schemaKey: 'Employment' })).data).toEqual(made)
    expect((await alice.schemas.get({ customerId, schemaKey: made.schemaId! })).data).toEqual(made)
    const names = (await alice.schemas.list({ customerId })).data.schemas!.map((s) => s.schemaName)
    expect(names).toEqual(['Badge', 'Employment'])
    const state = dumpIdentity(server.entry.world).entities.schemas as Record<string, { fields: unknown[] }>
    expect(state.Employment!.fields).toHaveLength(7)
  })

  test('a taken name is 409; a bad type, no fields or an unknown key are refused', async () => {
    expect(await failure(alice.schemas.insert({ customerId, requestBody: employment }))).toEqual({
      status: 409,
      reason: 'duplicate',
    })
    const badType = { schemaName: 'Bad', fields: [{ fieldName: 'x', fieldType: 'NUMBER' }] }
    expect(await failure(alice.schemas.insert({ customerId, requestBody: badType }))).toEqual({
      status: 400,
      reason: 'invalid',
    })
    expect(await failure(alice.schemas.insert({ customerId, requestBody: { schemaName: 'Bad', fields: [] } }))).toEqual(
      { status: 400, reason: 'required' },
    )
    expect(await failure(alice.schemas.get({ customerId, schemaKey: 'Nope' }))).toEqual({
      status: 404,
      reason: 'notFound',
    })
    expect((await alice.schemas.list({ customerId })).data.schemas).toHaveLength(2)
  })

  test('schemas are for super admins: a delegated admin with user privileges is 403', async () => {
    expect(await failure(as('carol').schemas.list({ customerId }))).toEqual({ status: 403, reason: 'forbidden' })
    expect(
      await failure(as('bob').schemas.insert({ customerId, requestBody: { ...employment, schemaName: 'X' } })),
    ).toEqual({ status: 403, reason: 'forbidden' })
  })
})

describe('directory.users.update, directory.users.patch, directory.users.get, directory.users.list', () => {
  const userKey = 'dan@northwind.test'
  const values = {
    costCenter: 'CC-42',
    projects: [{ value: 'Apollo', type: 'work' }, { value: 'Zephyr' }],
    startDate: '2024-02-29',
    fullTime: true,
    fte: 0.8,
    manager: 'alice@northwind.test',
    deskPhone: '+1 555 0100',
  }

  test('values are set through users.update and shown only by the projection that asks', async () => {
    const updated = (await alice.users.update({ userKey, requestBody: { customSchemas: { Employment: values } } })).data
    expect(updated.customSchemas).toEqual({ Employment: values })
    expect((await alice.users.get({ userKey })).data.customSchemas).toBeUndefined()
    expect((await alice.users.get({ userKey, projection: 'full' })).data.customSchemas).toEqual({
      Employment: values,
    })
    const custom = (await alice.users.get({ userKey, projection: 'custom', customFieldMask: 'Employment' })).data
    expect(custom.customSchemas).toEqual({ Employment: values })
    const badge = (
      await alice.users.get({ userKey: 'erin@northwind.test', projection: 'custom', customFieldMask: 'Badge' })
    ).data
    expect(badge.customSchemas).toEqual({ Badge: { number: '4711', clearance: 'secret' } })
    expect(await failure(alice.users.get({ userKey, projection: 'custom' }))).toEqual({
      status: 400,
      reason: 'invalid',
    })
    expect(await failure(alice.users.get({ userKey, projection: 'custom', customFieldMask: 'Nope' }))).toEqual({
      status: 400,
      reason: 'invalid',
    })
    const listed = (await alice.users.list({ customer: customerId, projection: 'full' })).data.users!
    expect(listed.find((u) => u.primaryEmail === userKey)!.customSchemas).toEqual({ Employment: values })
    const users = dumpIdentity(server.entry.world).entities.users as Record<string, { customSchemas?: unknown }>
    expect(users.dan!.customSchemas).toEqual({ Employment: values })
  })

  test('patch merges fields, null clears one; a bad value, unknown field or unknown schema is 400', async () => {
    const patched = (
      await alice.users.patch({
        userKey,
        requestBody: { customSchemas: { Employment: { costCenter: 'CC-7', fte: null } } },
      })
    ).data
    expect(patched.customSchemas!.Employment).toMatchObject({ costCenter: 'CC-7', startDate: '2024-02-29' })
    expect(fieldsOf(patched, 'Employment').fte).toBeUndefined()
    const bad: admin_directory_v1.Schema$User['customSchemas'][] = [
      { Employment: { startDate: '2023-02-29' } },
      { Employment: { fullTime: 'yes' } },
      { Employment: { manager: 'not an address' } },
      { Employment: { deskPhone: 'call me' } },
      { Employment: { projects: 'Apollo' } },
      { Employment: { costCenter: ['CC-1'] } },
      { Employment: { nickname: 'x' } },
      { Unknown: { a: 'b' } },
      { Badge: { number: '12.5' } },
    ]
    for (const customSchemas of bad) {
      expect(await failure(alice.users.patch({ userKey, requestBody: { customSchemas } }))).toEqual({
        status: 400,
        reason: 'invalid',
      })
    }
    const after = (await alice.users.get({ userKey, projection: 'full' })).data.customSchemas
    expect(after!.Employment).toMatchObject({ costCenter: 'CC-7', fullTime: true })
  })

  test('users.list query finds indexed fields by = and :; a field not indexed is 400', async () => {
    const find = async (query: string) =>
      ((await alice.users.list({ customer: customerId, query })).data.users ?? []).map((u) => u.primaryEmail)
    expect(await find("Employment.costCenter='CC-7'")).toEqual([userKey])
    expect(await find('Employment.projects:Zephyr')).toEqual([userKey])
    expect(await find('Employment.projects:Nothing')).toEqual([])
    expect(await find('Badge.number=4711')).toEqual(['erin@northwind.test'])
    expect(await failure(alice.users.list({ customer: customerId, query: 'Employment.fte=0.8' }))).toEqual({
      status: 400,
      reason: 'invalid',
    })
  })

  test('viewType=domain_public: a colleague sees ALL_DOMAIN_USERS fields; ADMINS_AND_SELF only for self', async () => {
    const bob = as('bob')
    const q = { userKey, viewType: 'domain_public', projection: 'full' }
    const seen = (await bob.users.get(q)).data
    expect(seen.customSchemas!.Employment).toMatchObject({ costCenter: 'CC-7' })
    expect(fieldsOf(seen, 'Employment').deskPhone).toBeUndefined()
    expect(seen.isAdmin).toBeUndefined()
    const self = (await as('dan').users.get(q)).data
    expect(fieldsOf(self, 'Employment').deskPhone).toBe('+1 555 0100')
    const erin = (await bob.users.get({ ...q, userKey: 'erin@northwind.test' })).data
    expect(erin.customSchemas).toEqual({ Badge: { number: '4711' } })
    expect(await failure(bob.users.get({ userKey, projection: 'full' }))).toEqual({ status: 403, reason: 'forbidden' })
  })

  test('a delegated admin with USERS_UPDATE sets a colleague’s custom fields, not a super admin’s', async () => {
    const carol = as('carol')
    const body = { customSchemas: { Employment: { costCenter: 'CC-9' } } }
    const set = (await carol.users.patch({ userKey: 'bob@northwind.test', requestBody: body })).data
    expect(set.customSchemas).toEqual({ Employment: { costCenter: 'CC-9' } })
    expect(await failure(carol.users.patch({ userKey: 'alice@northwind.test', requestBody: body }))).toEqual({
      status: 403,
      reason: 'forbidden',
    })
  })

  test('directory.users.insert takes custom fields', async () => {
    const made = (
      await alice.users.insert({
        requestBody: {
          primaryEmail: 'newhire@northwind.test',
          name: { givenName: 'New', familyName: 'Hire' },
          password: 'correct horse battery',
          customSchemas: { Employment: { startDate: '2026-12-01' } },
        },
      })
    ).data
    expect(made.customSchemas).toEqual({ Employment: { startDate: '2026-12-01' } })
  })
})

describe('directory.schemas.update, directory.schemas.patch, directory.schemas.delete', () => {
  test('update keeps field ids and values of kept fields; a dropped field takes its values', async () => {
    const before = (await alice.schemas.get({ customerId, schemaKey: 'Employment' })).data
    const fields = employment.fields!.filter((f) => f.fieldName !== 'manager')
    const updated = (
      await alice.schemas.update({ customerId, schemaKey: before.schemaId!, requestBody: { ...employment, fields } })
    ).data
    expect(updated.schemaId).toBe(before.schemaId)
    expect(updated.fields!.map((f) => f.fieldId)).toEqual(
      before.fields!.filter((f) => f.fieldName !== 'manager').map((f) => f.fieldId),
    )
    const dan = (await alice.users.get({ userKey: 'dan@northwind.test', projection: 'full' })).data
    expect(dan.customSchemas!.Employment).toMatchObject({ costCenter: 'CC-7' })
    expect(fieldsOf(dan, 'Employment').manager).toBeUndefined()
    const changedType = { ...employment, fields: [{ fieldName: 'costCenter', fieldType: 'INT64', displayName: 'C' }] }
    expect(
      await failure(alice.schemas.update({ customerId, schemaKey: 'Employment', requestBody: changedType })),
    ).toEqual({ status: 400, reason: 'invalid' })
  })

  test('patch renames the display name and keeps the fields', async () => {
    const patched = (
      await alice.schemas.patch({ customerId, schemaKey: 'Employment', requestBody: { displayName: 'HR data' } })
    ).data
    expect(patched.displayName).toBe('HR data')
    expect(patched.fields).toHaveLength(6)
  })

  test('delete removes the schema and every user’s values in it', async () => {
    await alice.schemas.delete({ customerId, schemaKey: 'Employment' })
    expect(await failure(alice.schemas.get({ customerId, schemaKey: 'Employment' }))).toEqual({
      status: 404,
      reason: 'notFound',
    })
    expect(await failure(alice.schemas.delete({ customerId, schemaKey: 'Employment' }))).toEqual({
      status: 404,
      reason: 'notFound',
    })
    const dan = (await alice.users.get({ userKey: 'dan@northwind.test', projection: 'full' })).data
    expect(dan.customSchemas).toBeUndefined()
    const users = dumpIdentity(server.entry.world).entities.users as Record<string, { customSchemas?: unknown }>
    expect(users.dan!.customSchemas).toBeUndefined()
    expect(users.erin!.customSchemas).toEqual({ Badge: { number: '4711', clearance: 'secret' } })
  })
})

test('a seed’s schemas get the same ids in two worlds of one seed', () => {
  const a = buildWorld(seed(), 1)
  const b = buildWorld(seed(), 1)
  expect(dumpIdentity(a).entities.schemas).toEqual(dumpIdentity(b).entities.schemas)
  const ids = (w: typeof a) => listSchemas(w.db).map((s) => [s.schemaId, ...s.fields.map((f) => f.fieldId)])
  expect(ids(a)).toEqual(ids(b))
  expect(ids(buildWorld(seed(), 2))).not.toEqual(ids(a))
  a.close()
  b.close()
})
