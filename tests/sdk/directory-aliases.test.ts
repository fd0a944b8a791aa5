import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google, type admin_directory_v1 } from 'googleapis'
import { demoSeed } from '../../seeds/demo/index.ts'
import { dumpIdentity } from '../../envs/identity/state.ts'
import { refusal as failure } from './refusal.ts'
import { startSdkServer, type SdkServer } from './server.ts'
// Directory user and group aliases through googleapis: the methods, and aliases as addresses (userKey and groupKey,
// mail delivery, the dump).
let server: SdkServer
let admin: admin_directory_v1.Admin
let bob: admin_directory_v1.Admin
const seed = () => ({
  ...demoSeed(1),
  identity: {
    groups: [
      {
        email: 'eng@northwind.test',
        name: 'Engineering',
        members: [{ email: 'bob@northwind.test' }, { email: 'carol@northwind.test' }],
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

const gmail = (s: SdkServer, u: string) => google.gmail({ version: 'v1', auth: s.auth(u), rootUrl: s.url })
const send = (s: SdkServer, from: string, to: string, subject: string) =>
  gmail(s, from).users.messages.send({
    userId: 'me',
    requestBody: {
      raw: Buffer.from(`To: ${to}\r\nSubject: ${subject}\r\n\r\nHello.\r\n`).toString('base64url'),
    },
  })
const received = async (s: SdkServer, u: string, subject: string) =>
  (await gmail(s, u).users.messages.list({ userId: 'me', q: `subject:"${subject}"` })).data.messages ?? []

describe('directory.users.aliases.insert, directory.users.aliases.list, directory.users.aliases.delete', () => {
  test('an alias is listed, shown on the user, names the user as userKey, and is refused twice', async () => {
    const made = await admin.users.aliases.insert({
      userKey: 'bob@northwind.test',
      requestBody: { alias: 'Robert@northwind.test' },
    })
    const bobId = (await admin.users.get({ userKey: 'bob@northwind.test' })).data.id
    expect(made.data).toMatchObject({
      kind: 'admin#directory#alias',
      id: bobId,
      primaryEmail: 'bob@northwind.test',
      alias: 'robert@northwind.test',
    })
    const listed = await admin.users.aliases.list({ userKey: 'bob@northwind.test' })
    expect(listed.data.kind).toBe('admin#directory#aliases')
    expect(listed.data.aliases?.map((a) => (a as admin_directory_v1.Schema$Alias).alias)).toEqual([
      'robert@northwind.test',
    ])
    const byAlias = await admin.users.get({ userKey: 'ROBERT@northwind.test' })
    expect(byAlias.data.primaryEmail).toBe('bob@northwind.test')
    expect(byAlias.data.aliases).toEqual(['robert@northwind.test'])
    expect(byAlias.data.emails).toContainEqual({ address: 'robert@northwind.test' })
    // users.list `email:` searches "the user's email addresses, including aliases".
    const found = await admin.users.list({ customer: 'my_customer', query: 'email:robert@northwind.test' })
    expect(found.data.users?.map((u) => u.primaryEmail)).toEqual(['bob@northwind.test'])
    // Already an alias, a user's address, a group's address: 409 duplicate; another domain: 400; non-admin: 403.
    for (const alias of ['robert@northwind.test', 'carol@northwind.test', 'eng@northwind.test']) {
      expect(
        await failure(admin.users.aliases.insert({ userKey: 'erin@northwind.test', requestBody: { alias } })),
      ).toEqual({ status: 409, reason: 'duplicate' })
    }
    const outside = admin.users.aliases.insert({ userKey: 'erin@northwind.test', requestBody: { alias: 'e@x.test' } })
    expect((await failure(outside))?.status).toBe(400)
    expect((await failure(bob.users.aliases.list({ userKey: 'bob@northwind.test' })))?.status).toBe(403)
    // A new user or group cannot take an alias either.
    const user = admin.users.insert({
      requestBody: {
        primaryEmail: 'robert@northwind.test',
        name: { givenName: 'Rob', familyName: 'Ert' },
        password: 'x-secret-123',
      },
    })
    expect((await failure(user))?.status).toBe(409)
    const group = admin.groups.insert({ requestBody: { email: 'robert@northwind.test' } })
    expect((await failure(group))?.status).toBe(409)
    // Only the owner's alias can be deleted; then the address is free and no longer names the user.
    const wrong = admin.users.aliases.delete({ userKey: 'erin@northwind.test', alias: 'robert@northwind.test' })
    expect((await failure(wrong))?.status).toBe(404)
    await admin.users.aliases.delete({ userKey: 'bob@northwind.test', alias: 'robert@northwind.test' })
    expect((await admin.users.aliases.list({ userKey: 'bob@northwind.test' })).data.aliases).toBeUndefined()
    expect((await failure(admin.users.get({ userKey: 'robert@northwind.test' })))?.status).toBe(404)
  })
})

describe('directory.groups.aliases.insert, directory.groups.aliases.list, directory.groups.aliases.delete', () => {
  test('a group alias is listed, shown on the group, names it as groupKey; deleting the group frees it', async () => {
    const made = await admin.groups.aliases.insert({
      groupKey: 'eng@northwind.test',
      requestBody: { alias: 'engineering@northwind.test' },
    })
    expect(made.data).toMatchObject({ primaryEmail: 'eng@northwind.test', alias: 'engineering@northwind.test' })
    const listed = await admin.groups.aliases.list({ groupKey: 'eng@northwind.test' })
    expect(listed.data.aliases).toHaveLength(1)
    const g = await admin.groups.get({ groupKey: 'engineering@northwind.test' })
    expect(g.data).toMatchObject({ email: 'eng@northwind.test', aliases: ['engineering@northwind.test'] })
    expect(
      await failure(
        admin.users.aliases.insert({
          userKey: 'erin@northwind.test',
          requestBody: { alias: 'engineering@northwind.test' },
        }),
      ),
    ).toEqual({ status: 409, reason: 'duplicate' })
    await admin.groups.aliases.delete({ groupKey: 'eng@northwind.test', alias: 'engineering@northwind.test' })
    expect((await admin.groups.aliases.list({ groupKey: 'eng@northwind.test' })).data.aliases).toBeUndefined()

    const temp = await admin.groups.insert({ requestBody: { email: 'temp@northwind.test' } })
    await admin.groups.aliases.insert({ groupKey: temp.data.id!, requestBody: { alias: 'tmp@northwind.test' } })
    await admin.users.aliases.insert({ userKey: 'erin@northwind.test', requestBody: { alias: 'e@northwind.test' } })
    expect(Object.keys(dumpIdentity(server.entry.world).entities.aliases!)).toEqual([
      'e@northwind.test',
      'tmp@northwind.test',
    ])
    expect(dumpIdentity(server.entry.world).entities.aliases).toMatchObject({
      'tmp@northwind.test': { kind: 'group', owner: 'temp@northwind.test' },
      'e@northwind.test': { kind: 'user', owner: 'erin' },
    })
    await admin.groups.delete({ groupKey: 'tmp@northwind.test' })
    await admin.users.delete({ userKey: 'e@northwind.test' })
    expect(dumpIdentity(server.entry.world).entities.aliases).toEqual({})
    await admin.groups.insert({ requestBody: { email: 'tmp@northwind.test' } })
  })
})

describe('aliases as mail addresses', () => {
  test("mail to a user's alias reaches the user once; mail to a group's alias reaches its members", async () => {
    const s = await startSdkServer(seed())
    try {
      const a = google.admin({ version: 'directory_v1', auth: s.auth('alice'), rootUrl: s.url })
      await a.users.aliases.insert({ userKey: 'carol@northwind.test', requestBody: { alias: 'cc@northwind.test' } })
      await a.groups.aliases.insert({ groupKey: 'eng@northwind.test', requestBody: { alias: 'dev@northwind.test' } })
      await send(s, 'alice', 'cc@northwind.test', 'To an alias')
      expect(await received(s, 'carol', 'To an alias')).toHaveLength(1)
      await send(s, 'alice', 'cc@northwind.test, carol@northwind.test', 'Both addresses')
      expect(await received(s, 'carol', 'Both addresses')).toHaveLength(1)
      await send(s, 'alice', 'dev@northwind.test', 'To a group alias')
      for (const u of ['bob', 'carol']) expect(await received(s, u, 'To a group alias'), u).toHaveLength(1)
      expect(await received(s, 'erin', 'To a group alias')).toHaveLength(0)
      // A member added by alias is the user (type USER, primary address), found again by the alias.
      await a.users.aliases.insert({ userKey: 'erin@northwind.test', requestBody: { alias: 'ee@northwind.test' } })
      const m = await a.members.insert({ groupKey: 'dev@northwind.test', requestBody: { email: 'EE@northwind.test' } })
      expect(m.data).toMatchObject({ email: 'erin@northwind.test', type: 'USER' })
      for (const email of ['erin@northwind.test', 'cc@northwind.test']) {
        const again = a.members.insert({ groupKey: 'eng@northwind.test', requestBody: { email } })
        expect((await failure(again))?.status, email).toBe(409)
      }
      const has = await a.members.hasMember({ groupKey: 'dev@northwind.test', memberKey: 'ee@northwind.test' })
      expect(has.data.isMember).toBe(true)
    } finally {
      await s.close()
    }
  })

  test('a Drive share with an alias grants its user; a group alias invited to an event reaches the members', async () => {
    const s = await startSdkServer(seed())
    try {
      const a = google.admin({ version: 'directory_v1', auth: s.auth('alice'), rootUrl: s.url })
      await a.users.aliases.insert({ userKey: 'carol@northwind.test', requestBody: { alias: 'cc@northwind.test' } })
      await a.groups.aliases.insert({ groupKey: 'eng@northwind.test', requestBody: { alias: 'dev@northwind.test' } })
      const drive = (u: string) => google.drive({ version: 'v3', auth: s.auth(u), rootUrl: s.url })
      const file = await drive('alice').files.create({ requestBody: { name: 'Plan', mimeType: 'text/plain' } })
      const p = await drive('alice').permissions.create({
        fileId: file.data.id!,
        fields: 'id,emailAddress,role',
        requestBody: { type: 'user', role: 'reader', emailAddress: 'cc@northwind.test' },
      })
      expect(p.data.emailAddress).toBe('carol@northwind.test')
      expect((await drive('carol').files.get({ fileId: file.data.id! })).data.name).toBe('Plan')

      const cal = (u: string) => google.calendar({ version: 'v3', auth: s.auth(u), rootUrl: s.url })
      const ev = await cal('alice').events.insert({
        calendarId: 'primary',
        requestBody: {
          summary: 'Dev sync',
          start: { dateTime: '2026-03-05T15:00:00Z' },
          end: { dateTime: '2026-03-05T16:00:00Z' },
          attendees: [{ email: 'dev@northwind.test' }],
        },
      })
      const copy = await cal('bob').events.get({ calendarId: 'primary', eventId: ev.data.id! })
      expect(copy.data.summary).toBe('Dev sync')
      // A user's alias as a guest is the user: the guest list shows the primary address, the copy is theirs.
      const one = await cal('alice').events.insert({
        calendarId: 'primary',
        requestBody: {
          summary: 'One to one',
          start: { dateTime: '2026-03-06T15:00:00Z' },
          end: { dateTime: '2026-03-06T16:00:00Z' },
          attendees: [{ email: 'CC@northwind.test' }],
        },
      })
      expect(one.data.attendees?.map((x) => x.email)).toEqual(['carol@northwind.test'])
      const mine = await cal('carol').events.get({ calendarId: 'primary', eventId: one.data.id! })
      expect(mine.data.attendees?.[0]).toMatchObject({ email: 'carol@northwind.test', self: true })
    } finally {
      await s.close()
    }
  })
})
