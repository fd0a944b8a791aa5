import { describe, expect, test } from 'vitest'
import { cal, timed } from './helpers.ts'

// Bugs the sequence fuzzer found (tests/robustness/fuzz/, docs/decisions/0442), each reduced to its shortest run.

type Ev = { id: string; status: string }

describe('calendar.events.list', () => {
  test('a sync continued with the next pageToken alone visits each change once and misses none', async () => {
    const { ok } = cal()
    const full = await ok('Events', 'GET', '/calendars/primary/events')
    const made: string[] = []
    for (const day of ['05', '06', '07']) {
      const at = `2026-03-${day}T09:00:00Z`
      made.push(
        (await ok('Event', 'POST', '/calendars/primary/events', { json: timed(at, at.replace('09', '10')) })).id,
      )
    }
    const seen: string[] = []
    let page = await ok('Events', 'GET', `/calendars/primary/events?syncToken=${full.nextSyncToken}&maxResults=1`)
    seen.push(...page.items.map((e: Ev) => e.id))
    while (page.nextPageToken) {
      page = await ok('Events', 'GET', `/calendars/primary/events?pageToken=${page.nextPageToken}&maxResults=1`)
      seen.push(...page.items.map((e: Ev) => e.id))
    }
    expect(seen.sort()).toEqual(made.sort())
    // The token the last page hands out starts after these changes.
    expect((await ok('Events', 'GET', `/calendars/primary/events?syncToken=${page.nextSyncToken}`)).items).toEqual([])
  })
})

describe('a guest added to a series (docs/decisions/0448)', () => {
  test('does not get the instances the organizer cancelled before', async () => {
    const { ok } = cal()
    const series = await ok('Event', 'POST', '/calendars/primary/events', {
      json: {
        ...timed('2026-05-04T09:00:00Z', '2026-05-04T10:00:00Z', 'UTC'),
        recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
      },
    })
    const [, second] = (await ok('Events', 'GET', `/calendars/primary/events/${series.id}/instances`)).items
    await ok(null, 'DELETE', `/calendars/primary/events/${second.id}`)
    await ok('Event', 'PATCH', `/calendars/primary/events/${series.id}`, {
      json: { attendees: [{ email: 'ben@example.com' }] },
    })
    const path = `/calendars/primary/events/${series.id}/instances`
    const mine = (await ok('Events', 'GET', path)).items.map((e: Ev) => e.id)
    const his = (await ok('Events', 'GET', path, { as: 'ben' })).items.map((e: Ev) => e.id)
    expect(mine).toHaveLength(2)
    expect(his).toEqual(mine)
    const got = await ok('Event', 'GET', `/calendars/primary/events/${second.id}`, { as: 'ben' })
    expect(got.status).toBe('cancelled')
  })
})
