import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

// Decision 0392: a free/busy window is bounded as Google bounds it (400 timeRangeTooLong past 90 days here; a
// 1970-2100 window over 50 items expanded every series of the calendar). Listings over the same 130 years stay
// bounded by their page and the per-series instance cap, and answer 200.
const day = 86_400_000
const iso = (ms: number) => new Date(ms).toISOString()
const T0 = Date.UTC(2026, 2, 1)

describe('calendar.freebusy.query', () => {
  test('refuses a window of more than 90 days with timeRangeTooLong', async () => {
    const h = harness('demo')
    const items = Array.from({ length: 50 }, () => ({ id: 'primary' }))
    const long = await h.call('POST', '/calendar/v3/freeBusy', {
      json: { timeMin: '1970-01-01T00:00:00Z', timeMax: '2100-01-01T00:00:00Z', items },
    })
    expect(long.status).toBe(400)
    expect(long.body.error.errors[0]).toMatchObject({ reason: 'timeRangeTooLong' })
    expect(long.body.error.message).toBe('The requested time range is too long.')
    const over = await h.call('POST', '/calendar/v3/freeBusy', {
      json: { timeMin: iso(T0), timeMax: iso(T0 + 90 * day + 1), items },
    })
    expect(over.status).toBe(400)
    const ok = await h.call('POST', '/calendar/v3/freeBusy', {
      json: { timeMin: iso(T0), timeMax: iso(T0 + 90 * day), items },
    })
    expect(ok.status).toBe(200)
    expect(ok.body.calendars.primary.busy.length).toBeGreaterThan(0)
  })

  test('still answers timeRangeEmpty first for a reversed window', async () => {
    const h = harness('demo')
    const res = await h.call('POST', '/calendar/v3/freeBusy', {
      json: { timeMin: '2100-01-01T00:00:00Z', timeMax: '1970-01-01T00:00:00Z', items: [{ id: 'primary' }] },
    })
    expect(res.body.error.errors[0].reason).toBe('timeRangeEmpty')
  })
})

describe('calendar.events.list', () => {
  test('a daily series over 130 years lists a bounded page and its instances a bounded list', async () => {
    const h = harness('demo')
    const series = await h.call('POST', '/calendar/v3/calendars/primary/events', {
      json: {
        summary: 'daily',
        start: { dateTime: '1970-01-01T10:00:00Z', timeZone: 'UTC' },
        end: { dateTime: '1970-01-01T11:00:00Z', timeZone: 'UTC' },
        recurrence: ['RRULE:FREQ=DAILY'],
      },
    })
    expect(series.status).toBe(200)
    const w = 'timeMin=1970-01-01T00:00:00Z&timeMax=2100-01-01T00:00:00Z'
    const list = await h.call('GET', `/calendar/v3/calendars/primary/events?singleEvents=true&${w}&maxResults=9999`)
    expect(list.status).toBe(200)
    expect(list.body.items.length).toBeLessThanOrEqual(2500)
    const mine = list.body.items.filter((e: { recurringEventId?: string }) => e.recurringEventId === series.body.id)
    expect(mine).toHaveLength(730)
    const ordered = await h.call(
      'GET',
      `/calendar/v3/calendars/primary/events?singleEvents=true&orderBy=startTime&${w}`,
    )
    expect(ordered.status).toBe(200)
    expect(ordered.body.items).toHaveLength(250)
    expect(ordered.body.nextPageToken).toBeTruthy()
    const inst = await h.call('GET', `/calendar/v3/calendars/primary/events/${series.body.id}/instances?${w}`)
    expect(inst.status).toBe(200)
    expect(inst.body.items.length).toBeLessThanOrEqual(730)
  })
})
