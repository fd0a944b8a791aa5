import { describe, expect, test } from 'vitest'
import { cal, timed } from './helpers.ts'
import { enc } from './fixtures.ts'

type Item = { id: string; summary?: string; description?: string; visibility?: string; start?: unknown }

/**
 * A calendar of Ann's shared with Ben as reader and with Cy as freeBusyReader, holding one event of each visibility
 * (a private one with Ben as guest, and a private weekly series).
 */
async function sharedCalendar() {
  const c = cal()
  const id = (await c.ok('Calendar', 'POST', '/calendars', { json: { summary: 'Planning' } })).id as string
  const path = `/calendars/${enc(id)}`
  for (const [role, user] of [
    ['reader', 'ben'],
    ['freeBusyReader', 'cy'],
  ])
    await c.ok('AclRule', 'POST', `${path}/acl`, {
      json: { role, scope: { type: 'user', value: `${user}@example.com` } },
    })
  const add = async (summary: string, visibility: string | undefined, day: number, extra: object = {}) =>
    (
      await c.ok('Event', 'POST', `${path}/events`, {
        json: {
          summary,
          description: `${summary} notes`,
          ...(visibility ? { visibility } : {}),
          ...timed(`2026-03-0${day}T10:00:00`, `2026-03-0${day}T11:00:00`, 'UTC'),
          ...extra,
        },
      })
    ).id as string
  const ids = {
    standup: await add('Standup', undefined, 2),
    doctor: await add('Doctor visit', 'private', 3),
    review: await add('Salary review', 'private', 4, { attendees: [{ email: 'ben@example.com' }] }),
    townHall: await add('Town hall', 'public', 5),
    board: await add('Board prep', 'confidential', 6),
    therapy: await add('Therapy', 'private', 7, { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] }),
  }
  return { ...c, path, ids }
}

const byId = (items: Item[]) => new Map(items.map((e) => [e.id, e]))

describe('event visibility against the viewer’s role', () => {
  test('a reader reads every event but the private and confidential ones it is no guest of', async () => {
    const { ok, path, ids } = await sharedCalendar()
    const seen = byId((await ok('Events', 'GET', `${path}/events`, { as: 'ben' })).items)
    expect(seen.get(ids.standup)?.summary).toBe('Standup')
    expect(seen.get(ids.review)?.description).toBe('Salary review notes')
    expect(seen.get(ids.townHall)?.summary).toBe('Town hall')
    for (const hidden of [ids.doctor, ids.board, ids.therapy]) {
      const e = seen.get(hidden)!
      // A busy block: its times and visibility, none of its text.
      expect(e.start).toBeDefined()
      expect(e.summary).toBeUndefined()
      expect(e.description).toBeUndefined()
      expect(['private', 'confidential']).toContain(e.visibility)
    }
    const one = await ok('Event', 'GET', `${path}/events/${ids.doctor}`, { as: 'ben' })
    expect(one.summary).toBeUndefined()
    const instances = await ok('Events', 'GET', `${path}/events/${ids.therapy}/instances`, { as: 'ben' })
    expect(instances.items).toHaveLength(3)
    expect(instances.items.every((e: Item) => e.summary === undefined)).toBe(true)
    const single = await ok('Events', 'GET', `${path}/events?singleEvents=true&orderBy=startTime`, { as: 'ben' })
    expect(single.items.filter((e: Item) => e.summary === 'Therapy')).toEqual([])
  })

  test('a freeBusyReader reads a public event’s details and only the times of the rest', async () => {
    const { ok, path, ids } = await sharedCalendar()
    const seen = byId((await ok('Events', 'GET', `${path}/events`, { as: 'cy' })).items)
    expect(seen.get(ids.townHall)).toMatchObject({ summary: 'Town hall', description: 'Town hall notes' })
    for (const hidden of [ids.standup, ids.doctor, ids.review, ids.board])
      expect(seen.get(hidden)?.summary, hidden).toBeUndefined()
    expect((await ok('Event', 'GET', `${path}/events/${ids.townHall}`, { as: 'cy' })).summary).toBe('Town hall')
  })

  test('the owner reads everything', async () => {
    const { ok, path, ids } = await sharedCalendar()
    const seen = byId((await ok('Events', 'GET', `${path}/events`)).items)
    for (const [name, id] of Object.entries(ids)) expect(seen.get(id)?.summary, name).toBeDefined()
  })

  test('text and property filters match only the events whose details the caller reads', async () => {
    const { ok, path, ids } = await sharedCalendar()
    const q = async (as: string, query: string) =>
      (await ok('Events', 'GET', `${path}/events?${query}`, { as })).items.map((e: Item) => e.id)
    expect(await q('ben', 'q=Doctor')).toEqual([])
    expect(await q('ann', 'q=Doctor')).toEqual([ids.doctor])
    expect(await q('ben', 'q=Salary')).toEqual([ids.review])
    expect(await q('cy', 'q=Standup')).toEqual([])
    expect(await q('cy', 'q=Town')).toEqual([ids.townHall])
    expect(await q('ben', 'q=Therapy&singleEvents=true')).toEqual([])
  })
})
