import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google, type admin_directory_v1, type calendar_v3 } from 'googleapis'
import { demoSeed } from '../../seeds/demo/index.ts'
import { startSdkServer, type SdkServer } from './server.ts'
import { validateAgainst } from '../support/discovery.ts'

// Rooms: the Directory API's resources.* (buildings, features, calendars) and booking rooms in Calendar.

let server: SdkServer
const admin = (who: string) => google.admin({ version: 'directory_v1', auth: server.auth(who), rootUrl: server.url })
const cal = (who: string) => google.calendar({ version: 'v3', auth: server.auth(who), rootUrl: server.url })
let alice: admin_directory_v1.Admin

const seed = () => {
  const demo = demoSeed(1) as ReturnType<typeof demoSeed> & {
    calendar: { events: unknown[] } & Record<string, unknown>
    identity?: Record<string, unknown>
  }
  return {
    ...demo,
    calendar: {
      ...demo.calendar,
      buildings: [{ id: 'hq', name: 'HQ', floors: ['1', '2'] }],
      features: ['Whiteboard', 'Video conferencing'],
      rooms: [
        { id: 'orion', name: 'Orion', building: 'hq', floor: '2', capacity: 8, features: ['Video conferencing'] },
        { id: 'vega', name: 'Vega', building: 'hq', floor: '1', capacity: 4, features: ['Whiteboard'] },
      ],
      events: [
        ...demo.calendar.events,
        {
          calendar: 'dan',
          summary: 'Pipeline review',
          rooms: ['vega'],
          start: { dateTime: '2026-03-10T10:00:00-05:00' },
          end: { dateTime: '2026-03-10T11:00:00-05:00' },
        },
      ],
    },
    identity: { ...demo.identity, resourceAdmins: ['carol'] },
  }
}

beforeAll(async () => {
  server = await startSdkServer(seed())
  alice = admin('alice')
})
afterAll(async () => {
  await server.close()
})

const status = (p: Promise<{ status: number }>) =>
  p.then(
    (r) => r.status,
    (e) => e.response.status as number,
  )
const reason = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e) => e.response.data.error.errors[0].reason as string,
  )
const customer = 'my_customer'

describe('directory.resources.calendars.list, directory.resources.calendars.get', () => {
  test('lists seeded rooms with their generated names, addresses and features; query and orderBy filter and sort', async () => {
    const all = await alice.resources.calendars.list({ customer })
    expect(all.data.kind).toBe('admin#directory#resources#calendars#calendarResourcesList')
    expect(validateAgainst('directory', 'CalendarResources', all.data)).toEqual([])
    const orion = all.data.items!.find((r) => r.resourceId === 'orion')!
    expect(orion.kind).toBe('admin#directory#resources#calendars#CalendarResource')
    expect(orion.generatedResourceName).toBe('HQ-2-Orion (8) [Video conferencing]')
    expect(orion.resourceEmail).toMatch(/^c_\d{18}@resource\.calendar\.google\.com$/)
    expect(orion.featureInstances).toEqual([{ feature: expect.objectContaining({ name: 'Video conferencing' }) }])
    expect(orion.etags).toMatch(/^".+"$/)
    const big = await alice.resources.calendars.list({ customer, query: 'capacity>=5' })
    expect(big.data.items!.map((r) => r.resourceId)).toEqual(['orion'])
    const wb = await alice.resources.calendars.list({
      customer,
      query: 'buildingId=hq AND featureInstances.feature.name:Whiteboard',
    })
    expect(wb.data.items!.map((r) => r.resourceId)).toEqual(['vega'])
    const byCap = await alice.resources.calendars.list({ customer, orderBy: 'capacity desc' })
    expect(byCap.data.items!.map((r) => r.resourceId)).toEqual(['orion', 'vega'])
    const page = await alice.resources.calendars.list({ customer, orderBy: 'resourceName', maxResults: 1 })
    expect(page.data.items!.map((r) => r.resourceId)).toEqual(['orion'])
    const rest = await alice.resources.calendars.list({
      customer,
      maxResults: 1,
      pageToken: page.data.nextPageToken!,
      orderBy: 'resourceName',
    })
    expect(rest.data.items!.map((r) => r.resourceId)).toEqual(['vega'])
    expect((await alice.resources.calendars.get({ customer, calendarResourceId: 'vega' })).data.capacity).toBe(4)
    expect(await status(alice.resources.calendars.get({ customer, calendarResourceId: 'nope' }))).toBe(404)
    expect(await reason(alice.resources.calendars.list({ customer, query: 'colour=red' }))).toBe('invalid')
    expect(await reason(alice.resources.calendars.list({ customer, orderBy: 'colour' }))).toBe('invalid')
  })

  test('non-admins get 403; a delegated resource admin may read rooms but not users', async () => {
    expect(await status(admin('bob').resources.calendars.list({ customer }))).toBe(403)
    expect(await status(admin('bob').resources.buildings.list({ customer }))).toBe(403)
    const carol = admin('carol')
    expect((await carol.resources.calendars.list({ customer })).data.items).toHaveLength(2)
    expect(await status(carol.users.list({ customer }))).toBe(403)
    // The super admin sees the role: Carol is a delegated admin, Bob is not.
    expect((await alice.users.get({ userKey: 'carol@northwind.test' })).data.isDelegatedAdmin).toBe(true)
    expect((await alice.users.get({ userKey: 'bob@northwind.test' })).data.isDelegatedAdmin).toBe(false)
    const delegated = await alice.users.list({ customer, query: 'isDelegatedAdmin=true' })
    expect(delegated.data.users?.map((u) => u.primaryEmail)).toEqual(['carol@northwind.test'])
    expect(await status(alice.resources.calendars.list({ customer: 'C0someoneelse' }))).toBe(403)
  })
})

