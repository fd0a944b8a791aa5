import { describe, expect, test } from 'vitest'
import { cal, timed } from './helpers.ts'

const NY = 'America/New_York'
type Ev = { id: string; summary?: string; status: string; start: { dateTime?: string; date?: string } }

describe('calendar.events.list', () => {
  test('singleEvents=true with orderBy=startTime expands the weekly series across the DST change at 10:00 local', async () => {
    const { ok } = cal()
    const list = await ok(
      'Events',
      'GET',
      '/calendars/primary/events?singleEvents=true&orderBy=startTime&timeMin=2026-03-01T00:00:00Z&timeMax=2026-04-30T00:00:00Z',
    )
    const weekly = list.items.filter((e: Ev) => e.summary === 'Weekly sync')
    expect(weekly.map((e: Ev) => e.start.dateTime)).toEqual([
      '2026-03-03T10:00:00-05:00',
      '2026-03-10T10:00:00-04:00',
      '2026-03-17T10:00:00-04:00',
      '2026-03-24T10:00:00-04:00',
      '2026-03-31T10:00:00-04:00',
      '2026-04-07T10:00:00-04:00',
    ])
    const starts = list.items.map((e: Ev) => Date.parse(e.start.dateTime!))
    expect([...starts].sort((a, b) => a - b)).toEqual(starts)
  })
  test('without singleEvents a cancelled instance of a live series is listed even without showDeleted; with singleEvents it is not', async () => {
    const { ok, call } = cal()
    expect((await call('DELETE', '/calendars/primary/events/meet0000001_20260317T140000Z')).status).toBe(204)
    const series = await ok('Events', 'GET', '/calendars/primary/events')
    expect(
      series.items
        .filter((e: Ev) => e.status === 'cancelled')
        .map((e: Ev & { recurringEventId?: string }) => [e.id, e.recurringEventId]),
    ).toEqual([['meet0000001_20260317T140000Z', 'meet0000001']])
    const single = await ok('Events', 'GET', '/calendars/primary/events?singleEvents=true')
    expect(single.items.filter((e: Ev) => e.status === 'cancelled')).toEqual([])
    expect((await call('DELETE', '/calendars/primary/events/meet0000001')).status).toBe(204)
    expect(
      (await ok('Events', 'GET', '/calendars/primary/events')).items.filter((e: Ev) => e.status === 'cancelled'),
    ).toEqual([])
  })
  test('without singleEvents the series is one item with its recurrence; orderBy=startTime then is refused', async () => {
    const { ok, fails } = cal()
    const list = await ok('Events', 'GET', '/calendars/primary/events')
    expect(list.items.filter((e: Ev) => e.summary === 'Weekly sync')).toHaveLength(1)
    await fails(400, 'badRequest', 'GET', '/calendars/primary/events?orderBy=startTime')
  })
  test('timeMin/timeMax keep overlapping events only; q searches text; maxResults pages', async () => {
    const { ok } = cal()
    const w = await ok(
      'Events',
      'GET',
      '/calendars/primary/events?singleEvents=true&timeMin=2026-03-04T17:30:00Z&timeMax=2026-03-09T00:00:00Z',
    )
    expect(w.items.map((e: Ev) => e.id)).toEqual(['lunc0000001'])
    expect((await ok('Events', 'GET', '/calendars/primary/events?q=cafe')).items.map((e: Ev) => e.id)).toEqual([
      'lunc0000001',
    ])
    const p1 = await ok('Events', 'GET', '/calendars/primary/events?singleEvents=true&orderBy=startTime&maxResults=4')
    expect(p1.items).toHaveLength(4)
    const p2 = await ok(
      'Events',
      'GET',
      `/calendars/primary/events?singleEvents=true&orderBy=startTime&maxResults=4&pageToken=${p1.nextPageToken}`,
    )
    expect(p2.items).toHaveLength(3)
    expect(p2.nextSyncToken).toBeDefined()
  })
  test('iCalUID, extended properties and updatedMin filter', async () => {
    const { ok } = cal()
    const e = await ok('Event', 'POST', '/calendars/primary/events', {
      json: {
        summary: 'Tagged',
        extendedProperties: { private: { ticket: 'T-1' }, shared: { team: 'ops' } },
        ...timed('2026-03-05T09:00:00Z', '2026-03-05T10:00:00Z'),
      },
    })
    expect(
      (await ok('Events', 'GET', '/calendars/primary/events?privateExtendedProperty=ticket%3DT-1')).items.map(
        (x: Ev) => x.id,
      ),
    ).toEqual([e.id])
    expect((await ok('Events', 'GET', '/calendars/primary/events?sharedExtendedProperty=team%3Ddev')).items).toEqual([])
    expect(
      (await ok('Events', 'GET', `/calendars/primary/events?iCalUID=${encodeURIComponent(e.iCalUID)}`)).items,
    ).toHaveLength(1)
    expect(
      (await ok('Events', 'GET', `/calendars/primary/events?updatedMin=${encodeURIComponent(e.updated)}`)).items.map(
        (x: Ev) => x.id,
      ),
    ).toEqual([e.id])
  })
  test('a sync token returns exactly what changed since, deletions included; a bad token is 410', async () => {
    const { ok, call, fails } = cal()
    const full = await ok('Events', 'GET', '/calendars/primary/events')
    expect(full.nextSyncToken).toBeTruthy()
    const empty = await ok('Events', 'GET', `/calendars/primary/events?syncToken=${full.nextSyncToken}`)
    expect(empty.items).toEqual([])
    const made = await ok('Event', 'POST', '/calendars/primary/events', {
      json: timed('2026-03-05T09:00:00Z', '2026-03-05T10:00:00Z'),
    })
    await call('DELETE', '/calendars/primary/events/lunc0000001')
    const delta = await ok('Events', 'GET', `/calendars/primary/events?syncToken=${empty.nextSyncToken}`)
    expect(delta.items.map((e: Ev) => `${e.id}:${e.status}`).sort()).toEqual(
      [`${made.id}:confirmed`, 'lunc0000001:cancelled'].sort(),
    )
    const gone = await fails(
      410,
      'fullSyncRequired',
      'GET',
      '/calendars/primary/events?syncToken=CPDAlvWDx70CEPDAlvWDx70CGAU%3D',
    )
    expect(gone.error.code).toBe(410)
    await fails(400, 'invalid', 'GET', `/calendars/primary/events?syncToken=${full.nextSyncToken}&q=x`)
  })
  test('a token past the latest change (never issued, or from a rolled-back world) is 410, for events and ACLs', async () => {
    const { ok, fails } = cal()
    const full = await ok('Events', 'GET', '/calendars/primary/events')
    const [seq, feed] = Buffer.from(full.nextSyncToken, 'base64url').toString('utf8').split('\u0000')
    const ahead = (f: string) => Buffer.from(`${Number(seq) + 1000}\u0000${f}`).toString('base64url')
    await fails(410, 'fullSyncRequired', 'GET', `/calendars/primary/events?syncToken=${ahead(feed!)}`)
    const acl = await ok('Acl', 'GET', '/calendars/primary/acl')
    const aclFeed = Buffer.from(acl.nextSyncToken, 'base64url').toString('utf8').split('\u0000')[1]!
    await fails(410, 'fullSyncRequired', 'GET', `/calendars/primary/acl?syncToken=${ahead(aclFeed)}`)
    // The token just issued still works.
    expect((await ok('Events', 'GET', `/calendars/primary/events?syncToken=${full.nextSyncToken}`)).items).toEqual([])
  })
  test('cancelled instances disappear from singleEvents and show with showDeleted', async () => {
    const { ok, call } = cal()
    await call('DELETE', '/calendars/primary/events/meet0000001_20260324T140000Z')
    const shown = await ok('Events', 'GET', '/calendars/primary/events?singleEvents=true&showDeleted=true')
    expect(shown.items.find((e: Ev) => e.id === 'meet0000001_20260324T140000Z')).toMatchObject({
      status: 'cancelled',
      recurringEventId: 'meet0000001',
    })
    const hidden = await ok('Events', 'GET', '/calendars/primary/events?singleEvents=true')
    expect(hidden.items.some((e: Ev) => e.id === 'meet0000001_20260324T140000Z')).toBe(false)
  })
  test('orderBy=startTime renders the instances of each series as events.instances does', async () => {
    const { ok, call } = cal()
    const standup = await ok('Event', 'POST', '/calendars/primary/events', {
      json: {
        summary: 'Standup',
        recurrence: ['RRULE:FREQ=DAILY;COUNT=8'],
        attendees: [{ email: 'cy@example.com' }],
        ...timed('2026-03-05T09:00:00', '2026-03-05T09:15:00', 'Europe/London'),
      },
    })
    await ok('Event', 'PATCH', '/calendars/primary/events/meet0000001_20260317T140000Z', {
      json: {
        summary: 'Moved sync',
        start: { dateTime: '2026-03-18T15:00:00Z' },
        end: { dateTime: '2026-03-18T15:30:00Z' },
      },
    })
    await call('DELETE', '/calendars/primary/events/meet0000001_20260324T140000Z')
    const window = 'timeMin=2026-03-01T00:00:00Z&timeMax=2026-05-01T00:00:00Z'
    for (const as of ['ann', 'ben']) {
      const calendar = as === 'ann' ? 'primary' : 'ann%40example.com'
      for (const zone of ['', '&timeZone=Asia/Tokyo']) {
        const ordered = await ok(
          'Events',
          'GET',
          `/calendars/${calendar}/events?singleEvents=true&orderBy=startTime&${window}${zone}`,
          { as },
        )
        for (const series of ['meet0000001', standup.id]) {
          const instances = await ok(
            'Events',
            'GET',
            `/calendars/${calendar}/events/${series}/instances?${window}${zone}`,
            { as },
          )
          const listed = ordered.items.filter((e: Ev) => e.id.startsWith(`${series}_`))
          expect(listed.length).toBeGreaterThan(3)
          expect(JSON.stringify(listed)).toBe(JSON.stringify(instances.items))
        }
      }
    }
  })
  test('rejects bad time bounds', async () => {
    const { fails } = cal()
    await fails(400, 'badRequest', 'GET', '/calendars/primary/events?timeMin=yesterday')
    await fails(
      400,
      'timeRangeEmpty',
      'GET',
      '/calendars/primary/events?timeMin=2026-03-05T00:00:00Z&timeMax=2026-03-04T00:00:00Z',
    )
  })
})

