import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google, type admin_datatransfer_v1, type admin_directory_v1, type drive_v3 } from 'googleapis'
import { demoSeed } from '../../seeds/demo/index.ts'
import { startSdkServer, type SdkServer } from './server.ts'

const DRIVE = '55656082996'
const CALENDAR = '435070579839'
const D = 'northwind.test'

let server: SdkServer
let transfer: admin_datatransfer_v1.Admin
let directory: admin_directory_v1.Admin
const demo = demoSeed(1) as ReturnType<typeof demoSeed> & {
  drive: { files: unknown[] }
  calendar: { events: unknown[] }
}
const at = (day: string, time: string) => ({ dateTime: `2026-${day}T${time}:00`, timeZone: 'America/New_York' })
const seed = () => ({
  ...demo,
  drive: {
    ...demo.drive,
    files: [
      ...demo.drive.files,
      { key: 'plans', name: 'Dan plans', mimeType: 'application/vnd.google-apps.folder', owner: 'dan' },
      { name: 'Private pipeline notes.txt', mimeType: 'text/plain', owner: 'dan', text: 'mine only' },
      { name: 'In a private folder.txt', mimeType: 'text/plain', owner: 'dan', parent: 'plans', text: 'still private' },
      {
        name: 'Shared forecast.txt',
        mimeType: 'text/plain',
        owner: 'dan',
        text: 'for carol',
        permissions: [{ type: 'user', role: 'reader', user: 'carol' }],
      },
      {
        key: 'team',
        name: 'Team folder',
        mimeType: 'application/vnd.google-apps.folder',
        owner: 'dan',
        permissions: [{ type: 'user', role: 'writer', user: 'bob' }],
      },
      { name: 'Inherits sharing.txt', mimeType: 'text/plain', owner: 'dan', parent: 'team', text: 'bob sees it' },
      { name: 'Erin budget.txt', mimeType: 'text/plain', owner: 'erin', text: "not dan's" },
    ],
  },
  calendar: {
    ...demo.calendar,
    events: [
      ...demo.calendar.events,
      {
        calendar: 'dan',
        summary: 'Renewal call',
        start: at('03-05', '10:00'),
        end: at('03-05', '10:30'),
        attendees: [{ user: 'carol' }],
      },
      { calendar: 'dan', summary: 'Focus time', start: at('03-06', '09:00'), end: at('03-06', '11:00') },
      {
        calendar: 'dan',
        summary: 'Private doctor visit',
        start: at('03-06', '12:00'),
        end: at('03-06', '13:00'),
        visibility: 'private',
        attendees: [{ user: 'carol' }],
      },
      {
        calendar: 'dan',
        summary: 'Last week retro',
        start: at('02-20', '10:00'),
        end: at('02-20', '11:00'),
        attendees: [{ user: 'bob' }],
      },
    ],
  },
})

beforeAll(async () => {
  server = await startSdkServer(seed())
  transfer = google.admin({ version: 'datatransfer_v1', auth: server.auth('alice'), rootUrl: server.url })
  directory = google.admin({ version: 'directory_v1', auth: server.auth('alice'), rootUrl: server.url })
})
afterAll(async () => {
  await server.close()
})

const status = (p: Promise<{ status: number }>) =>
  p.then(
    (r) => r.status,
    (e) => e.response.status as number,
  )
const idOf = async (email: string) => (await directory.users.get({ userKey: email })).data.id!
const drive = (user: string): drive_v3.Drive =>
  google.drive({ version: 'v3', auth: server.auth(user), rootUrl: server.url })
const ownedBy = async (user: string, email: string) =>
  (await drive(user).files.list({ q: `'${email}' in owners`, fields: 'files(name,parents)', pageSize: 1000 })).data
    .files!

describe('datatransfer.applications.list, datatransfer.applications.get', () => {
  test('lists Drive and Calendar with their transfer parameters; non-admins get 403; unknown ids 404', async () => {
    const list = await transfer.applications.list({ customerId: 'my_customer' })
    expect(list.data.kind).toBe('admin#datatransfer#applicationsList')
    expect(list.data.applications?.map((a) => [a.id, a.name])).toEqual([
      [CALENDAR, 'Calendar'],
      [DRIVE, 'Drive and Docs'],
    ])
    const one = await transfer.applications.get({ applicationId: DRIVE })
    expect(one.data.transferParams).toEqual([{ key: 'PRIVACY_LEVEL', value: ['PRIVATE', 'SHARED'] }])
    const bob = google.admin({ version: 'datatransfer_v1', auth: server.auth('bob'), rootUrl: server.url })
    expect(await status(bob.applications.list({}))).toBe(403)
    expect(await status(transfer.applications.get({ applicationId: '1' }))).toBe(404)
  })
})