describe(
  'directory.resources.buildings.insert, directory.resources.buildings.get, ' +
    'directory.resources.buildings.list, directory.resources.buildings.patch, directory.resources.buildings.update, ' +
    'directory.resources.buildings.delete, directory.resources.features.insert, directory.resources.features.get, ' +
    'directory.resources.features.list, directory.resources.features.update, directory.resources.features.patch, ' +
    'directory.resources.features.rename, directory.resources.features.delete, directory.resources.calendars.insert, ' +
    'directory.resources.calendars.update, directory.resources.calendars.patch, directory.resources.calendars.delete',
  () => {
    test('creates a building, a feature and a room; renames the feature everywhere; update, patch and delete', async () => {
      const b = await alice.resources.buildings.insert({
        customer,
        requestBody: {
          buildingId: 'annex',
          buildingName: 'Annex',
          floorNames: ['G', '1'],
          coordinates: { latitude: 59.3, longitude: 18.1 },
        },
      })
      expect(b.data).toMatchObject({ kind: 'admin#directory#resources#buildings#Building', buildingName: 'Annex' })
      expect(validateAgainst('directory', 'Building', b.data)).toEqual([])
      expect(
        await reason(
          alice.resources.buildings.insert({
            customer,
            requestBody: { buildingId: 'annex', buildingName: 'Other' },
          }),
        ),
      ).toBe('duplicate')
      expect(
        await reason(
          alice.resources.buildings.insert({
            customer,
            requestBody: { buildingId: 'x', buildingName: 'hq' },
          }),
        ),
      ).toBe('duplicate')
      const got = await alice.resources.buildings.get({ customer, buildingId: 'annex' })
      expect(got.data).toMatchObject({ floorNames: ['G', '1'], coordinates: { latitude: 59.3, longitude: 18.1 } })
      await alice.resources.features.insert({ customer, requestBody: { name: 'Phone' } })
      const made = await alice.resources.calendars.insert({
        customer,
        requestBody: {
          resourceId: 'lyra',
          resourceName: 'Lyra',
          buildingId: 'annex',
          floorName: 'G',
          capacity: 3,
          resourceCategory: 'CONFERENCE_ROOM',
          featureInstances: [{ feature: { name: 'Phone' } }],
        },
      })
      expect(made.data.generatedResourceName).toBe('Annex-G-Lyra (3) [Phone]')
      expect(await reason(alice.resources.calendars.insert({ customer, requestBody: { resourceName: 'No id' } }))).toBe(
        'required',
      )
      expect(
        await reason(
          alice.resources.calendars.insert({
            customer,
            requestBody: { resourceId: 'z', resourceName: 'Z', buildingId: 'nowhere' },
          }),
        ),
      ).toBe('invalid')
      expect(
        await reason(
          alice.resources.calendars.insert({
            customer,
            requestBody: { resourceId: 'z', resourceName: 'Z', featureInstances: [{ feature: { name: 'Sauna' } }] },
          }),
        ),
      ).toBe('invalid')
      await alice.resources.features.rename({ customer, oldName: 'Phone', requestBody: { newName: 'Speakerphone' } })
      const lyra = await alice.resources.calendars.get({ customer, calendarResourceId: 'lyra' })
      expect(lyra.data.generatedResourceName).toBe('Annex-G-Lyra (3) [Speakerphone]')
      expect(await status(alice.resources.features.get({ customer, featureKey: 'Phone' }))).toBe(404)
      await alice.resources.features.patch({
        customer,
        featureKey: 'Speakerphone',
        requestBody: { name: 'Conf phone' },
      })
      expect(
        (await alice.resources.calendars.get({ customer, calendarResourceId: 'lyra' })).data.featureInstances,
      ).toEqual([{ feature: expect.objectContaining({ name: 'Conf phone' }) }])
      const back = await alice.resources.features.update({
        customer,
        featureKey: 'Conf phone',
        requestBody: { name: 'Speakerphone' },
      })
      expect(back.data.name).toBe('Speakerphone')
      const renamed = await alice.resources.calendars.update({
        customer,
        calendarResourceId: 'lyra',
        requestBody: { resourceName: 'Lyra North' },
      })
      expect(renamed.data).toMatchObject({ resourceName: 'Lyra North', capacity: 3 })
      await alice.resources.calendars.update({
        customer,
        calendarResourceId: 'lyra',
        requestBody: { resourceName: 'Lyra' },
      })
      const described = await alice.resources.buildings.update({
        customer,
        buildingId: 'annex',
        requestBody: { description: 'Across the yard' },
      })
      expect(described.data).toMatchObject({ description: 'Across the yard', buildingName: 'Annex' })
      const patched = await alice.resources.calendars.patch({
        customer,
        calendarResourceId: 'lyra',
        requestBody: { capacity: 5 },
      })
      expect(patched.data).toMatchObject({ capacity: 5, resourceName: 'Lyra', buildingId: 'annex' })
      await alice.resources.buildings.patch({ customer, buildingId: 'annex', requestBody: { buildingName: 'East' } })
      expect(
        (await alice.resources.calendars.get({ customer, calendarResourceId: 'lyra' })).data.generatedResourceName,
      ).toBe('East-G-Lyra (5) [Speakerphone]')
      expect(await status(alice.resources.buildings.delete({ customer, buildingId: 'annex' }))).toBe(400)
      expect(await status(alice.resources.features.delete({ customer, featureKey: 'Speakerphone' }))).toBe(400)
      expect(await status(alice.resources.calendars.delete({ customer, calendarResourceId: 'lyra' }))).toBe(204)
      expect(await status(alice.resources.buildings.delete({ customer, buildingId: 'annex' }))).toBe(204)
      expect(await status(alice.resources.features.delete({ customer, featureKey: 'Speakerphone' }))).toBe(204)
      const features = await alice.resources.features.list({ customer })
      expect(validateAgainst('directory', 'Features', features.data)).toEqual([])
      const buildings = await alice.resources.buildings.list({ customer })
      expect(validateAgainst('directory', 'Buildings', buildings.data)).toEqual([])
      expect(features.data.features!.map((f) => f.name)).toEqual(['Video conferencing', 'Whiteboard'])
      expect((await alice.resources.buildings.list({ customer })).data.buildings!.map((x) => x.buildingId)).toEqual([
        'hq',
      ])
    })
  },
)

