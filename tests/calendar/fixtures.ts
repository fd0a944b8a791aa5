/** Three colleagues in three zones; Ann shares a team calendar with Ben (writer); a weekly series and a one-off. */
export const calSeed = {
  name: 'calendar-test',
  now: '2026-03-02T14:00:00Z',
  domain: 'example.com',
  users: [
    { id: 'ann', email: 'ann@example.com', name: 'Ann Lee', timeZone: 'America/New_York' },
    { id: 'ben', email: 'ben@example.com', name: 'Ben Ode', timeZone: 'Europe/London' },
    { id: 'cy', email: 'cy@example.com', name: 'Cy Ray', timeZone: 'UTC' },
  ],
  calendar: {
    calendars: [
      {
        key: 'team',
        owner: 'ann',
        summary: 'Team',
        timeZone: 'America/New_York',
        acl: [{ type: 'user' as const, value: 'ben', role: 'writer' as const }],
      },
    ],
    events: [
      {
        calendar: 'ann',
        id: 'meet0000001',
        summary: 'Weekly sync',
        start: { dateTime: '2026-03-03T10:00:00', timeZone: 'America/New_York' },
        end: { dateTime: '2026-03-03T10:30:00', timeZone: 'America/New_York' },
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'],
        attendees: [{ user: 'ben', responseStatus: 'accepted' as const }],
      },
      {
        calendar: 'ann',
        id: 'lunc0000001',
        summary: 'Lunch with Cy',
        location: 'Cafe',
        start: { dateTime: '2026-03-04T12:00:00-05:00' },
        end: { dateTime: '2026-03-04T13:00:00-05:00' },
        attendees: [{ user: 'cy' }],
      },
      { calendar: 'team', summary: 'Offsite', start: { date: '2026-03-12' }, end: { date: '2026-03-14' } },
    ],
  },
}

/** A room's resource calendar address (Atlas, floor 3 of building HQ in `officeSeed`). */
export const ROOM = 'c_123456789012345678@resource.calendar.google.com'

/** `calSeed` with an office: one building (hq) with one room (atlas, capacity 6). */
export const officeSeed = {
  ...calSeed,
  calendar: {
    ...calSeed.calendar,
    buildings: [{ id: 'hq', name: 'HQ', floors: ['3'] }],
    rooms: [{ id: 'atlas', name: 'Atlas', email: ROOM, building: 'hq', floor: '3', capacity: 6 }],
  },
}

export const enc = (s: string) => encodeURIComponent(s)
