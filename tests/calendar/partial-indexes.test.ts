import { describe, expect, it } from 'vitest'
import { cal, timed } from './helpers.ts'

// The series and exception indexes hold only series and exceptions (docs/decisions/0411): a one-off event, most of
// a calendar, writes no entry in either. The window listing's reads of series and exceptions still use them.
const WEEK = '?singleEvents=true&orderBy=startTime&timeMin=2026-03-02T00:00:00Z&timeMax=2026-03-09T00:00:00Z'

describe('calendar.events.list', () => {
  it('lists one-off events, series instances and exceptions with the partial series and exception indexes', async () => {
    const t = cal()
    const one = await t.call('POST', '/calendars/primary/events', {
      json: { summary: 'one-off', ...timed('2026-03-03T09:00:00Z', '2026-03-03T10:00:00Z') },
    })
    expect(one.status).toBe(200)
    const daily = {
      summary: 'daily',
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
      ...timed('2026-03-03T11:00:00', '2026-03-03T12:00:00', 'UTC'),
    }
    const series = await t.call('POST', '/calendars/primary/events', { json: daily })
    expect(series.status).toBe(200)
    const instances = await t.call('GET', `/calendars/primary/events/${series.body.id}/instances`)
    const second = instances.body.items[1]
    const moved = await t.call('PATCH', `/calendars/primary/events/${second.id}`, { json: { summary: 'moved' } })
    expect(moved.status).toBe(200)
    const list = await t.call('GET', `/calendars/primary/events${WEEK}`)
    const summaries = (list.body.items as { summary: string }[]).map((e) => e.summary)
    expect(summaries.filter((s) => s === 'daily')).toHaveLength(2) // the third of three is the moved one
    expect(summaries).toContain('moved')
    expect(summaries).toContain('one-off')

    const sqlite = t.h.entry.world.sqlite
    const plan = (q: string) =>
      (sqlite.prepare(`EXPLAIN QUERY PLAN ${q}`).all('primary') as { detail: string }[]).map((p) => p.detail).join()
    expect(plan('SELECT id FROM calendar_events WHERE calendar_id = ? AND recurrence IS NOT NULL')).toMatch(
      /INDEX calendar_events_by_series/,
    )
    expect(plan('SELECT id FROM calendar_events WHERE calendar_id = ? AND recurring_event_id IS NOT NULL')).toMatch(
      /INDEX calendar_events_by_parent/,
    )
    const ddl = sqlite
      .prepare("SELECT sql FROM sqlite_master WHERE name IN ('calendar_events_by_series', 'calendar_events_by_parent')")
      .pluck()
      .all() as string[]
    expect(ddl.map((s) => / WHERE "(recurrence|recurring_event_id)" IS NOT NULL$/.test(s))).toEqual([true, true])
  })
})