async function roomEmail(id: string) {
  return (await alice.resources.calendars.get({ customer, calendarResourceId: id })).data.resourceEmail!
}
const two = (n: number) => String(n).padStart(2, '0')
const at = (h: number, m = 0) => ({ dateTime: `2026-03-10T${two(h)}:${two(m)}:00-05:00` })
const roomOf = (e: calendar_v3.Schema$Event, email: string) => e.attendees?.find((a) => a.email === email)

describe('calendar.events.insert with a room, calendar.freebusy.query', () => {
  test('a free room accepts and holds the booking; a busy room declines; moving or removing frees it', async () => {
    const vega = await roomEmail('vega')
    const orion = await roomEmail('orion')
    const bob = cal('bob')
    // Dan's seeded booking holds Vega 10:00–11:00: Bob's overlapping request is declined.
    const clash = await bob.events.insert({
      calendarId: 'primary',
      requestBody: {
        summary: 'Design sync',
        start: at(10, 30),
        end: at(11, 30),
        attendees: [{ email: vega }, { email: 'erin@northwind.test' }],
      },
    })
    expect(roomOf(clash.data, vega)).toMatchObject({
      resource: true,
      responseStatus: 'declined',
      displayName: 'HQ-1-Vega (4) [Whiteboard]',
    })
    const ok = await bob.events.insert({
      calendarId: 'primary',
      requestBody: {
        summary: 'Planning',
        start: at(10),
        end: at(11),
        attendees: [{ email: orion, responseStatus: 'declined' }],
      },
    })
    expect(roomOf(ok.data, orion)).toMatchObject({ resource: true, responseStatus: 'accepted' })
    // Everyone in the domain reads the room's calendar and its free/busy.
    const erin = cal('erin')
    const onRoom = await erin.events.list({
      calendarId: orion,
      timeMin: '2026-03-10T00:00:00Z',
      timeMax: '2026-03-11T00:00:00Z',
    })
    expect(onRoom.data.items!.map((e) => e.summary)).toEqual(['Planning'])
    const fb = await erin.freebusy.query({
      requestBody: {
        timeMin: '2026-03-10T00:00:00Z',
        timeMax: '2026-03-11T00:00:00Z',
        items: [{ id: orion }, { id: vega }],
      },
    })
    expect(fb.data.calendars![orion]!.busy).toEqual([{ start: '2026-03-10T15:00:00Z', end: '2026-03-10T16:00:00Z' }])
    expect(fb.data.calendars![vega]!.busy).toEqual([{ start: '2026-03-10T15:00:00Z', end: '2026-03-10T16:00:00Z' }])
    // A second booking of the same slot is declined; moving the first one away frees the slot for a new request.
    const second = await cal('dan').events.insert({
      calendarId: 'primary',
      requestBody: {
        summary: 'Forecast',
        start: at(10, 15),
        end: at(10, 45),
        attendees: [{ email: orion }],
      },
    })
    expect(roomOf(second.data, orion)?.responseStatus).toBe('declined')
    const moved = await bob.events.patch({
      calendarId: 'primary',
      eventId: ok.data.id!,
      requestBody: {
        start: at(13),
        end: at(14),
      },
    })
    expect(roomOf(moved.data, orion)?.responseStatus).toBe('accepted')
    const third = await cal('dan').events.insert({
      calendarId: 'primary',
      requestBody: {
        summary: 'Forecast again',
        start: at(10, 15),
        end: at(10, 45),
        attendees: [{ email: orion }],
      },
    })
    expect(roomOf(third.data, orion)?.responseStatus).toBe('accepted')
    // Removing the room from the moved event, and cancelling the other, leave the room's calendar empty.
    await bob.events.patch({ calendarId: 'primary', eventId: ok.data.id!, requestBody: { attendees: [] } })
    await cal('dan').events.delete({ calendarId: 'primary', eventId: third.data.id! })
    const after = await erin.freebusy.query({
      requestBody: {
        timeMin: '2026-03-10T00:00:00Z',
        timeMax: '2026-03-11T00:00:00Z',
        items: [{ id: orion }],
      },
    })
    expect(after.data.calendars![orion]!.busy).toEqual([])
  })

  test("a room's calendar is read-only to users and unknown to outsiders' addresses", async () => {
    const orion = await roomEmail('orion')
    expect(
      await status(
        cal('bob').events.insert({
          calendarId: orion,
          requestBody: {
            summary: 'Squat',
            start: at(16),
            end: at(17),
          },
        }),
      ),
    ).toBe(403)
    const got = await cal('bob').calendars.get({ calendarId: orion })
    expect(got.data.summary).toBe('HQ-2-Orion (8) [Video conferencing]')
    expect(
      await status(
        cal('bob').calendars.get({
          calendarId: 'c_000000000000000000@resource.calendar.google.com',
        }),
      ),
    ).toBe(404)
  })
})

