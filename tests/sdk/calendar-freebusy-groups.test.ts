import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google } from 'googleapis'
import { startSdkServer, type SdkServer } from './server.ts'
import { calSeed } from '../calendar/fixtures.ts'
import { validateAgainst } from '../support/discovery.ts'

/** calSeed with Ann as the workspace admin, so she can build a group through the Directory API. */
const seed = { ...calSeed, users: calSeed.users.map((u) => (u.id === 'ann' ? { ...u, admin: true } : u)) }

let server: SdkServer
beforeAll(async () => {
  server = await startSdkServer(seed)
})
afterAll(async () => server.close())

describe('calendar.freebusy.query', () => {
  test('a group made through the Directory API is expanded into its members’ calendars', async () => {
    const admin = google.admin({ version: 'directory_v1', auth: server.auth('ann'), rootUrl: server.url })
    const cy = google.calendar({ version: 'v3', auth: server.auth('cy'), rootUrl: server.url })
    await admin.groups.insert({ requestBody: { email: 'lunch@example.com', name: 'Lunch' } })
    await admin.members.insert({ groupKey: 'lunch@example.com', requestBody: { email: 'ann@example.com' } })
    // A member who receives no mail is still a member whose calendar counts.
    await admin.members.insert({
      groupKey: 'lunch@example.com',
      requestBody: { email: 'ben@example.com', delivery_settings: 'NONE' },
    })
    const day = { timeMin: '2026-03-04T00:00:00Z', timeMax: '2026-03-05T00:00:00Z' }
    const fb = await cy.freebusy.query({ requestBody: { ...day, items: [{ id: 'lunch@example.com' }] } })
    expect(validateAgainst('calendar', 'FreeBusyResponse', fb.data)).toEqual([])
    expect(fb.data.groups).toEqual({ 'lunch@example.com': { calendars: ['ann@example.com', 'ben@example.com'] } })
    expect(fb.data.calendars).toEqual({
      'ann@example.com': { busy: [{ start: '2026-03-04T17:00:00Z', end: '2026-03-04T18:00:00Z' }] },
      'ben@example.com': { busy: [] },
    })
    const small = await cy.freebusy.query({
      requestBody: { ...day, groupExpansionMax: 1, items: [{ id: 'lunch@example.com' }] },
    })
    expect(small.data.groups!['lunch@example.com']!.errors).toEqual([{ domain: 'global', reason: 'groupTooBig' }])
    expect(small.data.calendars).toEqual({})
  })
})
