import { describe, expect, test } from 'vitest'
import { Rng } from '../../envs/core/rng.ts'
import { harness } from '../../envs/core/testing/harness.ts'
import { CalendarSeed } from '../../envs/calendar/seed.ts'
import { demoCalendar, largeCalendar } from '../../seeds/demo/calendar.ts'
import { DEMO_DOMAIN, DEMO_NOW, demoExternals, demoUsers } from '../../seeds/demo/people.ts'
import { largeSeed } from '../../seeds/large/index.ts'

const ctx = (seed = 1) => ({ rng: new Rng(seed), users: demoUsers, now: DEMO_NOW, domain: DEMO_DOMAIN })

describe('large calendar slice', () => {
  test('holds 1,000 events: the demo ones, then one-off meetings, all-day entries and series', () => {
    const slice = CalendarSeed.parse(largeCalendar(ctx()))
    expect(slice.events).toHaveLength(1000)
    expect(JSON.stringify(slice.events.slice(0, demoCalendar(ctx()).events.length))).toBe(
      JSON.stringify(CalendarSeed.parse(demoCalendar(ctx())).events),
    )
    expect(slice.events.filter((e) => e.recurrence).length).toBeGreaterThanOrEqual(30)
    expect(slice.events.filter((e) => e.start.date).length).toBeGreaterThanOrEqual(50)
    expect(slice.events.filter((e) => e.attendees.length).length).toBeGreaterThanOrEqual(500)
    const known = new Set([...demoUsers.map((u) => u.id), ...demoExternals.map((x) => x.email)])
    expect(slice.events.flatMap((e) => e.attendees.map((a) => a.user)).filter((u) => !known.has(u))).toEqual([])
    expect(new Set(slice.events.map((e) => e.calendar))).toEqual(
      new Set([...demoUsers.map((u) => u.id), 'team', 'oncall']),
    )
  })

  test('is the same for the same seed value and differs for another', () => {
    expect(JSON.stringify(largeCalendar(ctx(1)))).toBe(JSON.stringify(largeCalendar(ctx(1))))
    expect(JSON.stringify(largeCalendar(ctx(1)))).not.toBe(JSON.stringify(largeCalendar(ctx(2))))
  })

  test('the large seed carries it', () => {
    expect((largeSeed(1).calendar as { events: unknown[] }).events).toHaveLength(1000)
  })

  test('seeds into a world whose users list their meetings and series instances', async () => {
    const h = harness({
      name: 'large-calendar',
      now: DEMO_NOW,
      domain: DEMO_DOMAIN,
      users: demoUsers,
      calendar: largeCalendar(ctx()),
    })
    let total = 0
    for (const u of demoUsers) {
      const res = await h.call(
        'GET',
        '/calendar/v3/calendars/primary/events?singleEvents=true&orderBy=startTime&timeMin=2026-03-02T00:00:00Z&timeMax=2026-03-07T00:00:00Z&maxResults=2500',
        { token: h.google(u.id) },
      )
      expect(res.status).toBe(200)
      expect(res.body.items.some((e: { recurringEventId?: string }) => e.recurringEventId)).toBe(true)
      total += res.body.items.length
    }
    // A week of meetings for five people, guests' copies included.
    expect(total).toBeGreaterThan(100)
  }, 60_000)
})
