import { describe, expect, test } from 'vitest'
import { google, type admin_directory_v1, type calendar_v3 } from 'googleapis'
import { demoSeed } from '../../seeds/demo/index.ts'
import { startSdkServer, type SdkServer } from './server.ts'
// A Directory rename reaches Calendar and Drive (docs/decisions/0469): the renamed user's primary calendar takes
// the new address as its id and keeps its events; the old address (an alias) still names it; rules, guests and
// grants naming the old address follow the account.
const D = '@northwind.test'
const DAY = '2031-03-10'
const at = (h: number) => ({ dateTime: `${DAY}T${String(h).padStart(2, '0')}:00:00Z` })

const seed = () => ({
  ...demoSeed(1),
  identity: { groups: [{ email: `eng${D}`, name: 'Engineering', members: [{ email: `bob${D}` }] }] },
})

async function withServer(run: (s: SdkServer, admin: admin_directory_v1.Admin) => Promise<void>) {
  const s = await startSdkServer(seed())
  try {
    await run(s, google.admin({ version: 'directory_v1', auth: s.auth('alice'), rootUrl: s.url }))
  } finally {
    await s.close()
  }
}
const cal = (s: SdkServer, u: string) => google.calendar({ version: 'v3', auth: s.auth(u), rootUrl: s.url })
const rename = (a: admin_directory_v1.Admin) =>
  a.users.update({ userKey: `bob${D}`, requestBody: { primaryEmail: `robert${D}` } })
const status = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e) => e.response.status as number,
  )
const insert = (c: calendar_v3.Calendar, calendarId: string, summary: string, guests: string[] = [], h = 9) =>
  c.events.insert({
    calendarId,
    requestBody: { summary, start: at(h), end: at(h + 1), attendees: guests.map((email) => ({ email })) },
  })

describe('directory.users.update (a new primaryEmail) and Calendar', () => {
  test("`primary`, the new id and the old address find the renamed user's calendar", async () => {
    await withServer(async (s, a) => {
      const bob = cal(s, 'bob')
      const ev = (await insert(bob, 'primary', 'Before the rename', [`carol${D}`])).data
      await rename(a)
      expect((await bob.calendars.get({ calendarId: 'primary' })).data).toMatchObject({ id: `robert${D}` })
      const listed = (await bob.events.list({ calendarId: 'primary' })).data.items ?? []
      expect(listed.map((e) => e.id)).toContain(ev.id)
      for (const calendarId of ['primary', `robert${D}`, `bob${D}`]) {
        const got = (await bob.events.get({ calendarId, eventId: ev.id! })).data
        expect(got.organizer).toMatchObject({ email: `robert${D}`, self: true })
      }
      const entries = (await bob.calendarList.list()).data.items ?? []
      expect(entries.filter((e) => e.primary).map((e) => e.id)).toEqual([`robert${D}`])
      expect(entries.map((e) => e.id)).not.toContain(`bob${D}`)
      // The guest's copy names the organizer by the account's address now.
      const copy = (await cal(s, 'carol').events.get({ calendarId: 'primary', eventId: ev.id! })).data
      expect(copy.organizer?.email).toBe(`robert${D}`)
    })
  })

  test('rules naming the old address follow the account; free/busy by either address', async () => {
    await withServer(async (s, a) => {
      const alice = cal(s, 'alice')
      const team = (await alice.calendars.insert({ requestBody: { summary: 'Team' } })).data.id!
      // The new address already has a rule on another calendar: the better of the two roles is kept.
      const other = (await alice.calendars.insert({ requestBody: { summary: 'Other' } })).data.id!
      for (const [calendarId, value, role] of [
        [team, `bob${D}`, 'reader'],
        [other, `bob${D}`, 'reader'],
        [other, `robert${D}`, 'writer'],
      ])
        await alice.acl.insert({ calendarId, requestBody: { role, scope: { type: 'user', value } } })
      await insert(cal(s, 'bob'), 'primary', 'Busy', [], 14)
      await rename(a)
      expect(await status(cal(s, 'bob').events.list({ calendarId: team }))).toBe(200)
      const rules = (await alice.acl.list({ calendarId: team })).data.items ?? []
      expect(rules.map((r) => r.id)).toContain(`user:robert${D}`)
      expect(rules.map((r) => r.id)).not.toContain(`user:bob${D}`)
      const others = (await alice.acl.list({ calendarId: other })).data.items ?? []
      expect(others.filter((r) => r.scope?.type === 'user').map((r) => [r.id, r.role])).toContainEqual([
        `user:robert${D}`,
        'writer',
      ])
      expect(others.map((r) => r.id)).not.toContain(`user:bob${D}`)
      const fb = await alice.freebusy.query({
        requestBody: {
          timeMin: `${DAY}T00:00:00Z`,
          timeMax: `${DAY}T23:00:00Z`,
          items: [{ id: `robert${D}` }, { id: `bob${D}` }],
        },
      })
      for (const id of [`robert${D}`, `bob${D}`]) {
        expect(fb.data.calendars?.[id]?.errors).toBeUndefined()
        expect(fb.data.calendars?.[id]?.busy).toContainEqual({ start: `${DAY}T14:00:00Z`, end: `${DAY}T15:00:00Z` })
      }
    })
  })

  test("an old invitation stays the guest's and answerable; a new one to the new address arrives", async () => {
    await withServer(async (s, a) => {
      const carol = cal(s, 'carol')
      const bob = cal(s, 'bob')
      const old = (await insert(carol, 'primary', 'Old invitation', [`bob${D}`])).data
      await rename(a)
      await carol.events.patch({ calendarId: 'primary', eventId: old.id!, requestBody: { summary: 'Renamed later' } })
      const mine = (await bob.events.get({ calendarId: 'primary', eventId: old.id! })).data
      expect(mine.summary).toBe('Renamed later')
      expect(mine.attendees).toEqual([expect.objectContaining({ email: `robert${D}`, self: true })])
      await bob.events.patch({
        calendarId: 'primary',
        eventId: old.id!,
        requestBody: { attendees: [{ email: `robert${D}`, responseStatus: 'accepted' }] },
      })
      const seen = (await carol.events.get({ calendarId: 'primary', eventId: old.id! })).data
      expect(seen.attendees).toEqual([expect.objectContaining({ email: `robert${D}`, responseStatus: 'accepted' })])
      const fresh = (await insert(carol, 'primary', 'New invitation', [`robert${D}`], 11)).data
      expect(await status(bob.events.get({ calendarId: 'primary', eventId: fresh.id! }))).toBe(200)
    })
  })
})

