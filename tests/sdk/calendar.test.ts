import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { google, type calendar_v3 } from 'googleapis'
import { startSdkServer, type SdkServer } from './server.ts'
import { calSeed } from '../calendar/fixtures.ts'
import { validateAgainst } from '../support/discovery.ts'

const NY = 'America/New_York'
let server: SdkServer
let ann: calendar_v3.Calendar
let ben: calendar_v3.Calendar
let cy: calendar_v3.Calendar
beforeAll(async () => {
  server = await startSdkServer(calSeed)
  const client = (u: string) => google.calendar({ version: 'v3', auth: server.auth(u), rootUrl: server.url })
  ann = client('ann')
  ben = client('ben')
  cy = client('cy')
})
afterAll(async () => server.close())

const valid = (schema: string, v: unknown) => expect(validateAgainst('calendar', schema, v)).toEqual([])

describe('calendar workflows through googleapis', () => {
  test('a weekly meeting in New York time keeps 09:00 local across the DST change; one instance moves, another is cancelled', async () => {
    const made = await ann.events.insert({
      calendarId: 'primary',
      requestBody: {
        summary: 'Planning',
        start: { dateTime: '2026-03-02T09:00:00', timeZone: NY },
        end: { dateTime: '2026-03-02T09:30:00', timeZone: NY },
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
      },
    })
    valid('Event', made.data)
    const list = await ann.events.list({
      calendarId: 'primary',
      singleEvents: true,
      orderBy: 'startTime',
      q: 'Planning',
    })
    valid('Events', list.data)
    expect(list.data.items!.map((e) => e.start!.dateTime)).toEqual([
      '2026-03-02T09:00:00-05:00',
      '2026-03-09T09:00:00-04:00',
      '2026-03-16T09:00:00-04:00',
      '2026-03-23T09:00:00-04:00',
    ])
    expect(list.data.items!.map((e) => new Date(e.start!.dateTime!).toISOString().slice(11, 16))).toEqual([
      '14:00',
      '13:00',
      '13:00',
      '13:00',
    ])

    const inst = await ann.events.instances({ calendarId: 'primary', eventId: made.data.id! })
    const [, second, third] = inst.data.items!
    await ann.events.patch({
      calendarId: 'primary',
      eventId: second!.id!,
      requestBody: {
        start: { dateTime: '2026-03-10T11:00:00', timeZone: NY },
        end: { dateTime: '2026-03-10T11:30:00', timeZone: NY },
      },
    })
    await ann.events.delete({ calendarId: 'primary', eventId: third!.id! })
    const after = await ann.events.instances({ calendarId: 'primary', eventId: made.data.id! })
    expect(after.data.items!.map((e) => e.start!.dateTime)).toEqual([
      '2026-03-02T09:00:00-05:00',
      '2026-03-10T11:00:00-04:00',
      '2026-03-23T09:00:00-04:00',
    ])
    expect(after.data.items![1]).toMatchObject({
      recurringEventId: made.data.id,
      originalStartTime: { dateTime: '2026-03-09T09:00:00-04:00', timeZone: NY },
    })
  })

  test('an invited colleague sees the event, accepts, and the organizer sees the answer; the invitation reached Gmail', async () => {
    const made = await ann.events.insert({
      calendarId: 'primary',
      sendUpdates: 'all',
      conferenceDataVersion: 1,
      requestBody: {
        summary: 'Roadmap',
        attendees: [{ email: 'ben@example.com' }],
        start: { dateTime: '2026-03-05T15:00:00Z' },
        end: { dateTime: '2026-03-05T16:00:00Z' },
        conferenceData: { createRequest: { requestId: 'rm-1', conferenceSolutionKey: { type: 'hangoutsMeet' } } },
      },
    })
    expect(made.data.hangoutLink).toMatch(/^https:\/\/meet\.google\.com\//)
    const copy = await ben.events.get({ calendarId: 'primary', eventId: made.data.id! })
    expect(copy.data.attendees).toEqual([{ email: 'ben@example.com', responseStatus: 'needsAction', self: true }])
    await ben.events.patch({
      calendarId: 'primary',
      eventId: made.data.id!,
      requestBody: { attendees: [{ email: 'ben@example.com', responseStatus: 'accepted' }] },
    })
    const org = await ann.events.get({ calendarId: 'primary', eventId: made.data.id! })
    expect(org.data.attendees).toEqual([{ email: 'ben@example.com', responseStatus: 'accepted' }])
    const gmail = google.gmail({ version: 'v1', auth: server.auth('ben'), rootUrl: server.url })
    const inbox = await gmail.users.messages.list({ userId: 'me', q: 'subject:"Invitation: Roadmap"' })
    expect(inbox.data.messages).toHaveLength(1)
  })

  test("events.import adds a private copy to one calendar: colleagues' calendars and mail stay untouched", async () => {
    const list = (api: calendar_v3.Calendar) =>
      api.events.list({ calendarId: 'primary', iCalUID: 'forged-1@elsewhere.test' }).then((r) => r.data.items ?? [])
    const imported = await ann.events.import({
      calendarId: 'primary',
      requestBody: {
        iCalUID: 'forged-1@elsewhere.test',
        summary: 'Budget sign-off',
        organizer: { email: 'cy@example.com' },
        attendees: [
          { email: 'ann@example.com', responseStatus: 'accepted' },
          { email: 'ben@example.com', responseStatus: 'accepted' },
        ],
        start: { dateTime: '2026-03-06T15:00:00Z' },
        end: { dateTime: '2026-03-06T16:00:00Z' },
      },
    })
    expect(imported.data.organizer).toMatchObject({ email: 'cy@example.com' })
    expect(await list(ann)).toHaveLength(1)
    // Neither the attendee nor the named organizer gets the event.
    expect(await list(ben)).toEqual([])
    expect(await list(cy)).toEqual([])
    // A later edit through the copy stays on it.
    await ann.events.patch({
      calendarId: 'primary',
      eventId: imported.data.id!,
      requestBody: { attendees: [{ email: 'ann@example.com', responseStatus: 'declined' }] },
    })
    expect(await list(ben)).toEqual([])
    const gmail = google.gmail({ version: 'v1', auth: server.auth('ben'), rootUrl: server.url })
    const inbox = await gmail.users.messages.list({ userId: 'me', q: 'subject:"Budget sign-off"' })
    expect(inbox.data.messages ?? []).toEqual([])
  })

  test('incremental sync returns the changes since the last token and 410 for a bad one', async () => {
    let page = await cy.events.list({ calendarId: 'primary' })
    const token = page.data.nextSyncToken!
    const e = await cy.events.insert({
      calendarId: 'primary',
      requestBody: { summary: 'Dentist', start: { date: '2026-03-20' }, end: { date: '2026-03-21' } },
    })
    await cy.events.patch({ calendarId: 'primary', eventId: e.data.id!, requestBody: { summary: 'Dentist (moved)' } })
    await cy.events.delete({ calendarId: 'primary', eventId: 'lunc0000001' })
    page = await cy.events.list({ calendarId: 'primary', syncToken: token })
    expect(page.data.items!.map((x) => [x.id, x.status, x.summary ?? null])).toEqual([
      [e.data.id, 'confirmed', 'Dentist (moved)'],
      ['lunc0000001', 'cancelled', null],
    ])
    await expect(cy.events.list({ calendarId: 'primary', syncToken: 'not-a-token' })).rejects.toMatchObject({
      code: 410,
    })
  })

  test('sharing a calendar lets the colleague read it, and nothing more', async () => {
    const made = await ann.calendars.insert({ requestBody: { summary: 'Launch', timeZone: NY } })
    const id = made.data.id!
    await ann.events.insert({
      calendarId: id,
      requestBody: { summary: 'Launch day', start: { date: '2026-04-01' }, end: { date: '2026-04-02' } },
    })
    await expect(cy.events.list({ calendarId: id })).rejects.toMatchObject({ code: 404 })
    const rule = await ann.acl.insert({
      calendarId: id,
      requestBody: { role: 'reader', scope: { type: 'user', value: 'cy@example.com' } },
    })
    valid('AclRule', rule.data)
    const list = await cy.calendarList.list()
    expect(list.data.items!.find((e) => e.id === id)?.accessRole).toBe('reader')
    const events = await cy.events.list({ calendarId: id })
    expect(events.data.items!.map((e) => e.summary)).toEqual(['Launch day'])
    await expect(
      cy.events.insert({ calendarId: id, requestBody: { start: { date: '2026-04-03' }, end: { date: '2026-04-04' } } }),
    ).rejects.toMatchObject({ code: 403 })
    const fb = await cy.freebusy.query({
      requestBody: { timeMin: '2026-04-01T00:00:00Z', timeMax: '2026-04-03T00:00:00Z', items: [{ id }] },
    })
    expect(fb.data.calendars![id]!.busy).toEqual([{ start: '2026-04-01T04:00:00Z', end: '2026-04-02T04:00:00Z' }])
  })

  test('settings, colors, quickAdd and watch/stop through the client', async () => {
    expect((await ann.settings.get({ setting: 'timezone' })).data.value).toBe(NY)
    expect(Object.keys((await ann.colors.get()).data.event!)).toHaveLength(11)
    const q = await ann.events.quickAdd({ calendarId: 'primary', text: 'Standup every weekday 9:30' })
    expect(q.data.recurrence?.[0]).toMatch(/^RRULE:FREQ=WEEKLY;.*BYDAY=MO,TU,WE,TH,FR/)
    const ch = await ann.events.watch({
      calendarId: 'primary',
      requestBody: { id: 'sdk-ch', type: 'web_hook', address: 'https://example.com/hook' },
    })
    const stopped = await ann.channels.stop({ requestBody: { id: ch.data.id!, resourceId: ch.data.resourceId! } })
    expect(stopped.status).toBe(204)
  })
})
