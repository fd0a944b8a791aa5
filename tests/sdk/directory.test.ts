import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google, type admin_directory_v1 } from 'googleapis'
import { demoSeed } from '../../seeds/demo/index.ts'
import { startSdkServer, type SdkServer } from './server.ts'

let server: SdkServer
let admin: admin_directory_v1.Admin
let bob: admin_directory_v1.Admin
const seed = () => ({
  ...demoSeed(1),
  identity: {
    users: [{ user: 'dan', orgUnitPath: '/Sales' }],
    groups: [
      {
        email: 'eng@northwind.test',
        name: 'Engineering',
        members: [{ email: 'bob@northwind.test', role: 'OWNER' as const }, { email: 'carol@northwind.test' }],
      },
      {
        email: 'all@northwind.test',
        name: 'Everyone',
        members: [{ email: 'eng@northwind.test' }, { email: 'erin@northwind.test' }],
      },
    ],
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

const status = (p: Promise<{ status: number }>) =>
  p.then(
    (r) => r.status,
    (e) => e.response.status as number,
  )

describe('directory.users.list, directory.users.get', () => {
  test('lists the workspace with query search and paging; get takes an address or the numeric id', async () => {
    const all = await admin.users.list({ customer: 'my_customer', orderBy: 'email' })
    expect(all.data.users?.map((u) => u.primaryEmail)).toEqual(
      ['alice', 'bob', 'carol', 'dan', 'erin'].map((u) => `${u}@northwind.test`),
    )
    const sales = await admin.users.list({ customer: 'my_customer', query: 'orgUnitPath=/Sales' })
    expect(sales.data.users?.map((u) => u.primaryEmail)).toEqual(['dan@northwind.test'])
    const byName = await admin.users.list({ domain: 'northwind.test', query: "givenName:'Carol'" })
    expect(byName.data.users?.map((u) => u.primaryEmail)).toEqual(['carol@northwind.test'])
    const prefix = await admin.users.list({ customer: 'my_customer', query: 'email:er*' })
    expect(prefix.data.users?.map((u) => u.primaryEmail)).toEqual(['erin@northwind.test'])
    const admins = await admin.users.list({ customer: 'my_customer', query: 'isAdmin=true' })
    expect(admins.data.users?.map((u) => u.primaryEmail)).toEqual(['alice@northwind.test'])
    const page = await admin.users.list({ customer: 'my_customer', maxResults: 2 })
    expect(page.data.users).toHaveLength(2)
    const rest = await admin.users.list({ customer: 'my_customer', maxResults: 2, pageToken: page.data.nextPageToken! })
    expect(rest.data.users?.[0]?.primaryEmail).toBe('carol@northwind.test')
    const one = await admin.users.get({ userKey: 'bob@northwind.test' })
    expect(one.data.name?.fullName).toBe('Bob Okafor')
    expect((await admin.users.get({ userKey: one.data.id! })).data.primaryEmail).toBe('bob@northwind.test')
    expect(await status(admin.users.list({}))).toBe(400)
    expect(await status(bob.users.list({ customer: 'my_customer' }))).toBe(403)
    expect(await status(admin.users.get({ userKey: 'nobody@northwind.test' }))).toBe(404)
  })
})

describe('directory.users.insert, directory.users.update, directory.users.patch, directory.users.makeAdmin, directory.users.delete, directory.users.undelete', () => {
  test("creates, renames, suspends, promotes and deletes a user; a suspended user's token stops working", async () => {
    const made = await admin.users.insert({
      requestBody: {
        primaryEmail: 'frank@northwind.test',
        name: { givenName: 'Frank', familyName: 'Ng' },
        password: 'S3cret-pass',
      },
    })
    expect(made.data.id).toMatch(/^\d{21}$/)
    expect(
      await status(
        admin.users.insert({
          requestBody: {
            primaryEmail: 'frank@northwind.test',
            name: { givenName: 'F', familyName: 'N' },
            password: 'x',
          },
        }),
      ),
    ).toBe(409)
    expect(
      await status(
        admin.users.insert({
          requestBody: { primaryEmail: 'x@northwind.test', name: { givenName: 'X', familyName: 'Y' } },
        }),
      ),
    ).toBe(400)
    const renamed = await admin.users.update({
      userKey: 'frank@northwind.test',
      requestBody: { name: { givenName: 'Franklin' } },
    })
    expect(renamed.data.name?.fullName).toBe('Franklin Ng')
    await admin.users.makeAdmin({ userKey: 'frank@northwind.test', requestBody: { status: true } })
    expect((await admin.users.get({ userKey: 'frank@northwind.test' })).data.isAdmin).toBe(true)

    const gmail = google.gmail({ version: 'v1', auth: server.auth('erin'), rootUrl: server.url })
    expect((await gmail.users.getProfile({ userId: 'me' })).status).toBe(200)
    const suspended = await admin.users.patch({ userKey: 'erin@northwind.test', requestBody: { suspended: true } })
    expect(suspended.data.suspended).toBe(true)
    expect(await status(gmail.users.getProfile({ userId: 'me' }))).toBe(401)
    await admin.users.patch({ userKey: 'erin@northwind.test', requestBody: { suspended: false } })
    expect((await gmail.users.getProfile({ userId: 'me' })).status).toBe(200)

    expect((await admin.users.delete({ userKey: 'frank@northwind.test' })).status).toBe(204)
    expect(await status(admin.users.get({ userKey: 'frank@northwind.test' }))).toBe(404)
    const deleted = await admin.users.list({ customer: 'my_customer', showDeleted: 'true' })
    expect(deleted.data.users?.map((u) => u.primaryEmail)).toEqual(['frank@northwind.test'])
    expect(await status(bob.users.patch({ userKey: 'carol@northwind.test', requestBody: { suspended: true } }))).toBe(
      403,
    )
    // Deleting dan kills his token; undelete brings the account and his own token back.
    const dan = google.gmail({ version: 'v1', auth: server.auth('dan'), rootUrl: server.url })
    await admin.users.delete({ userKey: 'dan@northwind.test' })
    expect(await status(dan.users.getProfile({ userId: 'me' }))).toBe(401)
    expect(await status(admin.users.undelete({ userKey: 'dan@northwind.test', requestBody: {} }))).toBe(204)
    expect((await dan.users.getProfile({ userId: 'me' })).status).toBe(200)
    expect(await status(admin.users.undelete({ userKey: 'dan@northwind.test', requestBody: {} }))).toBe(400)
  })
})

describe('directory.groups.list, directory.groups.get, directory.groups.insert, directory.groups.update, directory.groups.patch, directory.groups.delete', () => {
  test("manages groups and lists a user's groups", async () => {
    const list = await admin.groups.list({ customer: 'my_customer' })
    expect(list.data.groups?.map((g) => [g.email, g.directMembersCount])).toEqual([
      ['all@northwind.test', '2'],
      ['eng@northwind.test', '2'],
    ])
    const mine = await bob.groups.list({ userKey: 'bob@northwind.test' })
    expect(mine.data.groups?.map((g) => g.email)).toEqual(['eng@northwind.test'])
    const made = await admin.groups.insert({ requestBody: { email: 'sales@northwind.test', name: 'Sales' } })
    expect(made.data.id).toMatch(/^0[0-9a-z]{14}$/)
    expect(await status(admin.groups.insert({ requestBody: { email: 'sales@northwind.test' } }))).toBe(409)
    expect(
      (await admin.groups.patch({ groupKey: made.data.id!, requestBody: { description: 'Deals' } })).data.description,
    ).toBe('Deals')
    expect(
      (await admin.groups.update({ groupKey: 'sales@northwind.test', requestBody: { name: 'Sales team' } })).data.name,
    ).toBe('Sales team')
    expect((await admin.groups.get({ groupKey: 'sales@northwind.test' })).data.name).toBe('Sales team')
    expect((await admin.groups.delete({ groupKey: 'sales@northwind.test' })).status).toBe(204)
    expect(await status(admin.groups.get({ groupKey: 'sales@northwind.test' }))).toBe(404)
    expect(await status(bob.groups.get({ groupKey: 'eng@northwind.test' }))).toBe(403)
  })
})

describe('directory.members.list, directory.members.get, directory.members.insert, directory.members.update, directory.members.patch, directory.members.delete, directory.members.hasMember', () => {
  test('adds, changes and removes members; hasMember sees nested groups', async () => {
    expect(
      (await admin.members.hasMember({ groupKey: 'all@northwind.test', memberKey: 'carol@northwind.test' })).data
        .isMember,
    ).toBe(true)
    expect(
      (await admin.members.hasMember({ groupKey: 'eng@northwind.test', memberKey: 'erin@northwind.test' })).data
        .isMember,
    ).toBe(false)
    const added = await admin.members.insert({
      groupKey: 'eng@northwind.test',
      requestBody: { email: 'dan@northwind.test' },
    })
    expect([added.data.role, added.data.type]).toEqual(['MEMBER', 'USER'])
    expect(
      await status(
        admin.members.insert({ groupKey: 'eng@northwind.test', requestBody: { email: 'dan@northwind.test' } }),
      ),
    ).toBe(409)
    expect(
      (
        await admin.members.patch({
          groupKey: 'eng@northwind.test',
          memberKey: 'dan@northwind.test',
          requestBody: { role: 'MANAGER' },
        })
      ).data.role,
    ).toBe('MANAGER')
    expect(
      (
        await admin.members.update({
          groupKey: 'eng@northwind.test',
          memberKey: 'dan@northwind.test',
          requestBody: { role: 'OWNER' },
        })
      ).data.role,
    ).toBe('OWNER')
    expect(
      (await admin.members.get({ groupKey: 'eng@northwind.test', memberKey: 'bob@northwind.test' })).data.role,
    ).toBe('OWNER')
    const owners = await admin.members.list({ groupKey: 'eng@northwind.test', roles: 'OWNER' })
    expect(owners.data.members?.map((m) => m.email)).toEqual(['bob@northwind.test', 'dan@northwind.test'])
    expect(
      (await admin.members.delete({ groupKey: 'eng@northwind.test', memberKey: 'dan@northwind.test' })).status,
    ).toBe(204)
    const left = await admin.members.list({ groupKey: 'eng@northwind.test' })
    expect(left.data.members?.map((m) => m.email)).toEqual(['bob@northwind.test', 'carol@northwind.test'])
    expect(await status(admin.members.get({ groupKey: 'eng@northwind.test', memberKey: 'dan@northwind.test' }))).toBe(
      404,
    )
  })
})

describe('group addresses across the workspace', () => {
  test("mail to a group reaches its members, a group invited to an event puts it on members' calendars, Drive shares with a group", async () => {
    const g = await startSdkServer(seed())
    try {
      const gmail = (u: string) => google.gmail({ version: 'v1', auth: g.auth(u), rootUrl: g.url })
      const raw = Buffer.from(
        'From: alice@northwind.test\r\nTo: all@northwind.test\r\nSubject: Offsite plans\r\n\r\nSee you there.\r\n',
      ).toString('base64url')
      await gmail('alice').users.messages.send({ userId: 'me', requestBody: { raw } })
      for (const u of ['bob', 'carol', 'erin']) {
        const found = await gmail(u).users.messages.list({ userId: 'me', q: 'subject:"Offsite plans"' })
        expect(found.data.messages ?? [], u).toHaveLength(1)
      }
      expect(
        (await gmail('dan').users.messages.list({ userId: 'me', q: 'subject:"Offsite plans"' })).data.messages,
      ).toBeUndefined()

      const cal = (u: string) => google.calendar({ version: 'v3', auth: g.auth(u), rootUrl: g.url })
      const ev = await cal('alice').events.insert({
        calendarId: 'primary',
        sendUpdates: 'all',
        requestBody: {
          summary: 'Eng sync',
          start: { dateTime: '2026-03-05T15:00:00Z' },
          end: { dateTime: '2026-03-05T16:00:00Z' },
          attendees: [{ email: 'eng@northwind.test' }],
        },
      })
      expect((await cal('carol').events.get({ calendarId: 'primary', eventId: ev.data.id! })).data.summary).toBe(
        'Eng sync',
      )
      expect(await status(cal('erin').events.get({ calendarId: 'primary', eventId: ev.data.id! }))).toBe(404)

      const drive = (u: string) => google.drive({ version: 'v3', auth: g.auth(u), rootUrl: g.url })
      const file = await drive('alice').files.create({
        requestBody: { name: 'Eng roadmap', mimeType: 'application/vnd.google-apps.document' },
      })
      expect(await status(drive('carol').files.get({ fileId: file.data.id! }))).toBe(404)
      await drive('alice').permissions.create({
        fileId: file.data.id!,
        sendNotificationEmail: false,
        requestBody: { type: 'group', role: 'reader', emailAddress: 'eng@northwind.test' },
      })
      expect((await drive('carol').files.get({ fileId: file.data.id! })).data.name).toBe('Eng roadmap')
      const listed = await drive('bob').files.list({ q: "name = 'Eng roadmap'" })
      expect(listed.data.files?.map((f) => f.id)).toEqual([file.data.id])
      expect(await status(drive('erin').files.get({ fileId: file.data.id! }))).toBe(404)
    } finally {
      await g.close()
    }
  })
})
