import { describe, expect, it } from 'vitest'
import { cal, timed, type Cal } from './helpers.ts'
import { singleEvents } from '../../envs/calendar/store/window.ts'
import type { EventRow } from '../../envs/calendar/schema.ts'

// A listing's window rows are kept while calendar_events is unwritten (docs/decisions/0319). Each listing below is
// answered from kept rows, then again on a restored copy of the same contents (a new connection: nothing kept,
// every row read): the bytes must be the same after every kind of write.
const WEEK = '?singleEvents=true&orderBy=startTime&timeMin=2026-03-02T00:00:00Z&timeMax=2026-03-09T00:00:00Z'
const LISTINGS = [
  `/calendars/primary/events${WEEK}`,
  `/calendars/primary/events${WEEK}&showDeleted=true`,
  '/calendars/primary/events?singleEvents=true&timeMin=2026-03-01T00:00:00Z&timeMax=2026-04-01T00:00:00Z',
  '/calendars/primary/events?singleEvents=true&orderBy=startTime&timeMin=2026-03-02T00:00:00Z&maxResults=2',
  `/calendars/ann%40example.com/events${WEEK}&timeZone=Asia/Tokyo`,
]

/** Every listing as ann and ben, answered twice (the second from kept rows), then on a fresh connection. */
async function same(t: Cal, why: string) {
  const answers: string[] = []
  for (const as of ['ann', 'ben']) {
    for (const path of LISTINGS) {
      const first = await t.call('GET', path, { as })
      const again = await t.call('GET', path, { as })
      expect(again.text, `${why}: ${path}`).toBe(first.text)
      answers.push(first.text)
    }
  }
  const world = t.h.entry.world
  world.restore(world.snapshot())
  let i = 0
  for (const as of ['ann', 'ben']) {
    for (const path of LISTINGS) expect((await t.call('GET', path, { as })).text, `${why}: ${path}`).toBe(answers[i++])
  }
}

describe('calendar.events.list', () => {
  it('answers from kept rows what it answers from the table, after every kind of event write', async () => {
    const t = cal()
    await same(t, 'seeded')
    const json = { summary: 'New', ...timed('2026-03-05T09:00:00Z', '2026-03-05T10:00:00Z') }
    const made = await t.ok('Event', 'POST', '/calendars/primary/events', { json })
    await same(t, 'insert')
    await t.ok('Event', 'PATCH', `/calendars/primary/events/${made.id}`, { json: { summary: 'Renamed' } })
    await same(t, 'patch')
    const week = (await t.ok('Events', 'GET', `/calendars/primary/events${WEEK}`)).items
    const instance = week.find((e: { recurringEventId?: string }) => e.recurringEventId)
    await t.ok('Event', 'PATCH', `/calendars/primary/events/${instance.id}`, { json: { summary: 'One sync moved' } })
    await same(t, 'instance edit')
    const invite = {
      summary: 'Invite',
      attendees: [{ email: 'ben@example.com' }],
      ...timed('2026-03-06T15:00:00Z', '2026-03-06T16:00:00Z'),
    }
    const inv = await t.ok('Event', 'POST', '/calendars/primary/events', { json: invite })
    await same(t, 'invitation')
    const answer = { attendees: [{ email: 'ben@example.com', responseStatus: 'accepted' }] }
    await t.ok('Event', 'PATCH', `/calendars/primary/events/${inv.id}`, { json: answer, as: 'ben' })
    await same(t, 'guest answer')
    expect((await t.call('DELETE', `/calendars/primary/events/${made.id}`)).status).toBe(204)
    await same(t, 'delete')
    await t.ok('Event', 'POST', `/calendars/primary/events/${inv.id}/move?destination=ann%40example.com`)
    await same(t, 'move')
  })

  it('hands the same frozen rows to a listing asked again, and never rows read in an undone transaction', () => {
    const t = cal()
    const client = t.h.entry.world.db.$client
    const w = { min: Date.parse('2026-03-02T00:00:00Z'), max: Date.parse('2026-03-09T00:00:00Z') }
    const rows = () => singleEvents(t.h.entry.world.db, 'ann@example.com', w, false)
    const first = rows()
    const plain = first.filter((r) => !r.recurringEventId)
    expect(plain.length).toBeGreaterThan(0)
    const again = rows()
    for (const r of plain) expect(again).toContain(r)
    expect(Object.isFrozen(plain[0])).toBe(true)
    let inside: EventRow[] = []
    const undone = client.transaction(() => {
      client.prepare('UPDATE calendar_events SET start_ms = start_ms + 1 WHERE calendar_id = ?').run('ann@example.com')
      inside = rows()
      throw new Error('undo')
    })
    expect(undone).toThrow('undo')
    expect(inside.map((r) => r.startMs)).not.toEqual(first.map((r) => r.startMs))
    const after = rows()
    expect(after.map((r) => r.startMs)).toEqual(first.map((r) => r.startMs))
    expect(after).toEqual(first)
  })
})