describe('datatransfer.transfers.insert', () => {
  test('moves shared files by default, private ones when asked, into a folder named after the old owner', async () => {
    const [dan, erin] = [await idOf(`dan@${D}`), await idOf(`erin@${D}`)]
    const before = (await ownedBy('dan', `dan@${D}`)).map((f) => f.name).sort()
    expect(before).toEqual(
      expect.arrayContaining(['Private pipeline notes.txt', 'Shared forecast.txt', 'Inherits sharing.txt']),
    )
    const first = await transfer.transfers.insert({
      requestBody: { oldOwnerUserId: dan, newOwnerUserId: erin, applicationDataTransfers: [{ applicationId: DRIVE }] },
    })
    expect(first.data).toMatchObject({
      kind: 'admin#datatransfer#DataTransfer',
      oldOwnerUserId: dan,
      newOwnerUserId: erin,
      overallTransferStatusCode: 'completed',
    })
    const left = (await ownedBy('dan', `dan@${D}`)).map((f) => f.name)
    // Shared directly, or through a shared folder, moved; private files and folders stayed.
    expect(left).toEqual(expect.arrayContaining(['Private pipeline notes.txt', 'In a private folder.txt', 'Dan plans']))
    expect(left).not.toContain('Shared forecast.txt')
    expect(left).not.toContain('Inherits sharing.txt')
    expect(left).not.toContain('Team folder')
    const erinOwns = await ownedBy('erin', `erin@${D}`)
    const folder = erinOwns.find((f) => f.name === `dan@${D}`)!
    expect(folder).toBeDefined()
    const forecast = erinOwns.find((f) => f.name === 'Shared forecast.txt')!
    expect(forecast.parents).toEqual([(await drive('erin').files.list({ q: `name = 'dan@${D}'` })).data.files![0]!.id])
    // The folder kept its child; the old owner keeps edit access.
    expect(erinOwns.find((f) => f.name === 'Inherits sharing.txt')?.parents).not.toContain(folder.parents?.[0])
    const perms = await drive('erin').permissions.list({
      fileId: (await drive('erin').files.list({ q: "name = 'Shared forecast.txt'" })).data.files![0]!.id!,
      fields: 'permissions(emailAddress,role)',
    })
    expect(perms.data.permissions).toEqual(
      expect.arrayContaining([
        { emailAddress: `dan@${D}`, role: 'writer' },
        { emailAddress: `erin@${D}`, role: 'owner' },
      ]),
    )
    await transfer.transfers.insert({
      requestBody: {
        oldOwnerUserId: dan,
        newOwnerUserId: erin,
        applicationDataTransfers: [
          { applicationId: DRIVE, applicationTransferParams: [{ key: 'PRIVACY_LEVEL', value: ['PRIVATE', 'SHARED'] }] },
        ],
      },
    })
    expect(await ownedBy('dan', `dan@${D}`)).toEqual([])
    expect((await ownedBy('erin', `erin@${D}`)).map((f) => f.name)).toEqual(expect.arrayContaining(before))
    expect((await ownedBy('erin', `erin@${D}`)).map((f) => f.name)).toContain('Erin budget.txt')
  })

  test('moves future, non-private meetings with guests that the old owner organises', async () => {
    const [dan, carol] = [await idOf(`dan@${D}`), await idOf(`carol@${D}`)]
    const cal = (user: string) => google.calendar({ version: 'v3', auth: server.auth(user), rootUrl: server.url })
    const organisedBy = async (user: string, email: string) =>
      (
        (
          await cal(user).events.list({
            calendarId: 'primary',
            singleEvents: true,
            maxResults: 2500,
            timeMin: '2000-01-01T00:00:00Z',
          })
        ).data.items ?? []
      )
        .filter((e) => e.organizer?.email === email)
        .map((e) => e.summary)
    const danBefore = await organisedBy('dan', `dan@${D}`)
    expect(danBefore).toEqual(
      expect.arrayContaining(['Renewal call', 'Focus time', 'Private doctor visit', 'Last week retro']),
    )
    await transfer.transfers.insert({
      requestBody: {
        oldOwnerUserId: dan,
        newOwnerUserId: carol,
        applicationDataTransfers: [
          { applicationId: CALENDAR, applicationTransferParams: [{ key: 'RELEASE_RESOURCES', value: ['TRUE'] }] },
        ],
      },
    })
    const danAfter = await organisedBy('dan', `dan@${D}`)
    expect(danAfter).toEqual(expect.arrayContaining(['Focus time', 'Private doctor visit', 'Last week retro']))
    expect(danAfter).not.toContain('Renewal call')
    expect(await organisedBy('carol', `carol@${D}`)).toContain('Renewal call')
  })

  test('refuses bad requests with 400, non-admins with 403', async () => {
    const [dan, erin] = [await idOf(`dan@${D}`), await idOf(`erin@${D}`)]
    const bad = [
      { oldOwnerUserId: dan, newOwnerUserId: dan, applicationDataTransfers: [{ applicationId: DRIVE }] },
      { oldOwnerUserId: dan, newOwnerUserId: erin, applicationDataTransfers: [] },
      { oldOwnerUserId: dan, newOwnerUserId: erin, applicationDataTransfers: [{ applicationId: '123' }] },
      {
        oldOwnerUserId: dan,
        newOwnerUserId: erin,
        applicationDataTransfers: [
          { applicationId: DRIVE, applicationTransferParams: [{ key: 'PRIVACY_LEVEL', value: ['EVERYTHING'] }] },
        ],
      },
      { oldOwnerUserId: '999', newOwnerUserId: erin, applicationDataTransfers: [{ applicationId: DRIVE }] },
      { newOwnerUserId: erin, applicationDataTransfers: [{ applicationId: DRIVE }] },
    ]
    for (const requestBody of bad) expect(await status(transfer.transfers.insert({ requestBody }))).toBe(400)
    const bob = google.admin({ version: 'datatransfer_v1', auth: server.auth('bob'), rootUrl: server.url })
    expect(await status(bob.transfers.insert({ requestBody: bad[0] }))).toBe(403)
  })
})

