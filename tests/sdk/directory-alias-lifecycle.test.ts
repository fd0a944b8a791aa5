import { describe, expect, test } from 'vitest'
import { google, type admin_directory_v1 } from 'googleapis'
import { demoSeed } from '../../seeds/demo/index.ts'
import { dumpIdentity } from '../../envs/identity/state.ts'
import { startSdkServer, type SdkServer } from './server.ts'
// Directory aliases through googleapis, past 0465 (docs/decisions/0467): a rename keeps the old address as an
// alias, undelete brings a user's aliases back, mail to one's own alias, and the Calendar and Drive places where an
// address names an account (ACL rules, free/busy, calendar transfer, approvals, label user values).
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
const D = '@northwind.test'

async function withServer(run: (s: SdkServer, admin: admin_directory_v1.Admin) => Promise<void>) {
  const s = await startSdkServer(seed())
  try {
    await run(s, google.admin({ version: 'directory_v1', auth: s.auth('alice'), rootUrl: s.url }))
  } finally {
    await s.close()
  }
}
const status = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e) => e.response.status as number,
  )
const gmail = (s: SdkServer, u: string) => google.gmail({ version: 'v1', auth: s.auth(u), rootUrl: s.url })
const send = (s: SdkServer, from: string, to: string, subject: string) =>
  gmail(s, from).users.messages.send({
    userId: 'me',
    requestBody: { raw: Buffer.from(`To: ${to}\r\nSubject: ${subject}\r\n\r\nHello.\r\n`).toString('base64url') },
  })
const received = async (s: SdkServer, u: string, subject: string) => {
  const g = gmail(s, u)
  const ids = (await g.users.messages.list({ userId: 'me', q: `subject:"${subject}"` })).data.messages ?? []
  return Promise.all(ids.map(async (m) => (await g.users.messages.get({ userId: 'me', id: m.id! })).data.labelIds))
}
const aliasesOf = async (a: admin_directory_v1.Admin, userKey: string) =>
  ((await a.users.aliases.list({ userKey })).data.aliases ?? []).map(
    (x) => (x as admin_directory_v1.Schema$Alias).alias,
  )

describe('directory.users.update, directory.users.patch, directory.groups.patch (a new address)', () => {
  test('a renamed user keeps the old address as an alias: listed, a userKey, and mail to it arrives', async () => {
    await withServer(async (s, a) => {
      const renamed = await a.users.patch({ userKey: `bob${D}`, requestBody: { primaryEmail: `Robert${D}` } })
      expect(renamed.data).toMatchObject({ primaryEmail: `robert${D}`, aliases: [`bob${D}`] })
      expect(renamed.data.emails).toContainEqual({ address: `bob${D}` })
      expect(await aliasesOf(a, `robert${D}`)).toEqual([`bob${D}`])
      expect((await a.users.get({ userKey: `bob${D}` })).data.primaryEmail).toBe(`robert${D}`)
      await send(s, 'alice', `bob${D}`, 'After the rename')
      expect(await received(s, 'bob', 'After the rename')).toHaveLength(1)
      // The old address is the user's own alias now: it cannot be their primary again until the alias is deleted.
      expect(await status(a.users.update({ userKey: `robert${D}`, requestBody: { primaryEmail: `bob${D}` } }))).toBe(
        409,
      )
      await a.users.aliases.delete({ userKey: `robert${D}`, alias: `bob${D}` })
      await a.users.update({ userKey: `robert${D}`, requestBody: { primaryEmail: `bob${D}` } })
      expect(await aliasesOf(a, `bob${D}`)).toEqual([`robert${D}`])
      // Only a new address makes an alias (letter case alone does not).
      await a.users.patch({ userKey: `carol${D}`, requestBody: { primaryEmail: `CAROL${D}` } })
      expect(await aliasesOf(a, `carol${D}`)).toEqual([])
    })
  })

  test("a group's new address keeps the old one as an alias that still reaches the members", async () => {
    await withServer(async (s, a) => {
      const g = await a.groups.patch({ groupKey: `eng${D}`, requestBody: { email: `engineering${D}` } })
      expect(g.data).toMatchObject({ email: `engineering${D}`, aliases: [`eng${D}`] })
      expect((await a.groups.get({ groupKey: `eng${D}` })).data.email).toBe(`engineering${D}`)
      await send(s, 'alice', `eng${D}`, 'Old group address')
      for (const u of ['bob', 'carol']) expect(await received(s, u, 'Old group address'), u).toHaveLength(1)
    })
  })
})

describe('directory.users.undelete', () => {
  test("brings the user's aliases back; refused while one of them has been given to someone else", async () => {
    await withServer(async (s, a) => {
      await a.users.aliases.insert({ userKey: `erin${D}`, requestBody: { alias: `e${D}` } })
      await a.users.aliases.insert({ userKey: `erin${D}`, requestBody: { alias: `ee${D}` } })
      await a.users.delete({ userKey: `erin${D}` })
      expect(dumpIdentity(s.entry.world).entities.aliases).toEqual({})
      // Freed at the deletion: another user may take one; the restore is refused until it is free again.
      await a.users.aliases.insert({ userKey: `carol${D}`, requestBody: { alias: `ee${D}` } })
      expect(await status(a.users.undelete({ userKey: `erin${D}`, requestBody: {} }))).toBe(409)
      await a.users.aliases.delete({ userKey: `carol${D}`, alias: `ee${D}` })
      await a.users.undelete({ userKey: `erin${D}`, requestBody: {} })
      expect(await aliasesOf(a, `erin${D}`)).toEqual([`e${D}`, `ee${D}`])
      await send(s, 'alice', `ee${D}`, 'Welcome back')
      expect(await received(s, 'erin', 'Welcome back')).toHaveLength(1)
    })
  })
})

