import { describe, expect, test } from 'vitest'
import { cal, timed } from './helpers.ts'
import { instanceRow, occurrences, seriesTimes } from '../../envs/calendar/store/events.ts'
import type { EventRow } from '../../envs/calendar/schema.ts'

// Behaviour kept while Calendar's per-call work was cut (docs/decisions/0303).

const seed = {
  name: 'calendar-per-call',
  now: '2026-03-02T14:00:00Z',
  domain: 'example.com',
  users: [
    { id: 'ann', email: 'ann@example.com', name: 'Ann Lee', timeZone: 'America/New_York' },
    { id: 'ben', email: 'ben@example.com', name: 'Ben Ode', timeZone: 'Europe/London' },
    { id: 'cy', email: 'cy@example.com', name: 'Cy Ray', timeZone: 'Asia/Kolkata' },
  ],
  calendar: { events: [] },
}

describe('instanceRow', () => {
  test('writes the same rows as the stringified spans, for timed and all-day series in any zones', () => {
    const master = (start: string, end: string, recurrence: string[]): EventRow => ({
      calendarId: 'ann@example.com',
      id: 'series1',
      organizerCalendarId: 'ann@example.com',
      data: '{}',
      start,
      end,
      startMs: JSON.parse(start).ms,
      endMs: JSON.parse(end).ms,
      recurrence: JSON.stringify(recurrence),
      recurringEventId: null,
      originalStart: null,
      status: 'confirmed',
      sequence: 0,
      iCalUID: 'series1@google.com',
      creatorEmail: 'ann@example.com',
      organizerEmail: 'ann@example.com',
      organizerName: null,
      createdMs: 0,
      updatedMs: 0,
      changeSeq: 1,
    })
    const ny = (ms: number, given = true) => JSON.stringify({ ms, allDay: false, timeZone: 'America/New_York', given })
    const series = [
      master(ny(Date.UTC(2026, 2, 2, 15)), ny(Date.UTC(2026, 2, 2, 16)), ['RRULE:FREQ=DAILY;COUNT=20']),
      master(
        ny(Date.UTC(2026, 2, 2, 15), false),
        JSON.stringify({ ms: Date.UTC(2026, 2, 2, 17), allDay: false, timeZone: 'Europe/London', given: true }),
        ['RRULE:FREQ=WEEKLY;COUNT=5'],
      ),
      master(
        JSON.stringify({
          ms: Date.UTC(2026, 2, 2, 5),
          allDay: true,
          date: '2026-03-02',
          timeZone: 'America/New_York',
          given: false,
        }),
        JSON.stringify({
          ms: Date.UTC(2026, 2, 3, 5),
          allDay: true,
          date: '2026-03-03',
          timeZone: 'America/New_York',
          given: false,
        }),
        ['RRULE:FREQ=DAILY;COUNT=12'],
      ),
      // A time without `given` (stringified without the key): the stringify path.
      master(
        JSON.stringify({ ms: Date.UTC(2026, 2, 2, 15), allDay: false, timeZone: 'UTC' }),
        JSON.stringify({ ms: Date.UTC(2026, 2, 2, 16), allDay: false, timeZone: 'UTC' }),
        ['RRULE:FREQ=DAILY;COUNT=3'],
      ),
    ]
    let rows = 0
    for (const m of series) {
      const times = seriesTimes(m)
      const plain = { ...times, timedStart: undefined, timedEnd: undefined }
      for (const o of occurrences(m)) {
        expect(instanceRow(m, o, times)).toEqual(instanceRow(m, o, plain))
        expect(Object.keys(instanceRow(m, o, times))).toEqual(Object.keys(instanceRow(m, o, plain)))
        rows++
      }
    }
    expect(rows).toBe(40)
  })
})

describe('calendar.events.instances', () => {
  test('renders every instance as events.get renders it, in the calendar zone and in a requested one', async () => {
    const { ok } = cal(seed)
    const series = await ok('Event', 'POST', '/calendars/primary/events', {
      json: {
        summary: 'Standup',
        description: 'Daily',
        attendees: [{ email: 'ben@example.com' }, { email: 'outside@example.org' }],
        recurrence: ['RRULE:FREQ=DAILY;COUNT=8'],
        ...timed('2026-03-05T09:00:00', '2026-03-05T09:15:00', 'America/New_York'),
      },
    })
    const first = (await ok('Events', 'GET', `/calendars/primary/events/${series.id}/instances`)).items
    await ok(null, 'PATCH', `/calendars/primary/events/${first[2].id}`, { json: { summary: 'Moved standup' } })
    for (const query of ['', '?timeZone=Asia/Kolkata']) {
      const items = (await ok('Events', 'GET', `/calendars/primary/events/${series.id}/instances${query}`)).items
      expect(items).toHaveLength(8)
      expect(items[2].summary).toBe('Moved standup')
      for (const item of items)
        expect(item).toEqual(await ok('Event', 'GET', `/calendars/primary/events/${item.id}${query}`))
    }
  })

  test('lists the instances of a deleted series, with showDeleted, as cancelled events only', async () => {
    const { ok, call } = cal(seed)
    const series = await ok('Event', 'POST', '/calendars/primary/events', {
      json: {
        summary: 'Gone',
        recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
        ...timed('2026-03-05T09:00:00', '2026-03-05T09:15:00', 'UTC'),
      },
    })
    expect((await call('DELETE', `/calendars/primary/events/${series.id}`)).status).toBe(204)
    const items = (await ok('Events', 'GET', `/calendars/primary/events/${series.id}/instances?showDeleted=true`)).items
    expect(items).toHaveLength(3)
    for (const item of items) {
      expect(Object.keys(item)).toEqual(['kind', 'etag', 'id', 'status', 'recurringEventId', 'originalStartTime'])
      expect(item.status).toBe('cancelled')
    }
  })
})

