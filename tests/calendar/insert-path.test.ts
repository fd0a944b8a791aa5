import { describe, expect, test } from 'vitest'
import { cal, timed } from './helpers.ts'
import { officeSeed, ROOM } from './fixtures.ts'
import { Event } from '../../envs/calendar/api/schemas.gen.ts'
import { preferSyncParse } from '../../envs/core/sync-parse.ts'
import { findEvent, propagate } from '../../envs/calendar/store/events.ts'
import { worldState } from '../../server/state.ts'

// The Calendar insert's path (docs/decisions/0337): event bodies of plain nested objects are answered without zod,
// and an insert under an id just taken from the counter reads no copies.

const seed = {
  ...officeSeed,
  identity: {
    groups: [
      {
        email: 'crew@example.com',
        name: 'Crew',
        members: [{ email: 'ben@example.com' }, { email: 'cy@example.com' }],
      },
    ],
  },
}

describe('Event bodies through the synchronous validator', () => {
  test('give what zod gives (data, key order, issues) for bodies of every kind', async () => {
    const reference = Event.safeParse.bind(Event)
    preferSyncParse(Event)
    const t = (dateTime: string, timeZone?: string) => ({ dateTime, ...(timeZone ? { timeZone } : {}) })
    const bodies: unknown[] = [
      { summary: 'timed', start: t('2026-03-05T10:00:00Z'), end: t('2026-03-05T11:00:00Z') },
      { end: t('2026-03-05T11:00:00', 'Asia/Tokyo'), start: t('2026-03-05T10:00:00', 'Asia/Tokyo'), summary: 'tz' },
      { summary: 'all day', start: { date: '2026-03-05' }, end: { date: '2026-03-06' }, transparency: 'transparent' },
      {
        summary: 'series',
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
        ...timed('2026-03-05T10:00:00', '2026-03-05T11:00:00', 'Europe/Paris'),
      },
      { attendees: [{ email: 'ben@example.com', optional: true }], reminders: { useDefault: false } },
      { conferenceData: { createRequest: { requestId: 'r', conferenceSolutionKey: { type: 'hangoutsMeet' } } } },
      { source: { title: 't', url: 'u' }, organizer: { email: 'o@example.com' }, creator: {}, guestsCanModify: true },
      { gadget: { title: 'g', width: 3 }, extendedProperties: { private: { a: '1' } } },
      { reminders: { useDefault: true } },
      { id: 'abcdefghij', colorId: '5', status: 'tentative', visibility: 'private', description: 'd', location: 'l' },
      {},
      { summary: 7 },
      { start: { dateTime: 5 } },
      { start: { dateTime: 'x', other: 1 } },
      { start: null },
      { start: 'x' },
      { start: [] },
      { source: { title: true } },
      { reminders: { useDefault: 'yes' } },
      { unknown: 1 },
      { conferenceData: { createRequest: { conferenceSolutionKey: { type: 3 } } } },
      { sequence: 1.5 },
      [],
      'text',
      null,
      JSON.parse('{"summary":"p","__proto__":{"x":1}}'),
      JSON.parse('{"start":{"__proto__":{"dateTime":"x"}}}'),
    ]
    for (const body of bodies) {
      const [got, want] = [await Event.safeParseAsync(body), reference(body)]
      expect(got.success, JSON.stringify(body)).toBe(want.success)
      expect(JSON.stringify(got.data), JSON.stringify(body)).toBe(JSON.stringify(want.data))
      expect(got.error?.issues).toEqual(want.error?.issues)
    }
  })
})

describe('calendar.events.insert under a minted id', () => {
  test('leaves nothing for a full propagation to do: the copies it did not read do not exist', async () => {
    const { h, ok } = cal(seed)
    const db = h.entry.world.db
    const inserted: { calendar: string; id: string }[] = []
    const insert = async (calendar: string, json: Record<string, unknown>, query = '') => {
      const body = await ok('Event', 'POST', `/calendars/${calendar}/events${query}`, { json })
      inserted.push({ calendar: body.organizer.email, id: body.id })
    }
    await insert('primary', { summary: 'alone', ...timed('2026-03-05T10:00:00Z', '2026-03-05T11:00:00Z') })
    await insert(
      'primary',
      {
        summary: 'guests',
        attendees: [{ email: 'ben@example.com' }, { email: 'x@out.test' }],
        ...timed('2026-03-05T12:00:00Z', '2026-03-05T13:00:00Z'),
      },
      '?sendUpdates=all',
    )
    await insert('primary', {
      summary: 'declined',
      attendees: [{ email: 'cy@example.com', responseStatus: 'declined' }],
      ...timed('2026-03-06T12:00:00Z', '2026-03-06T13:00:00Z'),
    })
    await insert('primary', {
      summary: 'group and room',
      attendees: [{ email: 'crew@example.com' }, { email: ROOM }],
      ...timed('2026-03-09T15:00:00Z', '2026-03-09T16:00:00Z'),
    })
    await insert('primary', {
      summary: 'series',
      recurrence: ['RRULE:FREQ=DAILY;COUNT=4'],
      attendees: [{ email: 'ben@example.com' }],
      ...timed('2026-03-10T09:00:00', '2026-03-10T09:30:00', 'Asia/Tokyo'),
    })
    const list = await ok('CalendarList', 'GET', '/users/me/calendarList')
    const team = list.items.find((e: { summary: string }) => e.summary === 'Team').id as string
    await insert(encodeURIComponent(team), {
      summary: 'on a shared calendar',
      attendees: [{ email: 'cy@example.com' }],
      ...timed('2026-03-11T09:00:00Z', '2026-03-11T10:00:00Z'),
    })
    const copies = db.$client.prepare('SELECT count(*) FROM calendar_events WHERE calendar_id <> organizer_calendar_id')
    // Guests' (a group's members too) and the room's copies were written: ben and x twice over, cy, the room.
    expect(copies.pluck().get()).toBeGreaterThanOrEqual(6)
    const before = JSON.stringify(worldState(h.entry.world))
    for (const { calendar, id } of inserted) h.entry.world.tx((tx) => propagate(tx, findEvent(tx, calendar, id)!))
    expect(JSON.stringify(worldState(h.entry.world))).toBe(before)
  })
})