describe('datatransfer.transfers.get, datatransfer.transfers.list', () => {
  test('reads transfers back, filtered by owner and status, with paging', async () => {
    const [dan, erin, carol] = [await idOf(`dan@${D}`), await idOf(`erin@${D}`), await idOf(`carol@${D}`)]
    const all = await transfer.transfers.list({ customerId: 'my_customer' })
    expect(all.data.kind).toBe('admin#datatransfer#dataTransfersList')
    expect(all.data.dataTransfers?.length).toBe(3)
    const toErin = await transfer.transfers.list({ newOwnerUserId: erin })
    expect(toErin.data.dataTransfers?.map((t) => t.newOwnerUserId)).toEqual([erin, erin])
    expect(
      (await transfer.transfers.list({ oldOwnerUserId: dan, status: 'completed' })).data.dataTransfers,
    ).toHaveLength(3)
    expect(
      (await transfer.transfers.list({ newOwnerUserId: carol })).data.dataTransfers?.[0]?.applicationDataTransfers,
    ).toEqual([
      {
        applicationId: CALENDAR,
        applicationTransferParams: [{ key: 'RELEASE_RESOURCES', value: ['TRUE'] }],
        applicationTransferStatus: 'completed',
      },
    ])
    const page = await transfer.transfers.list({ maxResults: 2 })
    expect(page.data.dataTransfers).toHaveLength(2)
    const rest = await transfer.transfers.list({ maxResults: 2, pageToken: page.data.nextPageToken! })
    expect(rest.data.dataTransfers).toHaveLength(1)
    const one = await transfer.transfers.get({ dataTransferId: rest.data.dataTransfers![0]!.id! })
    expect(one.data.id).toBe(rest.data.dataTransfers![0]!.id)
    expect(await status(transfer.transfers.get({ dataTransferId: 'nope' }))).toBe(404)
  })
})
