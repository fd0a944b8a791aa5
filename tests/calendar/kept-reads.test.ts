import { describe, expect, test } from 'vitest'
import { C, cal } from './helpers.ts'
import { storedCalendar } from '../../envs/calendar/store/access.ts'
import { namesOf } from '../../envs/calendar/map.ts'

// A calendar's row and the world users' names are kept per connection while their tables are unwritten
// (docs/decisions/0369): every write to them, through any path, is seen by the very next request.

const event = (summary: string, attendees?: { email: string }[]) => ({
  summary,
  start: { dateTime: '2026-03-05T10:00:00Z' },
  end: { dateTime: '2026-03-05T11:00:00Z' },
  ...(attendees ? { attendees } : {}),
})
const CALENDAR_READ = /FROM calendar_calendars WHERE id = \?/
const NAMES_READ = /SELECT email, name FROM world_users/

describe('calendar row and names kept while unwritten', () => {
  test('an insert after the first reads neither the calendar row nor the names', async () => {
    const { h, ok } = cal()
    await ok('Event', 'POST', '/calendars/primary/events', { json: event('first') })
    const proto = Object.getPrototypeOf(h.entry.world.sqlite.prepare('SELECT 1')) as Record<string, unknown>
    const originals = Object.fromEntries(['run', 'get', 'all', 'iterate'].map((m) => [m, proto[m]]))
    const sql: string[] = []
    for (const [m, fn] of Object.entries(originals)) {
      proto[m] = function (this: { source: string }, ...args: unknown[]) {
        sql.push(this.source)
        return (fn as (...a: unknown[]) => unknown).apply(this, args)
      }
    }
    let result: { summary: string }
    try {
      result = await ok('Event', 'POST', '/calendars/primary/events', { json: event('2') })
    } finally {
      Object.assign(proto, originals)
    }
    expect(sql.some((q) => q.includes('INSERT INTO "calendar_events"'))).toBe(true)
    expect(result.summary).toBe('2')
    expect(sql.filter((q) => CALENDAR_READ.test(q) || NAMES_READ.test(q))).toEqual([])
    // Kept values are frozen (the calendar row) or read-only and shared (the names).
    const db = h.entry.world.db
    expect(Object.isFrozen(storedCalendar(db, 'ann@example.com'))).toBe(true)
    expect(namesOf(db)).toBe(namesOf(db))
  })

  test("answers a calendar's patch, a raw write and its deletion at the very next request", async () => {
    const { h, ok, fails } = cal()
    const team = await ok('Calendar', 'POST', '/calendars', { json: { summary: 'Team B', timeZone: 'UTC' } })
    const path = `/calendars/${encodeURIComponent(team.id)}`
    expect((await ok('Calendar', 'GET', path)).summary).toBe('Team B')
    await ok('Calendar', 'PATCH', path, { json: { summary: 'Team C', timeZone: 'Asia/Tokyo' } })
    expect(await ok('Calendar', 'GET', path)).toMatchObject({ summary: 'Team C', timeZone: 'Asia/Tokyo' })
    // The zone the insert renders in is the calendar's as stored now.
    const inserted = await ok('Event', 'POST', `${path}/events`, { json: event('in Tokyo') })
    expect(inserted.start.dateTime).toBe('2026-03-05T19:00:00+09:00')
    h.entry.world.sqlite.prepare("UPDATE calendar_calendars SET summary = 'Raw' WHERE id = ?").run(team.id)
    expect((await ok('Calendar', 'GET', path)).summary).toBe('Raw')
    await ok(null, 'DELETE', path)
    await fails(404, 'notFound', 'POST', `${path}/events`, { json: event('gone') })
  })

  test("renders a world user's new name (creator, organizer) at the very next request", async () => {
    const { h, ok } = cal()
    const made = await ok('Event', 'POST', '/calendars/primary/events', {
      json: event('with Ben', [{ email: 'ben@example.com' }]),
    })
    const get = () => ok('Event', 'GET', `/calendars/primary/events/${made.id}`)
    expect((await get()).creator.displayName).toBe('Ann Lee')
    h.entry.world.sqlite.prepare("UPDATE world_users SET name = 'Annie Lee' WHERE id = 'ann'").run()
    expect((await get()).creator).toMatchObject({ email: 'ann@example.com', displayName: 'Annie Lee' })
    const listed = await h.call('GET', `${C}/calendars/primary/events?q=with`, { token: h.google('ann') })
    expect(listed.body.items[0].organizer.displayName).toBe('Annie Lee')
  })

  test('keeps nothing read inside a transaction (a rollback there cannot leave a stale row)', () => {
    const { h } = cal()
    const world = h.entry.world
    world.tx((db) => {
      db.$client.prepare("UPDATE calendar_calendars SET summary = 'Inside' WHERE id = 'ann@example.com'").run()
      expect(storedCalendar(db, 'ann@example.com')!.summary).toBe('Inside')
      db.$client.prepare("UPDATE calendar_calendars SET summary = 'Later undone' WHERE id = 'ann@example.com'").run()
      world.sqlite.exec("SAVEPOINT s; UPDATE world_users SET name = 'X' WHERE id = 'ben'")
      expect(namesOf(db).get('ben@example.com')).toBe('X')
      world.sqlite.exec('ROLLBACK TO s; RELEASE s')
    })
    expect(storedCalendar(world.db, 'ann@example.com')!.summary).toBe('Later undone')
    expect(namesOf(world.db).get('ben@example.com')).toBe('Ben Ode')
  })
})
