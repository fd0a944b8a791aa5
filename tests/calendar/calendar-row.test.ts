import { describe, expect, test } from 'vitest'
import { cal } from './helpers.ts'
import { officeSeed, ROOM } from './fixtures.ts'
import { selectRows } from '../../envs/core/db.ts'
import { calendars } from '../../envs/calendar/schema.ts'
import { findCalendar, storedCalendar } from '../../envs/calendar/store/access.ts'
import { singleEvents, singleEventsPage } from '../../envs/calendar/store/window.ts'
import type { EventRow } from '../../envs/calendar/schema.ts'

// Per-call reads kept equal to what they replaced (docs/decisions/0313).

const seed = officeSeed

describe('storedCalendar', () => {
  test('reads every calendar row as selectRows does: the same keys in the same order, values and types', async () => {
    const { h, ok } = cal(seed)
    // A secondary calendar with a description and a location (nullable columns set), beside the primaries.
    const team = { summary: 'Team', description: 'Shared', location: 'HQ', timeZone: 'Europe/Paris' }
    await ok('Calendar', 'POST', '/calendars', { json: team })
    const db = h.entry.world.db
    const ids = db.$client.prepare('SELECT id FROM calendar_calendars ORDER BY rowid').pluck().all() as string[]
    expect(ids.length).toBeGreaterThan(3)
    for (const id of ids) {
      const drizzle = selectRows(db, calendars, { id })[0]!
      const row = storedCalendar(db, id)!
      expect(row).toStrictEqual(drizzle)
      expect(Object.keys(row)).toEqual(Object.keys(drizzle))
      expect(JSON.stringify(row)).toBe(JSON.stringify(drizzle))
    }
    expect(ids.map((id) => storedCalendar(db, id)!.isPrimary)).toContain(false)
    expect(ids.map((id) => storedCalendar(db, id)!.isPrimary)).toContain(true)
  })

  test('finds no stored row for a room or an unknown id; findCalendar still answers the room calendar', () => {
    const { h } = cal(seed)
    const db = h.entry.world.db
    expect(storedCalendar(db, ROOM)).toBeUndefined()
    expect(storedCalendar(db, 'nobody@example.com')).toBeUndefined()
    expect(findCalendar(db, ROOM)).toMatchObject({ id: ROOM, ownerId: 'resource', isPrimary: false })
    expect(findCalendar(db, 'nobody@example.com')).toBeUndefined()
  })
})

describe('calendar.events.insert', () => {
  test('mails the guests who are world users with sendUpdates=all, and nobody without it', async () => {
    const { h, ok } = cal(seed)
    const inbox = () => h.entry.world.db.$client.prepare('SELECT count(*) FROM gmail_messages').pluck().get() as number
    const event = (summary: string) => ({
      summary,
      attendees: [{ email: 'ben@example.com' }],
      start: { dateTime: '2026-03-10T10:00:00Z' },
      end: { dateTime: '2026-03-10T11:00:00Z' },
    })
    const before = inbox()
    await ok('Event', 'POST', '/calendars/primary/events', { json: event('Quiet') })
    await ok('Event', 'POST', '/calendars/primary/events?sendUpdates=none', { json: event('Quiet too') })
    expect(inbox()).toBe(before)
    await ok('Event', 'POST', '/calendars/primary/events?sendUpdates=all', { json: event('Told') })
    expect(inbox()).toBe(before + 1)
  })
})

describe('singleEventsPage', () => {
  test('pages a calendar without series as the eager listing orders it, with the same more flag', async () => {
    const { h, ok } = cal({ ...seed, calendar: { events: [] } })
    const at = (day: number, hour: number) =>
      `2026-06-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00Z`
    const ids: string[] = []
    // Ties in start time (ordered by id), a zero-length event, an all-day event and a cancelled one.
    for (let i = 0; i < 14; i++) {
      const start = at(1 + (i % 5), 9 + (i % 3))
      const end = i === 3 ? start : at(1 + (i % 5), 10 + (i % 3))
      const json = { summary: `e${i}`, start: { dateTime: start }, end: { dateTime: end } }
      ids.push((await ok('Event', 'POST', '/calendars/primary/events', { json })).id)
    }
    const day = { summary: 'day', start: { date: '2026-06-02' }, end: { date: '2026-06-03' } }
    await ok('Event', 'POST', '/calendars/primary/events', { json: day })
    await ok(null, 'DELETE', `/calendars/primary/events/${ids[5]}`)
    const db = h.entry.world.db
    const w = { min: Date.parse('2026-06-01T00:00:00Z'), max: Date.parse('2026-06-05T00:00:00Z') }
    for (const showDeleted of [false, true]) {
      const keep = (r: EventRow) => r.id !== ids[7]
      const eager = singleEvents(db, 'ann@example.com', w, showDeleted).filter(keep)
      expect(eager.length).toBeGreaterThan(10)
      for (let offset = 0; offset <= eager.length + 1; offset += 3) {
        for (const count of [1, 2, 5, 250]) {
          const answer = singleEventsPage(db, 'ann@example.com', w, showDeleted, keep, offset, count)
          // Without a series the page is answered at once, not through a promise (docs/decisions/0380).
          expect(answer).not.toBeInstanceOf(Promise)
          const got = await answer
          expect(got.page).toEqual(eager.slice(offset, offset + count))
          expect(got.more).toBe(eager.length > offset + count)
          expect(got.seriesOf.size).toBe(0)
        }
      }
    }
  })

  test('merges series through a promise into the eager listing order, instances mapped to their series', async () => {
    const { h, ok } = cal({ ...seed, calendar: { events: [] } })
    const one = (day: number, hour: number, summary: string) => ({
      summary,
      start: { dateTime: `2026-06-0${day}T${String(hour).padStart(2, '0')}:00:00Z`, timeZone: 'UTC' },
      end: { dateTime: `2026-06-0${day}T${String(hour + 1).padStart(2, '0')}:00:00Z`, timeZone: 'UTC' },
    })
    for (let i = 0; i < 6; i++) await ok('Event', 'POST', '/calendars/primary/events', { json: one(1 + i, 9, `e${i}`) })
    const daily = { ...one(1, 9, 'daily'), recurrence: ['RRULE:FREQ=DAILY;COUNT=5'] }
    const series = (await ok('Event', 'POST', '/calendars/primary/events', { json: daily })).id
    await ok('Event', 'POST', '/calendars/primary/events', {
      json: { ...one(2, 8, 'weekly'), recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] },
    })
    const db = h.entry.world.db
    const w = { min: Date.parse('2026-06-01T00:00:00Z'), max: Date.parse('2026-06-08T00:00:00Z') }
    const keep = () => true
    const eager = singleEvents(db, 'ann@example.com', w, false)
    expect(eager.length).toBe(6 + 5 + 1)
    for (const [offset, count] of [
      [0, 250],
      [0, 4],
      [3, 5],
      [10, 5],
    ] as const) {
      const answer = singleEventsPage(db, 'ann@example.com', w, false, keep, offset, count)
      expect(answer).toBeInstanceOf(Promise)
      const got = await answer
      expect(got.page).toEqual(eager.slice(offset, offset + count))
      expect(got.more).toBe(eager.length > offset + count)
      for (const r of got.page) expect(got.seriesOf.get(r)?.id).toBe(r.recurringEventId ?? undefined)
    }
    const all = await singleEventsPage(db, 'ann@example.com', w, false, keep, 0, 250)
    expect(all.page.filter((r) => r.recurringEventId === series)).toHaveLength(5)
  })
})
