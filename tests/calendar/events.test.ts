import { describe, expect, test } from 'vitest'
import { C, cal, timed } from './helpers.ts'
import { enc, officeSeed, ROOM } from './fixtures.ts'

const NY = 'America/New_York'

describe('calendar.events.insert', () => {
  test('creates a timed event read in its zone, with iCalUID, creator, organizer and reminders', async () => {
    const { ok } = cal()
    const e = await ok('Event', 'POST', '/calendars/primary/events', {
      json: { summary: 'Plan', ...timed('2026-03-05T09:00:00', '2026-03-05T10:00:00', NY) },
    })
    expect(e).toMatchObject({
      kind: 'calendar#event',
      status: 'confirmed',
      summary: 'Plan',
      sequence: 0,
      iCalUID: `${e.id}@google.com`,
      eventType: 'default',
      reminders: { useDefault: true },
    })
    expect(e.id).toMatch(/^[a-v0-9]{26}$/)
    expect(e.start).toEqual({ dateTime: '2026-03-05T09:00:00-05:00', timeZone: NY })
    expect(e.organizer).toMatchObject({ email: 'ann@example.com', self: true })
  })
  test('an offset-less dateTime without timeZone is read in the calendar’s zone; all-day uses dates', async () => {
    const { ok } = cal()
    const e = await ok('Event', 'POST', '/calendars/primary/events', {
      json: timed('2026-03-05T09:00:00', '2026-03-05T10:00:00'),
    })
    expect(e.start).toEqual({ dateTime: '2026-03-05T09:00:00-05:00' })
    const d = await ok('Event', 'POST', '/calendars/primary/events', {
      json: { start: { date: '2026-03-07' }, end: { date: '2026-03-08' } },
    })
    expect(d.start).toEqual({ date: '2026-03-07' })
  })
  test('rejects a missing end, an end before the start, a bad zone and a duplicate id', async () => {
    const { fails, ok } = cal()
    const missing = await fails(400, 'required', 'POST', '/calendars/primary/events', {
      json: { start: { date: '2026-03-07' } },
    })
    expect(missing.error.message).toBe('Missing end time.')
    await fails(400, 'timeRangeEmpty', 'POST', '/calendars/primary/events', {
      json: timed('2026-03-05T10:00:00Z', '2026-03-05T09:00:00Z'),
    })
    await fails(400, 'invalid', 'POST', '/calendars/primary/events', {
      json: timed('2026-03-05T10:00:00', '2026-03-05T11:00:00', 'Nowhere/City'),
    })
    await ok('Event', 'POST', '/calendars/primary/events', {
      json: { id: 'abcdef12345', ...timed('2026-03-05T10:00:00Z', '2026-03-05T11:00:00Z') },
    })
    await fails(409, 'duplicate', 'POST', '/calendars/primary/events', {
      json: { id: 'abcdef12345', ...timed('2026-03-05T10:00:00Z', '2026-03-05T11:00:00Z') },
    })
    await fails(400, 'invalid', 'POST', '/calendars/primary/events', {
      json: { id: 'UPPER_case!', ...timed('2026-03-05T10:00:00Z', '2026-03-05T11:00:00Z') },
    })
  })
  test('attendees who are world users get a copy with their own response; sendUpdates=all mails them', async () => {
    const { ok, h } = cal()
    const e = await ok('Event', 'POST', '/calendars/primary/events?sendUpdates=all', {
      json: {
        summary: 'Design review',
        attendees: [{ email: 'cy@example.com' }, { email: 'guest@outside.test' }],
        ...timed('2026-03-06T15:00:00Z', '2026-03-06T16:00:00Z'),
      },
    })
    const copy = await ok('Event', 'GET', `/calendars/primary/events/${e.id}`, { as: 'cy' })
    expect(copy.attendees.find((a: { self?: boolean }) => a.self)).toMatchObject({
      email: 'cy@example.com',
      responseStatus: 'needsAction',
    })
    expect(copy.organizer).toEqual({ email: 'ann@example.com', displayName: 'Ann Lee' })
    const inbox = await h.call('GET', '/gmail/v1/users/me/messages?q=subject:Invitation', { token: h.google('cy') })
    expect(inbox.body.messages?.length).toBe(1)
  })
  test('conferenceDataVersion=1 turns a create request into a Meet link', async () => {
    const { ok } = cal()
    const body = {
      ...timed('2026-03-06T15:00:00Z', '2026-03-06T16:00:00Z'),
      conferenceData: { createRequest: { requestId: 'r1', conferenceSolutionKey: { type: 'hangoutsMeet' } } },
    }
    const e = await ok('Event', 'POST', '/calendars/primary/events?conferenceDataVersion=1', { json: body })
    expect(e.hangoutLink).toMatch(/^https:\/\/meet\.google\.com\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/)
    expect(e.conferenceData.createRequest.status.statusCode).toBe('success')
    const plain = await ok('Event', 'POST', '/calendars/primary/events', { json: body })
    expect(plain.conferenceData).toBeUndefined()
  })
})