describe('invitation mails', () => {
  /** The invitations a user received: subject and the invite.ics part, decoded. */
  async function invitations(c: ReturnType<typeof cal>, as: string) {
    const list =
      (await c.h.call('GET', '/gmail/v1/users/me/messages?q=subject:Invitation', { token: c.h.google(as) })).body
        .messages ?? []
    const out: { subject: string; ics: string }[] = []
    for (const { id } of list) {
      const m = await c.h.call('GET', `/gmail/v1/users/me/messages/${id}?format=full`, { token: c.h.google(as) })
      const subject = m.body.payload.headers.find((x: { name: string }) => x.name === 'Subject').value
      const part = m.body.payload.parts.find((p: { filename: string }) => p.filename === 'invite.ics')
      const att = await c.h.call('GET', `/gmail/v1/users/me/messages/${id}/attachments/${part.body.attachmentId}`, {
        token: c.h.google(as),
      })
      out.push({ subject, ics: Buffer.from(att.body.data, 'base64url').toString() })
    }
    return out
  }

  test("each guest's mail names the guest and reads the time in the guest's zone; the calendar part is the same for all", async () => {
    const c = cal(seed)
    await c.ok('Event', 'POST', '/calendars/primary/events?sendUpdates=all', {
      json: {
        summary: 'Review',
        attendees: [{ email: 'ben@example.com' }, { email: 'cy@example.com' }, { email: 'guest@outside.test' }],
        ...timed('2026-03-06T15:00:00Z', '2026-03-06T16:00:00Z'),
      },
    })
    const ben = await invitations(c, 'ben')
    const cy = await invitations(c, 'cy')
    expect(ben.map((m) => m.subject)).toEqual([
      'Invitation: Review @ Fri Mar 6, 2026 3pm - 4pm (GMT) (ben@example.com)',
    ])
    expect(cy.map((m) => m.subject)).toEqual([
      'Invitation: Review @ Fri Mar 6, 2026 8:30pm - 9:30pm (GMT+5:30) (cy@example.com)',
    ])
    expect(ben[0]!.ics).toBe(cy[0]!.ics)
    const lines = ben[0]!.ics.replace(/\r\n[ \t]/g, '').split('\r\n')
    expect(lines.filter((l) => l.startsWith('ATTENDEE'))).toEqual(
      ['ben@example.com', 'cy@example.com', 'guest@outside.test'].map(
        (e) => `ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:${e}`,
      ),
    )
  })

  test('an invitation to two guests reads the world users once for the mails and once to keep the copies', async () => {
    const { h, ok } = cal(seed)
    await ok('Event', 'POST', '/calendars/primary/events', {
      json: { summary: 'Warm-up', ...timed('2026-03-06T15:00:00Z', '2026-03-06T16:00:00Z') },
    })
    const token = h.google('ann')
    const proto = Object.getPrototypeOf(h.entry.world.sqlite.prepare('SELECT 1')) as Record<string, unknown>
    const originals = Object.fromEntries(['run', 'get', 'all', 'iterate'].map((m) => [m, proto[m]]))
    const ran: string[] = []
    for (const [m, fn] of Object.entries(originals)) {
      proto[m] = function (this: { source: string }, ...args: unknown[]) {
        ran.push(this.source)
        return (fn as (...a: unknown[]) => unknown).apply(this, args)
      }
    }
    try {
      const res = await h.call('POST', '/calendar/v3/calendars/primary/events?sendUpdates=all', {
        token,
        json: {
          summary: 'Review',
          attendees: [{ email: 'ben@example.com' }, { email: 'cy@example.com' }],
          ...timed('2026-03-06T15:00:00Z', '2026-03-06T16:00:00Z'),
        },
      })
      expect(res.status).toBe(200)
    } finally {
      Object.assign(proto, originals)
    }
    // Copies (propagate), mails (notify), each delivery (Gmail, two): four reads of world_users. The answer's names
    // were kept by the warm-up's answer (world_users unwritten since, docs/decisions/0369).
    expect(ran.filter((s) => /FROM "?world_users"? /.test(s))).toHaveLength(4)
  })
})
