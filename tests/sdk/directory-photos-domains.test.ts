import { deflateSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google, type admin_directory_v1 } from 'googleapis'
import { demoSeed } from '../../seeds/demo/index.ts'
import { refusal as failure } from './refusal.ts'
import { startSdkServer, type SdkServer } from './server.ts'
import { buildWorld } from '../../server/seeding.ts'
import { dumpIdentity } from '../../envs/identity/state.ts'

// Users' photos (directory.users.photos.*) and the customer's secondary domains and domain aliases
// (directory.domains.*, directory.domainAliases.*) through googleapis.
let server: SdkServer
let alice: admin_directory_v1.Admin
const seed = () => ({
  ...demoSeed(1),
  identity: {
    adminRoles: [{ name: 'Profile editors', privileges: ['USERS_RETRIEVE', 'USERS_UPDATE'] }],
    roleAssignments: [{ role: 'Profile editors', user: 'carol' }],
  },
})

beforeAll(async () => {
  server = await startSdkServer(seed())
  alice = google.admin({ version: 'directory_v1', auth: server.auth('alice'), rootUrl: server.url })
})
afterAll(async () => {
  await server.close()
})

/** A real PNG of `width` × `height` grey pixels. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(data.length)
    return Buffer.concat([len, Buffer.from(type), data, Buffer.alloc(4)]) // CRC not checked by readers of the size
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 0 // greyscale
  const rows = Buffer.alloc((width + 1) * height, 0x80)
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))])
}
const webSafe = (b: Buffer) => b.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '*')
const GIF_1X1 = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'
const userKey = 'dan@northwind.test'

describe('directory.users.photos.update, directory.users.photos.get, directory.users.photos.patch', () => {
  test('an admin sets a photo in web-safe base64, reads it back, and the user resource names it', async () => {
    const image = png(40, 30)
    const set = (await alice.users.photos.update({ userKey, requestBody: { photoData: webSafe(image) } })).data
    expect(set).toMatchObject({
      kind: 'admin#directory#user#photo',
      primaryEmail: userKey,
      mimeType: 'image/png',
      width: 40,
      height: 30,
    })
    expect(set.photoData).toBe(webSafe(image))
    const got = (await alice.users.photos.get({ userKey })).data
    expect(got.photoData).toBe(webSafe(image))
    expect(got.id).toBe((await alice.users.get({ userKey })).data.id)
    const user = (await alice.users.get({ userKey })).data
    expect(user.thumbnailPhotoUrl).toMatch(/^https:\/\//)
    expect(user.thumbnailPhotoEtag).toMatch(/^".+"$/)
    // Standard base64 is taken too; a GIF replaces the PNG.
    const gif = (await alice.users.photos.patch({ userKey, requestBody: { photoData: GIF_1X1 } })).data
    expect(gif).toMatchObject({ mimeType: 'image/gif', width: 1, height: 1 })
    expect((await alice.users.get({ userKey })).data.thumbnailPhotoEtag).not.toBe(user.thumbnailPhotoEtag)
    const state = dumpIdentity(server.entry.world).entities.photos as Record<string, unknown>
    expect(state.dan).toMatchObject({ mimeType: 'image/gif', width: 1, height: 1 })
  })

  test('bytes that are not an image, or no photoData, are 400 and change nothing', async () => {
    const key = 'erin@northwind.test'
    const text = Buffer.from('this is not an image at all').toString('base64')
    expect(await failure(alice.users.photos.update({ userKey: key, requestBody: { photoData: text } }))).toEqual({
      status: 400,
      reason: 'invalid',
    })
    expect(await failure(alice.users.photos.update({ userKey: key, requestBody: { photoData: '%%%' } }))).toEqual({
      status: 400,
      reason: 'invalid',
    })
    expect(await failure(alice.users.photos.update({ userKey: key, requestBody: { mimeType: 'PNG' } }))).toEqual({
      status: 400,
      reason: 'required',
    })
    expect(await failure(alice.users.photos.get({ userKey: key }))).toEqual({ status: 404, reason: 'notFound' })
    expect((await alice.users.get({ userKey: key })).data.thumbnailPhotoUrl).toBeUndefined()
  })
})

describe('directory.users.photos.delete', () => {
  test('removes the photo; a second delete and a read are 404', async () => {
    const key = 'bob@northwind.test'
    await alice.users.photos.update({ userKey: key, requestBody: { photoData: GIF_1X1 } })
    await alice.users.photos.delete({ userKey: key })
    expect(await failure(alice.users.photos.get({ userKey: key }))).toEqual({ status: 404, reason: 'notFound' })
    expect(await failure(alice.users.photos.delete({ userKey: key }))).toEqual({ status: 404, reason: 'notFound' })
    expect((await alice.users.get({ userKey: key })).data.thumbnailPhotoUrl).toBeUndefined()
  })

  test('USERS_UPDATE lets a delegated admin change a colleague’s photo, not a super admin’s', async () => {
    const carol = google.admin({ version: 'directory_v1', auth: server.auth('carol'), rootUrl: server.url })
    await carol.users.photos.update({ userKey: 'erin@northwind.test', requestBody: { photoData: GIF_1X1 } })
    expect((await carol.users.photos.get({ userKey: 'erin@northwind.test' })).data.mimeType).toBe('image/gif')
    const onAdmin = carol.users.photos.update({ userKey: 'alice@northwind.test', requestBody: { photoData: GIF_1X1 } })
    expect(await failure(onAdmin)).toEqual({ status: 403, reason: 'forbidden' })
    const bob = google.admin({ version: 'directory_v1', auth: server.auth('bob'), rootUrl: server.url })
    expect(await failure(bob.users.photos.get({ userKey: 'erin@northwind.test' }))).toEqual({
      status: 403,
      reason: 'forbidden',
    })
  })
})

describe('directory.domains.insert, directory.domains.list, directory.domains.get, directory.domains.delete', () => {
  test('a secondary domain is added unverified, listed after the primary one, and removed', async () => {
    const customer = 'my_customer'
    const added = (await alice.domains.insert({ customer, requestBody: { domainName: 'Northwind-Labs.test' } })).data
    expect(added).toMatchObject({ kind: 'admin#directory#domain', domainName: 'northwind-labs.test' })
    expect(added).toMatchObject({ isPrimary: false, verified: false })
    const listed = (await alice.domains.list({ customer })).data.domains!
    expect(listed.map((d) => [d.domainName, d.isPrimary])).toEqual([
      ['northwind.test', true],
      ['northwind-labs.test', false],
    ])
    expect((await alice.domains.get({ customer, domainName: 'northwind-labs.test' })).data.verified).toBe(false)
    const again = alice.domains.insert({ customer, requestBody: { domainName: 'northwind.test' } })
    expect(await failure(again)).toEqual({ status: 409, reason: 'duplicate' })
    const bad = alice.domains.insert({ customer, requestBody: { domainName: 'not a domain' } })
    expect(await failure(bad)).toEqual({ status: 400, reason: 'invalid' })
    expect(await failure(alice.domains.delete({ customer, domainName: 'northwind.test' }))).toEqual({
      status: 400,
      reason: 'invalid',
    })
    const state = () => dumpIdentity(server.entry.world).entities.domains
    expect(state()).toEqual({ 'northwind-labs.test': { name: 'northwind-labs.test', kind: 'secondary', parent: null } })
    await alice.domains.delete({ customer, domainName: 'northwind-labs.test' })
    expect(await failure(alice.domains.get({ customer, domainName: 'northwind-labs.test' }))).toEqual({
      status: 404,
      reason: 'notFound',
    })
    expect(state()).toEqual({})
    const bob = google.admin({ version: 'directory_v1', auth: server.auth('bob'), rootUrl: server.url })
    const byBob = bob.domains.insert({ customer, requestBody: { domainName: 'bob.test' } })
    expect(await failure(byBob)).toEqual({ status: 403, reason: 'forbidden' })
  })

  test('an unverified domain does not make its addresses the workspace’s: no user can be created in it', async () => {
    await alice.domains.insert({ customer: 'my_customer', requestBody: { domainName: 'acquired.test' } })
    const user = alice.users.insert({
      requestBody: {
        primaryEmail: 'newbie@acquired.test',
        name: { givenName: 'New', familyName: 'Bie' },
        password: 'a-long-enough-password',
      },
    })
    expect((await failure(user))?.status).toBeGreaterThanOrEqual(400)
    await alice.domains.delete({ customer: 'my_customer', domainName: 'acquired.test' })
  })
})

describe('directory.domainAliases.insert, directory.domainAliases.list, directory.domainAliases.get', () => {
  test('an alias of the primary domain is listed (by parent too), shown in its domain, and removed', async () => {
    const customer = 'my_customer'
    const body = { parentDomainName: 'northwind.test', domainAliasName: 'northwind.example' }
    const alias = (await alice.domainAliases.insert({ customer, requestBody: body })).data
    expect(alias).toMatchObject({ kind: 'admin#directory#domainAlias', ...body, verified: false })
    expect((await alice.domainAliases.list({ customer })).data.domainAliases!.map((a) => a.domainAliasName)).toEqual([
      'northwind.example',
    ])
    const other = await alice.domainAliases.list({ customer, parentDomainName: 'elsewhere.test' })
    expect(other.data.domainAliases).toBeUndefined()
    const primary = (await alice.domains.get({ customer, domainName: 'northwind.test' })).data
    expect(primary.domainAliases!.map((a) => a.domainAliasName)).toEqual(['northwind.example'])
    expect((await alice.domainAliases.get({ customer, domainAliasName: 'northwind.example' })).data).toEqual(alias)
    const orphan = { parentDomainName: 'nowhere.test', domainAliasName: 'x.test' }
    expect(await failure(alice.domainAliases.insert({ customer, requestBody: orphan }))).toEqual({
      status: 404,
      reason: 'notFound',
    })
    const dup = { parentDomainName: 'northwind.test', domainAliasName: 'northwind.example' }
    expect(await failure(alice.domainAliases.insert({ customer, requestBody: dup }))).toEqual({
      status: 409,
      reason: 'duplicate',
    })
  })
})

describe('directory.domainAliases.delete', () => {
  test('removes an alias; a second delete is 404; removing a secondary domain takes its aliases', async () => {
    const customer = 'my_customer'
    await alice.domainAliases.delete({ customer, domainAliasName: 'northwind.example' })
    expect(await failure(alice.domainAliases.delete({ customer, domainAliasName: 'northwind.example' }))).toEqual({
      status: 404,
      reason: 'notFound',
    })
    await alice.domains.insert({ customer, requestBody: { domainName: 'second.test' } })
    await alice.domainAliases.insert({
      customer,
      requestBody: { parentDomainName: 'second.test', domainAliasName: 'second-alias.test' },
    })
    await alice.domains.delete({ customer, domainName: 'second.test' })
    expect((await alice.domainAliases.list({ customer })).data.domainAliases).toBeUndefined()
  })
})

test('a fresh world has no photos and no added domains', () => {
  const world = buildWorld(seed(), 1)
  const state = dumpIdentity(world).entities
  expect([state.photos, state.domains]).toEqual([{}, {}])
  world.close()
})
