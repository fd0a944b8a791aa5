import { describe, expect, test } from 'vitest'
import { cal, timed } from './helpers.ts'
import { officeSeed, ROOM } from './fixtures.ts'
import { insertEvent } from '../../envs/calendar/store/writes.ts'
import { findCalendar } from '../../envs/calendar/store/access.ts'
import { findUserById } from '../../envs/core/users.ts'
import { calendarEventId } from '../../envs/core/ids.ts'

// The insert renders its new row from the objects the row's texts were written from (docs/decisions/0352): what it
// answers must be what reading the row back gives, for bodies of every kind.

const seed = {
  ...officeSeed,
  identity: {
    groups: [{ email: 'crew@example.com', name: 'Crew', members: [{ email: 'ben@example.com' }] }],
  },
}
const at = timed('2026-03-05T10:00:00Z', '2026-03-05T11:00:00Z')
const bodies: [string, Record<string, unknown>][] = [
  ['', { summary: 'plain', ...at }],
  ['', { ...at }],
  ['', { summary: 'all day', start: { date: '2026-03-20' }, end: { date: '2026-03-21' }, transparency: 'transparent' }],
  ['', { summary: 'zoned', ...timed('2026-03-05T10:00:00', '2026-03-05T11:30:00', 'Asia/Kolkata') }],
  ['', { summary: 'offsets', ...timed('2026-03-05T10:00:00-05:00', '2026-03-05T21:00:00+01:00') }],
  [
    '?sendUpdates=all',
    {
      summary: 'guests',
      attendees: [
        { email: 'Ben@Example.com', displayName: 'B', optional: true, additionalGuests: -0 },
        { email: 'x@out.test', comment: 'c', responseStatus: 'tentative' },
        { email: 'ANN@example.com', self: true, organizer: false },
        { email: 'crew@example.com' },
        { email: ROOM },
      ],
      ...at,
    },
  ],
  [
    '?conferenceDataVersion=1',
    { summary: 'meet', conferenceData: { createRequest: { requestId: 'r1' } }, hangoutLink: 'ignored', ...at },
  ],
  ['', { summary: 'no meet', conferenceData: { createRequest: { requestId: 'r2' } }, ...at }],
  [
    '',
    {
      summary: 'details',
      description: 'd',
      location: 'l',
      colorId: '7',
      visibility: 'private',
      reminders: { useDefault: false, overrides: [{ method: 'email', minutes: 30 }] },
      extendedProperties: { private: { '1': 'a', b: 'c' }, shared: {} },
      source: { title: 't', url: 'https://example.com' },
      attachments: [{ fileUrl: 'https://example.com/f', title: 'f' }],
      guestsCanModify: true,
      anyoneCanAddSelf: false,
      endTimeUnspecified: true,
      sequence: 4,
      gadget: { title: 'dropped', width: 3 },
      ...at,
    },
  ],
  [
    '',
    {
      summary: 'series',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
      attendees: [{ email: 'ben@example.com' }],
      ...timed('2026-03-05T10:00:00', '2026-03-05T11:00:00', 'Europe/Paris'),
    },
  ],
  ['', { summary: '\ud800 lone \u2028 and ü', ...at }],
  ['', { summary: 'own id', id: 'givenid0001', ...at }],
]

describe('calendar.events.insert', () => {
  test('answers, for bodies of every kind, what a get of the new event answers', async () => {
    const { h } = cal(seed)
    const token = h.google('ann')
    for (const [query, body] of bodies) {
      const made = await h.call('POST', `/calendar/v3/calendars/primary/events${query}`, { json: body, token })
      expect(made.status, made.text).toBe(200)
      const got = await h.call('GET', `/calendar/v3/calendars/primary/events/${made.body.id}`, { token })
      expect(made.text, JSON.stringify(body)).toBe(got.text)
    }
  })
})

describe('insertEvent', () => {
  test('gives the objects the row’s data, start and end texts were written from', () => {
    const { h } = cal(seed)
    const world = h.entry.world
    const ann = findUserById(world.db, 'ann')!
    const calendar = findCalendar(world.db, ann.email)!
    for (const [query, body] of bodies) {
      const o = { sendUpdates: 'none' as const, conferenceDataVersion: query.includes('conference') ? 1 : 0 }
      const { row, parts } = world.tx((tx) =>
        insertEvent(tx, calendar, ann, calendarEventId(tx), structuredClone(body), { ...o, minted: true }),
      )
      expect([JSON.stringify(parts.data), JSON.stringify(parts.start), JSON.stringify(parts.end)]).toEqual([
        row.data,
        row.start,
        row.end,
      ])
    }
  })
})