describe('datatransfer.transfers.insert with RELEASE_RESOURCES', () => {
  test("moving a leaver's meetings with RELEASE_RESOURCES=TRUE releases the rooms they had booked", async () => {
    const vega = await roomEmail('vega')
    const dir = admin('alice')
    const idOf = async (email: string) => (await dir.users.get({ userKey: email })).data.id!
    const transfer = google.admin({ version: 'datatransfer_v1', auth: server.auth('alice'), rootUrl: server.url })
    const apps = await transfer.applications.list({ customerId: 'my_customer' })
    const calendarApp = apps.data.applications!.find((a) => a.name === 'Calendar')!.id!
    const busyOn10th = async () =>
      (
        await cal('erin').freebusy.query({
          requestBody: {
            timeMin: '2026-03-10T00:00:00Z',
            timeMax: '2026-03-11T00:00:00Z',
            items: [{ id: vega }],
          },
        })
      ).data.calendars![vega]!.busy
    expect(await busyOn10th()).toEqual([{ start: '2026-03-10T15:00:00Z', end: '2026-03-10T16:00:00Z' }])
    await transfer.transfers.insert({
      requestBody: {
        oldOwnerUserId: await idOf('dan@northwind.test'),
        newOwnerUserId: await idOf('erin@northwind.test'),
        applicationDataTransfers: [
          { applicationId: calendarApp, applicationTransferParams: [{ key: 'RELEASE_RESOURCES', value: ['TRUE'] }] },
        ],
      },
    })
    expect(await busyOn10th()).toEqual([])
    const mine = await cal('erin').events.list({ calendarId: 'primary', q: 'Pipeline review' })
    // The demo has a "Pipeline review" of its own; the booked one is on 10 March.
    const review = mine.data.items!.find((e) => e.start?.dateTime?.startsWith('2026-03-10'))!
    expect(review.organizer?.email).toBe('erin@northwind.test')
    expect(review.attendees ?? []).toEqual([])
  })
})
