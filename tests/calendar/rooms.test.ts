import { describe, expect, test } from 'vitest'
import { cal, timed } from './helpers.ts'
import { calSeed, enc } from './fixtures.ts'
import { worldState } from '../../server/state.ts'

// Rooms in Calendar (docs/decisions/0250): recurring bookings, instance moves, the calendar list, the dump, seeds.

const ROOM = 'c_123456789012345678@resource.calendar.google.com'
const seed = {
  ...calSeed,
  users: [...calSeed.users, { id: 'out', email: 'out@elsewhere.test', name: 'Out Sider', timeZone: 'UTC' }],
  calendar: {
    ...calSeed.calendar,
    buildings: [{ id: 'hq', name: 'HQ', floors: ['3'] }],
    features: ['Projector'],
    rooms: [
      {
        id: 'atlas',
        name: 'Atlas',
        email: ROOM,
        building: 'hq',
        floor: '3',
        capacity: 6,
        features: ['Projector'],
      },
    ],
    // Cy holds Atlas on Tuesday 17 March, 10:00–11:00 New York time.
    events: [
      ...calSeed.calendar.events,
      {
        calendar: 'cy',
        summary: 'Board prep',
        rooms: ['atlas'],
        start: { dateTime: '2026-03-17T10:00:00-04:00' },
        end: { dateTime: '2026-03-17T11:00:00-04:00' },
      },
    ],
  },
}
/** A weekly half hour on Tuesdays from 3 March, New York time (DST starts on 8 March). */
const weekly = (count: number, hour: string) => ({
  summary: 'Standing review',
  recurrence: [`RRULE:FREQ=WEEKLY;COUNT=${count}`],
  ...timed(`2026-03-03T${hour}:00:00`, `2026-03-03T${hour}:30:00`, 'America/New_York'),
})
const roomAnswer = (e: { attendees?: { email: string; responseStatus: string; resource?: boolean }[] }) =>
  e.attendees?.find((a) => a.email === ROOM)

describe('calendar.events.insert with a room (recurring)', () => {
  test('a series that hits a booking is declined whole; one that misses every booking is accepted', async () => {
    const { ok } = cal(seed)
    // Tuesdays at 10:00 for three weeks reach 17 March, which Cy holds.
    const clash = await ok('Event', 'POST', '/calendars/primary/events', {
      json: { ...weekly(3, '10'), attendees: [{ email: ROOM }] },
    })
    expect(roomAnswer(clash)).toMatchObject({ responseStatus: 'declined', resource: true })
    const early = await ok('Event', 'POST', '/calendars/primary/events', {
      json: { ...weekly(2, '10'), attendees: [{ email: ROOM }] },
    })
    expect(roomAnswer(early)?.responseStatus).toBe('accepted')
    const fb = await ok('FreeBusyResponse', 'POST', '/freeBusy', {
      as: 'ben',
      json: {
        timeMin: '2026-03-01T00:00:00Z',
        timeMax: '2026-03-31T00:00:00Z',
        items: [{ id: ROOM }],
      },
    })
    expect(fb.calendars[ROOM].busy).toEqual([
      { start: '2026-03-03T15:00:00Z', end: '2026-03-03T15:30:00Z' },
      { start: '2026-03-10T14:00:00Z', end: '2026-03-10T14:30:00Z' },
      { start: '2026-03-17T14:00:00Z', end: '2026-03-17T15:00:00Z' },
    ])
  })

  test('moving one instance onto a booking declines it there and keeps the series booked', async () => {
    const { ok } = cal(seed)
    const series = await ok('Event', 'POST', '/calendars/primary/events', {
      json: { ...weekly(2, '09'), attendees: [{ email: ROOM }, { email: 'ben@example.com' }] },
    })
    expect(roomAnswer(series)?.responseStatus).toBe('accepted')
    const inst = await ok('Events', 'GET', `/calendars/primary/events/${series.id}/instances`)
    const second = inst.items[1]
    const moved = await ok('Event', 'PATCH', `/calendars/primary/events/${enc(second.id)}`, {
      json: timed('2026-03-17T10:30:00-04:00', '2026-03-17T11:00:00-04:00'),
    })
    expect(roomAnswer(moved)?.responseStatus).toBe('declined')
    const first = await ok('Event', 'GET', `/calendars/primary/events/${enc(inst.items[0].id)}`)
    expect(roomAnswer(first)?.responseStatus).toBe('accepted')
  })
})

describe('calendar.calendarList.insert, calendar.events.list on a room', () => {
  test('a colleague subscribes to a room and lists its bookings; outsiders cannot see it', async () => {
    const { ok, fails, call } = cal(seed)
    const entry = await ok('CalendarListEntry', 'POST', '/users/me/calendarList', { as: 'ben', json: { id: ROOM } })
    expect(entry).toMatchObject({ id: ROOM, summary: 'HQ-3-Atlas (6) [Projector]', accessRole: 'reader' })
    const list = await ok('Events', 'GET', `/calendars/${enc(ROOM)}/events`, { as: 'ben' })
    expect(list.items.map((e: { summary: string }) => e.summary)).toEqual(['Board prep'])
    await fails(404, 'notFound', 'GET', `/calendars/${enc(ROOM)}/events`, { as: 'out' })
    expect((await call('DELETE', `/calendars/${enc(ROOM)}`, { as: 'ben' })).status).toBe(403)
  })

  test('the dump marks rooms among attendees and holds the booking under the room', async () => {
    const { h } = cal(seed)
    const events = Object.values(worldState(h.entry.world).services.calendar!.entities.events!) as {
      calendarId: string
      summary: string
      attendees: { email: string; resource?: boolean }[]
    }[]
    const onRoom = events.filter((e) => e.calendarId === ROOM)
    expect(onRoom.map((e) => e.summary)).toEqual(['Board prep'])
    expect(onRoom[0]!.attendees).toEqual([
      expect.objectContaining({ email: ROOM, resource: true, responseStatus: 'accepted' }),
    ])
  })
})

describe('calendar seed rooms', () => {
  test('a room in an unknown building, or an unknown room on an event, is a seed error naming the field', () => {
    const bad = { ...seed, calendar: { ...seed.calendar, rooms: [{ id: 'x', name: 'X', building: 'nowhere' }] } }
    expect(() => cal(bad)).toThrow(/calendar\.rooms\[0\]\.building/)
    const booking = { ...seed.calendar.events.at(-1)!, rooms: ['zzz'] }
    const noRoom = { ...seed, calendar: { ...seed.calendar, events: [booking] } }
    expect(() => cal(noRoom)).toThrow(/calendar\.events\[0\]\.rooms\[0\]/)
  })
})