describe('gmail.users.messages.send to the sender’s own alias', () => {
  test('keeps one message, the SENT copy (not in the Inbox); with the primary address too, SENT + INBOX', async () => {
    await withServer(async (s, a) => {
      await a.users.aliases.insert({ userKey: `carol${D}`, requestBody: { alias: `cc${D}` } })
      await send(s, 'carol', `cc${D}`, 'Note to my alias')
      const [one, ...more] = await received(s, 'carol', 'Note to my alias')
      expect(more).toEqual([])
      expect(one).toContain('SENT')
      expect(one).not.toContain('INBOX')
      await send(s, 'carol', `cc${D}, carol${D}`, 'Both my addresses')
      const both = await received(s, 'carol', 'Both my addresses')
      expect(both).toHaveLength(1)
      expect(both[0]).toEqual(expect.arrayContaining(['SENT', 'INBOX']))
    })
  })
})

describe('calendar.acl.insert, calendar.freebusy.query, calendar.calendars.transferOwnership with an alias', () => {
  test('an ACL scope, a free/busy item and a new owner given by alias name the account', async () => {
    await withServer(async (s, a) => {
      await a.users.aliases.insert({ userKey: `carol${D}`, requestBody: { alias: `cc${D}` } })
      await a.groups.aliases.insert({ groupKey: `eng${D}`, requestBody: { alias: `dev${D}` } })
      const cal = (u: string) => google.calendar({ version: 'v3', auth: s.auth(u), rootUrl: s.url })
      const team = (await cal('alice').calendars.insert({ requestBody: { summary: 'Team' } })).data.id!
      const rule = await cal('alice').acl.insert({
        calendarId: team,
        requestBody: { role: 'reader', scope: { type: 'user', value: `CC${D}` } },
      })
      expect(rule.data).toMatchObject({ id: `user:carol${D}`, scope: { type: 'user', value: `carol${D}` } })
      expect((await cal('carol').calendars.get({ calendarId: team })).data.summary).toBe('Team')
      const group = await cal('alice').acl.insert({
        calendarId: team,
        requestBody: { role: 'reader', scope: { type: 'group', value: `dev${D}` } },
      })
      expect(group.data.scope).toEqual({ type: 'group', value: `eng${D}` })
      expect((await cal('bob').events.list({ calendarId: team })).status).toBe(200)

      // The alias answers as the primary address does (keyed by the id as asked).
      const fb = await cal('alice').freebusy.query({
        requestBody: {
          timeMin: '2026-03-01T00:00:00Z',
          timeMax: '2026-03-31T00:00:00Z',
          items: [{ id: `cc${D}` }, { id: `carol${D}` }],
        },
      })
      expect(fb.data.calendars?.[`cc${D}`]?.busy?.length).toBeGreaterThan(0)
      expect(fb.data.calendars?.[`cc${D}`]).toEqual(fb.data.calendars?.[`carol${D}`])

      const moved = await s.auth('alice').request<{ id: string }>({
        url: new URL(`calendar/v3/calendars/${encodeURIComponent(team)}/transferOwnership`, s.url).href,
        method: 'POST',
        params: { newOwnerEmail: `cc${D}` },
      })
      expect(moved.status).toBe(200)
      const owner = await cal('carol').acl.list({ calendarId: team })
      expect(owner.data.items?.find((r) => r.role === 'owner')?.scope?.value).toBe(`carol${D}`)
    })
  })
})

describe('drive.approvals.start, drive.files.modifyLabels with an alias', () => {
  test('a reviewer and a label user value given by alias are the user', async () => {
    await withServer(async (s, a) => {
      await a.users.aliases.insert({ userKey: `carol${D}`, requestBody: { alias: `cc${D}` } })
      const drive = (u: string) => google.drive({ version: 'v3', auth: s.auth(u), rootUrl: s.url })
      const fileId = (await drive('alice').files.create({ requestBody: { name: 'Budget', mimeType: 'text/plain' } }))
        .data.id!
      await drive('alice').permissions.create({
        fileId,
        requestBody: { type: 'user', role: 'reader', emailAddress: `carol${D}` },
      })
      const started = await drive('alice').approvals.start({ fileId, requestBody: { reviewerEmails: [`cc${D}`] } })
      expect(started.data.reviewerResponses?.[0]?.reviewer?.emailAddress).toBe(`carol${D}`)
      const done = await drive('carol').approvals.approve({ fileId, approvalId: started.data.approvalId! })
      expect(done.data.status).toBe('APPROVED')

      const labelled = await drive('alice').files.modifyLabels({
        fileId,
        requestBody: {
          labelModifications: [
            { labelId: 'owners', fieldModifications: [{ fieldId: 'lead', setUserValues: [`cc${D}`] }] },
          ],
        },
      })
      const lead = labelled.data.modifiedLabels?.[0]?.fields?.lead?.user?.[0]
      expect(lead?.emailAddress).toBe(`carol${D}`)
    })
  })
})