describe('calendar.events.get', () => {
  test('renders in the timeZone parameter; 404 for an unknown event; instance ids resolve', async () => {
    const { ok, fails } = cal()
    const e = await ok('Event', 'GET', '/calendars/primary/events/lunc0000001?timeZone=UTC')
    expect(e.start.dateTime).toBe('2026-03-04T17:00:00Z')
    await fails(404, 'notFound', 'GET', '/calendars/primary/events/nothere123')
    const inst = await ok('Event', 'GET', '/calendars/primary/events/meet0000001_20260310T140000Z')
    expect(inst).toMatchObject({
      recurringEventId: 'meet0000001',
      originalStartTime: { dateTime: '2026-03-10T10:00:00-04:00', timeZone: NY },
    })
    await fails(404, 'notFound', 'GET', '/calendars/primary/events/meet0000001_20260310T150000Z')
  })
})

describe('calendar.events.update', () => {
  test('replaces the event, bumps sequence and etag, and drops fields left out', async () => {
    const { ok } = cal()
    const before = await ok('Event', 'GET', '/calendars/primary/events/lunc0000001')
    const after = await ok('Event', 'PUT', '/calendars/primary/events/lunc0000001', {
      json: { summary: 'Lunch (moved)', ...timed('2026-03-04T13:00:00-05:00', '2026-03-04T14:00:00-05:00') },
    })
    expect(after.sequence).toBe(before.sequence + 1)
    expect(after.etag).not.toBe(before.etag)
    expect(after.location).toBeUndefined()
    expect(after.attendees).toBeUndefined()
  })
})

describe('calendar.events.patch', () => {
  test('changes only given fields; the organizer’s change reaches the attendee’s copy', async () => {
    const { ok } = cal()
    const p = await ok('Event', 'PATCH', '/calendars/primary/events/lunc0000001', { json: { location: 'Park' } })
    expect(p).toMatchObject({ summary: 'Lunch with Cy', location: 'Park', sequence: 1 })
    expect((await ok('Event', 'GET', '/calendars/primary/events/lunc0000001', { as: 'cy' })).location).toBe('Park')
  })
  test('an attendee accepts through their copy and the organizer sees it', async () => {
    const { ok } = cal()
    await ok('Event', 'PATCH', '/calendars/primary/events/lunc0000001', {
      as: 'cy',
      json: { attendees: [{ email: 'cy@example.com', responseStatus: 'accepted' }] },
    })
    const org = await ok('Event', 'GET', '/calendars/primary/events/lunc0000001')
    expect(org.attendees).toEqual([{ email: 'cy@example.com', responseStatus: 'accepted' }])
  })
  test('patching one instance makes an exception; the series is untouched', async () => {
    const { ok } = cal()
    const ex = await ok('Event', 'PATCH', '/calendars/primary/events/meet0000001_20260310T140000Z', {
      json: { summary: 'Weekly sync (special)' },
    })
    expect(ex).toMatchObject({
      id: 'meet0000001_20260310T140000Z',
      recurringEventId: 'meet0000001',
      summary: 'Weekly sync (special)',
    })
    expect((await ok('Event', 'GET', '/calendars/primary/events/meet0000001')).summary).toBe('Weekly sync')
  })
  test('stamps updated with the time of the change, for the event, an instance and the attendee copy, so updatedMin finds it', async () => {
    const { ok, call } = cal()
    const before = await ok('Event', 'GET', '/calendars/primary/events/lunc0000001')
    const cut = new Date(Date.parse(before.updated) + 1).toISOString()
    const p = await ok('Event', 'PATCH', '/calendars/primary/events/lunc0000001', { json: { location: 'Park' } })
    expect(Date.parse(p.updated)).toBeGreaterThan(Date.parse(before.updated))
    expect((await ok('Event', 'GET', '/calendars/primary/events/lunc0000001', { as: 'cy' })).updated).toBe(p.updated)
    const ex = await ok('Event', 'PATCH', '/calendars/primary/events/meet0000001_20260310T140000Z', {
      json: { summary: 'Special' },
    })
    expect(Date.parse(ex.updated)).toBeGreaterThan(Date.parse(before.updated))
    const changed = await ok('Events', 'GET', `/calendars/primary/events?updatedMin=${enc(cut)}`)
    expect(changed.items.map((e: { id: string }) => e.id).sort()).toEqual([
      'lunc0000001',
      'meet0000001_20260310T140000Z',
    ])
    expect((await call('DELETE', '/calendars/primary/events/lunc0000001')).status).toBe(204)
    expect(Date.parse((await ok('Event', 'GET', '/calendars/primary/events/lunc0000001')).updated)).toBeGreaterThan(
      Date.parse(p.updated),
    )
  })
})

