import { describe, expect, test } from 'vitest'
import { cal, timed } from './helpers.ts'

type Ev = { id: string; summary?: string; status: string; start: { dateTime?: string; date?: string } }
const ev = (summary: string, start: string, end: string) => ({ calendar: 'ann', summary, ...timed(start, end, 'UTC') })

// The window is 2026-06-01 .. 2026-06-08 (UTC). Each one-off event sits on one side of a boundary.
const seed = {
  name: 'calendar-window',
  now: '2026-05-01T00:00:00Z',
  users: [{ id: 'ann', email: 'ann@example.com', name: 'Ann' }],
  calendar: {
    events: [
      ev('inside', '2026-06-02T09:00:00', '2026-06-02T10:00:00'),
      ev('spans min', '2026-05-31T23:00:00', '2026-06-01T01:00:00'),
      ev('ends at min', '2026-05-31T22:00:00', '2026-06-01T00:00:00'),
      ev('zero-length at min', '2026-06-01T00:00:00', '2026-06-01T00:00:00'),
      ev('zero-length before', '2026-05-31T23:00:00', '2026-05-31T23:00:00'),
      ev('starts at max', '2026-06-08T00:00:00', '2026-06-08T01:00:00'),
      ev('covers the window', '2026-05-01T00:00:00', '2026-07-01T00:00:00'),
      ev('cancelled later', '2026-06-03T12:00:00', '2026-06-03T13:00:00'),
      ev('long before', '2026-01-10T09:00:00', '2026-01-10T10:00:00'),
      ev('long after', '2026-12-10T09:00:00', '2026-12-10T10:00:00'),
      { calendar: 'ann', summary: 'all day', start: { date: '2026-06-05' }, end: { date: '2026-06-06' } },
      {
        calendar: 'ann',
        summary: 'weekly',
        recurrence: ['RRULE:FREQ=WEEKLY'],
        ...timed('2026-05-04T08:00:00', '2026-05-04T08:30:00', 'UTC'),
      },
    ],
  },
}
const W = 'timeMin=2026-06-01T00:00:00Z&timeMax=2026-06-08T00:00:00Z'

describe('calendar.events.list', () => {
  test('singleEvents in a window lists what overlaps it, moved and cancelled instances included, in either order', async () => {
    const { ok, call } = cal(seed)
    const list = async (extra = '') =>
      (await ok('Events', 'GET', `/calendars/primary/events?singleEvents=true&${W}${extra}`)).items as Ev[]
    const all = (await ok('Events', 'GET', '/calendars/primary/events?singleEvents=true&timeMax=2026-06-30T00:00:00Z'))
      .items as Ev[]
    const weekly = all.filter((e) => e.summary === 'weekly')
    const inWindow = weekly.find((e) => e.start.dateTime === '2026-06-01T08:00:00Z')!
    const earlier = weekly.find((e) => e.start.dateTime === '2026-05-25T08:00:00Z')!
    // Move the 1 June occurrence out of the window and the 25 May one into it; cancel a one-off.
    await ok(null, 'PATCH', `/calendars/primary/events/${inWindow.id}`, {
      json: timed('2026-06-20T08:00:00', '2026-06-20T08:30:00', 'UTC'),
    })
    await ok(null, 'PATCH', `/calendars/primary/events/${earlier.id}`, {
      json: timed('2026-06-04T08:00:00', '2026-06-04T08:30:00', 'UTC'),
    })
    const cancelled = all.find((e) => e.summary === 'cancelled later')!
    expect((await call('DELETE', `/calendars/primary/events/${cancelled.id}`)).status).toBe(204)

    const byStart = await list('&orderBy=startTime')
    expect(byStart.map((e) => `${e.summary}@${e.start.dateTime ?? e.start.date}`)).toEqual([
      'covers the window@2026-05-01T00:00:00Z',
      'spans min@2026-05-31T23:00:00Z',
      'zero-length at min@2026-06-01T00:00:00Z',
      'inside@2026-06-02T09:00:00Z',
      'weekly@2026-06-04T08:00:00Z',
      'all day@2026-06-05',
    ])
    expect((await list()).map((e) => e.id)).toEqual(byStart.map((e) => e.id))
    const withDeleted = await list('&orderBy=startTime&showDeleted=true')
    expect(withDeleted.filter((e) => e.status === 'cancelled').map((e) => e.id)).toEqual([cancelled.id])
    // A small page size walks the same items.
    const first = await ok(
      'Events',
      'GET',
      `/calendars/primary/events?singleEvents=true&orderBy=startTime&${W}&maxResults=4`,
    )
    const rest = await ok(
      'Events',
      'GET',
      `/calendars/primary/events?singleEvents=true&orderBy=startTime&${W}&maxResults=4&pageToken=${first.nextPageToken}`,
    )
    expect([...first.items, ...rest.items].map((e: Ev) => e.id)).toEqual(byStart.map((e) => e.id))
  })

  test('singleEvents in a window lists an event lengthened after seeding to end long after the window', async () => {
    const { ok } = cal(seed)
    const all = (await ok('Events', 'GET', '/calendars/primary/events?singleEvents=true')).items as Ev[]
    const early = all.find((e) => e.summary === 'long before')!
    // From 10 January to 1 September: longer than any seeded event, ending far past the window's end.
    const end = { dateTime: '2026-09-01T00:00:00Z' }
    await ok(null, 'PATCH', `/calendars/primary/events/${early.id}`, { json: { end } })
    const path = `/calendars/primary/events?singleEvents=true&orderBy=startTime&${W}`
    const items = (await ok('Events', 'GET', path)).items as Ev[]
    expect(items.map((e) => e.summary)).toEqual([
      'long before',
      'covers the window',
      'spans min',
      'zero-length at min',
      'weekly',
      'inside',
      'cancelled later',
      'all day',
    ])
  })
})