describe('calendar.events.instances', () => {
  test('lists instances with a moved exception at its new time and ids per original start', async () => {
    const { ok } = cal()
    await ok('Event', 'PATCH', '/calendars/primary/events/meet0000001_20260317T140000Z', {
      json: {
        start: { dateTime: '2026-03-18T11:00:00', timeZone: NY },
        end: { dateTime: '2026-03-18T11:30:00', timeZone: NY },
      },
    })
    const list = await ok('Events', 'GET', '/calendars/primary/events/meet0000001/instances')
    expect(list.items).toHaveLength(6)
    const moved = list.items.find((e: Ev) => e.id === 'meet0000001_20260317T140000Z')
    expect(moved.start.dateTime).toBe('2026-03-18T11:00:00-04:00')
    expect(moved.originalStartTime.dateTime).toBe('2026-03-17T10:00:00-04:00')
    const window = await ok(
      'Events',
      'GET',
      '/calendars/primary/events/meet0000001/instances?timeMin=2026-03-20T00:00:00Z&maxResults=2',
    )
    expect(window.items.map((e: Ev) => e.start.dateTime)).toEqual([
      '2026-03-24T10:00:00-04:00',
      '2026-03-31T10:00:00-04:00',
    ])
  })
  test('"this and following": truncating the series and starting a new one splits the instances', async () => {
    const { ok } = cal()
    await ok('Event', 'PATCH', '/calendars/primary/events/meet0000001', {
      json: { recurrence: ['RRULE:FREQ=WEEKLY;UNTIL=20260323T000000Z'] },
    })
    await ok('Event', 'POST', '/calendars/primary/events', {
      json: {
        summary: 'Weekly sync v2',
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
        ...timed('2026-03-24T11:00:00', '2026-03-24T11:30:00', NY),
      },
    })
    const list = await ok('Events', 'GET', '/calendars/primary/events?singleEvents=true&orderBy=startTime&q=weekly')
    expect(list.items.map((e: Ev) => `${e.summary}@${e.start.dateTime}`)).toEqual([
      'Weekly sync@2026-03-03T10:00:00-05:00',
      'Weekly sync@2026-03-10T10:00:00-04:00',
      'Weekly sync@2026-03-17T10:00:00-04:00',
      'Weekly sync v2@2026-03-24T11:00:00-04:00',
      'Weekly sync v2@2026-03-31T11:00:00-04:00',
      'Weekly sync v2@2026-04-07T11:00:00-04:00',
    ])
  })
})