describe('calendar.events.delete', () => {
  test('marks the event cancelled (seen with showDeleted) and tells the guests', async () => {
    const { ok, call, fails } = cal()
    expect((await call('DELETE', '/calendars/primary/events/lunc0000001')).status).toBe(204)
    expect((await ok('Event', 'GET', '/calendars/primary/events/lunc0000001')).status).toBe('cancelled')
    const list = await ok('Events', 'GET', '/calendars/primary/events?showDeleted=true')
    expect(list.items.find((e: { id: string }) => e.id === 'lunc0000001')).toMatchObject({ status: 'cancelled' })
    expect((await ok('Event', 'GET', '/calendars/primary/events/lunc0000001', { as: 'cy' })).status).toBe('cancelled')
    await fails(410, 'deleted', 'DELETE', '/calendars/primary/events/lunc0000001')
  })
  test('deleting one instance cancels just that occurrence', async () => {
    const { ok, call } = cal()
    expect((await call('DELETE', '/calendars/primary/events/meet0000001_20260317T140000Z')).status).toBe(204)
    const inst = await ok('Events', 'GET', '/calendars/primary/events/meet0000001/instances')
    expect(inst.items.map((e: { id: string }) => e.id.slice(-16))).not.toContain('20260317T140000Z')
    expect(inst.items).toHaveLength(5)
  })
  test('a cancelled instance, or one a guest is removed from, leaves the guest’s calendar too, and their sync reports it', async () => {
    const { ok, call } = cal()
    const sync = (await ok('Events', 'GET', '/calendars/primary/events', { as: 'ben' })).nextSyncToken
    expect((await call('DELETE', '/calendars/primary/events/meet0000001_20260317T140000Z')).status).toBe(204)
    await ok('Event', 'PATCH', '/calendars/primary/events/meet0000001_20260324T140000Z', { json: { attendees: [] } })
    const ids = (await ok('Events', 'GET', '/calendars/primary/events/meet0000001/instances', { as: 'ben' })).items.map(
      (e: { id: string }) => e.id.slice(-16),
    )
    expect(ids).toEqual(['20260303T150000Z', '20260310T140000Z', '20260331T140000Z', '20260407T140000Z'])
    const single = await ok(
      'Events',
      'GET',
      `/calendars/primary/events?singleEvents=true&timeMin=${enc('2026-03-16T00:00:00Z')}&timeMax=${enc('2026-03-26T00:00:00Z')}`,
      { as: 'ben' },
    )
    expect(single.items).toEqual([])
    const changes = await ok('Events', 'GET', `/calendars/primary/events?syncToken=${enc(sync)}`, { as: 'ben' })
    expect(changes.items.map((e: { id: string; status: string }) => [e.id, e.status])).toEqual([
      ['meet0000001_20260317T140000Z', 'cancelled'],
      ['meet0000001_20260324T140000Z', 'cancelled'],
    ])
  })
})

describe('calendar.events.import', () => {
  test('keeps the given iCalUID and organizer; importing it again replaces the event', async () => {
    const { ok, fails } = cal()
    const body = {
      iCalUID: 'abc-123@legacy.test',
      summary: 'Imported',
      organizer: { email: 'boss@legacy.test' },
      ...timed('2026-03-09T09:00:00Z', '2026-03-09T10:00:00Z'),
    }
    const e = await ok('Event', 'POST', '/calendars/primary/events/import', { json: body })
    expect(e).toMatchObject({ iCalUID: 'abc-123@legacy.test', organizer: { email: 'boss@legacy.test' } })
    const again = await ok('Event', 'POST', '/calendars/primary/events/import', {
      json: { ...body, summary: 'Imported v2' },
    })
    expect(again.id).toBe(e.id)
    await fails(400, 'required', 'POST', '/calendars/primary/events/import', {
      json: { summary: 'x', ...timed('2026-03-09T09:00:00Z', '2026-03-09T10:00:00Z') },
    })
  })

  test('an event the calendar organizes reaches no guest and books no room', async () => {
    const { h, ok } = cal(officeSeed)
    const body = {
      iCalUID: 'own-1@legacy.test',
      summary: 'Imported own',
      attendees: [{ email: 'ben@example.com', responseStatus: 'accepted' }, { email: ROOM }],
      ...timed('2026-03-09T09:00:00Z', '2026-03-09T10:00:00Z'),
    }
    const e = await ok('Event', 'POST', '/calendars/primary/events/import', { json: body })
    expect((await h.call('GET', `${C}/calendars/primary/events/${e.id}`, { token: h.google('ben') })).status).toBe(404)
    const room = await h.call('GET', `${C}/calendars/${encodeURIComponent(ROOM)}/events/${e.id}`)
    expect(room.status).toBe(404)
    expect(e.attendees.find((a: { email: string }) => a.email === ROOM).responseStatus).toBe('needsAction')
  })
})

