import { describe, expect, test } from 'vitest'
import { cal, timed } from './helpers.ts'
import { etagOf } from '../../envs/calendar/map.ts'

const seed = {
  name: 'calendar-render-order',
  now: '2026-05-01T00:00:00Z',
  users: [
    { id: 'ann', email: 'ann@example.com', name: 'Ann' },
    { id: 'ben', email: 'ben@example.com', name: 'Ben' },
  ],
  calendar: { events: [] },
}

// Every optional field a stored event can carry, so each one's place in the rendered resource is pinned.
const full = {
  summary: 'Planning',
  description: 'Quarterly',
  location: 'Room 1',
  colorId: '5',
  ...timed('2026-06-01T09:00:00', '2026-06-01T10:00:00', 'UTC'),
  recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
  transparency: 'transparent',
  visibility: 'private',
  attendees: [{ email: 'ben@example.com' }, { email: 'ann@example.com' }],
  extendedProperties: { private: { k: 'v' } },
  guestsCanModify: true,
  anyoneCanAddSelf: true,
  reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 5 }] },
}
const SERIES_KEYS = [
  'kind',
  'etag',
  'id',
  'status',
  'htmlLink',
  'created',
  'updated',
  'summary',
  'description',
  'location',
  'colorId',
  'creator',
  'organizer',
  'start',
  'end',
  'recurrence',
  'transparency',
  'visibility',
  'iCalUID',
  'sequence',
  'attendees',
  'extendedProperties',
  'anyoneCanAddSelf',
  'guestsCanModify',
  'reminders',
  'eventType',
]
const INSTANCE_KEYS = SERIES_KEYS.filter((k) => k !== 'recurrence')
INSTANCE_KEYS.splice(INSTANCE_KEYS.indexOf('transparency'), 0, 'recurringEventId', 'originalStartTime')

describe('calendar.events.list', () => {
  test('renders an event with every optional field in the resource key order', async () => {
    const { ok } = cal(seed)
    const created = await ok('Event', 'POST', '/calendars/primary/events', { json: full })
    expect(Object.keys(created)).toEqual(SERIES_KEYS)
    const series = (await ok('Events', 'GET', '/calendars/primary/events')).items
    expect(series.map((e: Record<string, unknown>) => Object.keys(e))).toEqual([SERIES_KEYS])
    const instances = (await ok('Events', 'GET', '/calendars/primary/events?singleEvents=true&orderBy=startTime')).items
    expect(instances).toHaveLength(3)
    // The first instance is rendered in full, later ones from it: both keep the order.
    for (const e of instances) expect(Object.keys(e)).toEqual(INSTANCE_KEYS)
    expect(instances[0].attendees).toEqual([
      { email: 'ben@example.com', responseStatus: 'needsAction' },
      { email: 'ann@example.com', organizer: true, self: true, responseStatus: 'needsAction' },
    ])
    expect(instances[0].creator).toEqual({ email: 'ann@example.com', displayName: 'Ann', self: true })
    // A stored exception is rendered by toEvent itself, with its recurringEventId and originalStartTime.
    await ok(null, 'PATCH', `/calendars/primary/events/${instances[1].id}`, { json: { summary: 'Moved' } })
    const after = (await ok('Events', 'GET', '/calendars/primary/events?singleEvents=true&orderBy=startTime')).items
    expect(after[1].summary).toBe('Moved')
    expect(Object.keys(after[1])).toEqual(INSTANCE_KEYS)
  })
})

describe('etagOf', () => {
  test('is the time in microseconds-like digits plus the change position, for any instant', () => {
    const big = (ms: number, seq: number) => `"${BigInt(ms) * 1000n + BigInt(seq % 1000)}"`
    // Around the largest exact product, the largest instant, and instants before 1970.
    const instants = [
      0,
      1,
      Date.UTC(2026, 5, 1),
      9_007_199_254_740,
      9_007_199_254_741,
      8.64e15,
      -1,
      -62_167_219_200_000,
    ]
    for (const ms of instants) {
      for (const seq of [0, 7, 999, 1000, 123_456]) expect(etagOf(ms, seq), `${ms} ${seq}`).toBe(big(ms, seq))
    }
  })
})