describe('directory.users.update (a new primaryEmail) and Drive', () => {
  test('a grant to the old address shows the new one and still gives access', async () => {
    await withServer(async (s, a) => {
      const drive = (u: string) => google.drive({ version: 'v3', auth: s.auth(u), rootUrl: s.url })
      const file = (await drive('alice').files.create({ requestBody: { name: 'Plan' }, fields: 'id' })).data.id!
      await drive('alice').permissions.create({
        fileId: file,
        sendNotificationEmail: false,
        requestBody: { type: 'user', role: 'writer', emailAddress: `bob${D}` },
      })
      await rename(a)
      const perms = (await drive('alice').permissions.list({ fileId: file, fields: '*' })).data.permissions ?? []
      expect(perms.filter((p) => p.role === 'writer').map((p) => p.emailAddress)).toEqual([`robert${D}`])
      expect(await status(drive('bob').files.get({ fileId: file }))).toBe(200)
    })
  })
})

describe('directory.groups.patch (a new email) and Calendar, Drive', () => {
  test("a group's rules and grants follow it to the new address; its members keep their access", async () => {
    await withServer(async (s, a) => {
      const alice = cal(s, 'alice')
      const drive = (u: string) => google.drive({ version: 'v3', auth: s.auth(u), rootUrl: s.url })
      const team = (await alice.calendars.insert({ requestBody: { summary: 'Team' } })).data.id!
      const scope = { type: 'group', value: `eng${D}` }
      await alice.acl.insert({ calendarId: team, requestBody: { role: 'reader', scope } })
      const file = (await drive('alice').files.create({ requestBody: { name: 'Spec' }, fields: 'id' })).data.id!
      await drive('alice').permissions.create({
        fileId: file,
        sendNotificationEmail: false,
        requestBody: { type: 'group', role: 'reader', emailAddress: `eng${D}` },
      })
      await a.groups.patch({ groupKey: `eng${D}`, requestBody: { email: `engineering${D}` } })
      const rules = (await alice.acl.list({ calendarId: team })).data.items ?? []
      expect(rules.filter((r) => r.scope?.type === 'group').map((r) => r.id)).toEqual([`group:engineering${D}`])
      expect(await status(cal(s, 'bob').events.list({ calendarId: team }))).toBe(200)
      const perms = (await drive('alice').permissions.list({ fileId: file, fields: '*' })).data.permissions ?? []
      expect(perms.filter((p) => p.type === 'group').map((p) => p.emailAddress)).toEqual([`engineering${D}`])
      expect(await status(drive('bob').files.get({ fileId: file }))).toBe(200)
    })
  })
})