describe('calendar.events.quickAdd', () => {
  test('parses text into a timed event in the calendar’s zone', async () => {
    const { ok, fails } = cal()
    const e = await ok(
      'Event',
      'POST',
      `/calendars/primary/events/quickAdd?text=${enc('Lunch with Ana tomorrow at 1pm')}`,
    )
    expect(e.summary).toContain('Lunch with Ana')
    expect(e.start.dateTime).toBe('2026-03-03T13:00:00-05:00')
    await fails(400, 'required', 'POST', '/calendars/primary/events/quickAdd')
  })
})

describe('calendar.events.move', () => {
  test('moves an event to another calendar the caller can write', async () => {
    const { ok, fails } = cal()
    const team = (await ok(null, 'GET', '/users/me/calendarList')).items.find(
      (e: { summary: string }) => e.summary === 'Team',
    ).id
    const moved = await ok('Event', 'POST', `/calendars/primary/events/lunc0000001/move?destination=${enc(team)}`)
    expect(moved.organizer.email).toBe(team)
    expect((await ok('Event', 'GET', `/calendars/${enc(team)}/events/lunc0000001`)).summary).toBe('Lunch with Cy')
    expect((await ok('Event', 'GET', '/calendars/primary/events/lunc0000001')).status).toBe('cancelled')
    await fails(
      400,
      'cannotChangeOrganizerOfInstance',
      'POST',
      `/calendars/primary/events/meet0000001_20260310T140000Z/move?destination=${enc(team)}`,
    )
  })
})

describe('calendar.events.update (guests)', () => {
  test('re-sending the guest list keeps answers, adds a new guest’s copy and cancels a removed one', async () => {
    const { ok } = cal()
    await ok('Event', 'PATCH', '/calendars/primary/events/lunc0000001', {
      as: 'cy',
      json: { attendees: [{ email: 'cy@example.com', responseStatus: 'tentative' }] },
    })
    const e = await ok('Event', 'PATCH', '/calendars/primary/events/lunc0000001', {
      json: { attendees: [{ email: 'cy@example.com' }, { email: 'ben@example.com' }] },
    })
    expect(e.attendees).toEqual([
      { email: 'cy@example.com', responseStatus: 'tentative' },
      { email: 'ben@example.com', responseStatus: 'needsAction' },
    ])
    expect((await ok('Event', 'GET', '/calendars/primary/events/lunc0000001', { as: 'ben' })).status).toBe('confirmed')
    await ok('Event', 'PATCH', '/calendars/primary/events/lunc0000001', {
      json: { attendees: [{ email: 'ben@example.com' }] },
    })
    expect((await ok('Event', 'GET', '/calendars/primary/events/lunc0000001', { as: 'cy' })).status).toBe('cancelled')
  })
})

describe('calendar.events.delete (mail)', () => {
  test('sendUpdates=all mails a cancellation to guests; an accepted answer mails the organizer', async () => {
    const { ok, call, h } = cal()
    await ok('Event', 'PATCH', '/calendars/primary/events/lunc0000001?sendUpdates=all', {
      as: 'cy',
      json: { attendees: [{ email: 'cy@example.com', responseStatus: 'accepted' }] },
    })
    const replies = await h.call('GET', '/gmail/v1/users/me/messages?q=subject:Accepted', { token: h.google('ann') })
    expect(replies.body.messages?.length).toBe(1)
    expect((await call('DELETE', '/calendars/primary/events/lunc0000001?sendUpdates=all')).status).toBe(204)
    const cancelled = await h.call('GET', '/gmail/v1/users/me/messages?q=subject:Canceled', { token: h.google('cy') })
    expect(cancelled.body.messages?.length).toBe(1)
    const none = await h.call('GET', '/gmail/v1/users/me/messages?q=subject:Canceled', { token: h.google('ben') })
    expect(none.body.messages ?? []).toEqual([])
  })
})

describe('calendar.events.insert (recurrence)', () => {
  test('refuses malformed and sub-daily recurrence rules', async () => {
    const { fails } = cal()
    const when = {
      start: { dateTime: '2026-03-05T09:00:00', timeZone: 'UTC' },
      end: { dateTime: '2026-03-05T09:30:00', timeZone: 'UTC' },
    }
    for (const rule of ['RRULE:FREQ=HOURLY', 'RRULE:FREQ=SECONDLY;COUNT=5', 'RRULE:FREQ=NEVER', 'garbage']) {
      await fails(400, 'invalid', 'POST', '/calendars/primary/events', { json: { recurrence: [rule], ...when } })
    }
  })

  test('refuses BYWEEKNO rules the rrule library cannot expand in bounded work, and keeps the others', async () => {
    const { fails, ok } = cal()
    const at = (dateTime: string) => ({ dateTime, timeZone: 'UTC' })
    const when = { start: at('2026-03-05T09:00:00'), end: at('2026-03-05T09:30:00') }
    const every = (n: number) => Array.from({ length: n }, (_, i) => i).join(',')
    const refused = [
      'BYWEEKNO=1;BYMONTH=7',
      'BYWEEKNO=1;BYMONTHDAY=20',
      'BYWEEKNO=2;BYYEARDAY=9',
      'BYWEEKNO=1;BYDAY=MO;BYSETPOS=9',
      `BYWEEKNO=10;BYHOUR=${every(24)};BYMINUTE=0,30`,
      'BYWEEKNO=10;COUNT=5001',
    ]
    for (const rule of refused) {
      const json = { recurrence: [`RRULE:FREQ=YEARLY;${rule}`], ...when }
      await fails(400, 'invalid', 'POST', '/calendars/primary/events', { json })
    }
    const kept = [
      'FREQ=YEARLY;BYWEEKNO=10,-1;BYDAY=MO,FR;BYHOUR=9,17;COUNT=5000',
      `FREQ=DAILY;BYHOUR=${every(24)};BYMINUTE=${every(60)};BYSECOND=${every(60)};BYSETPOS=1,-1`,
    ]
    for (const rule of kept) {
      await ok('Event', 'POST', '/calendars/primary/events', { json: { recurrence: [`RRULE:${rule}`], ...when } })
    }
  })
})

describe('calendar.events etag preconditions', () => {
  test('If-Match with a stale etag fails update, patch and delete with 412; the current etag passes', async () => {
    const { h, ok } = cal()
    const e = await ok('Event', 'POST', '/calendars/primary/events', {
      json: { summary: 'v1', ...timed('2026-03-05T09:00:00Z', '2026-03-05T10:00:00Z') },
    })
    const path = `${C}/calendars/primary/events/${e.id}`
    const v2 = (await h.call('PATCH', path, { json: { summary: 'v2' }, headers: { 'if-match': e.etag } })).body
    expect(v2.summary).toBe('v2')
    expect(v2.etag).not.toBe(e.etag)
    const stale = { 'if-match': e.etag }
    for (const [method, json] of [
      ['PATCH', { summary: 'x' }],
      ['PUT', { summary: 'x', ...timed('2026-03-05T09:00:00Z', '2026-03-05T10:00:00Z') }],
      ['DELETE', undefined],
    ] as const) {
      const res = await h.call(method, path, { json, headers: stale })
      expect(res.status, method).toBe(412)
      expect(res.body.error.errors[0]).toMatchObject({ reason: 'conditionNotMet', location: 'If-Match' })
    }
    expect((await h.call('GET', path)).body.summary).toBe('v2')
    expect((await h.call('DELETE', path, { headers: { 'if-match': `W/${v2.etag}` } })).status).toBe(204)
  })

  test('If-None-Match with the current etag answers 304 on get, a stale one the event', async () => {
    const { h, ok } = cal()
    const e = await ok('Event', 'POST', '/calendars/primary/events', {
      json: { summary: 'v1', ...timed('2026-03-05T09:00:00Z', '2026-03-05T10:00:00Z') },
    })
    const path = `${C}/calendars/primary/events/${e.id}`
    const same = await h.call('GET', path, { headers: { 'if-none-match': e.etag } })
    expect(same.status).toBe(304)
    expect(same.text).toBe('')
    await h.call('PATCH', path, { json: { summary: 'v2' } })
    const changed = await h.call('GET', path, { headers: { 'if-none-match': e.etag } })
    expect(changed.status).toBe(200)
    expect(changed.body.summary).toBe('v2')
  })
})
