import { describe, expect, test } from 'vitest'
import { cal } from './helpers.ts'
import { enc } from './fixtures.ts'

describe('calendar.calendars.get', () => {
  test('primary is the caller’s email with their time zone', async () => {
    const { ok } = cal()
    const c = await ok('Calendar', 'GET', '/calendars/primary')
    expect(c).toMatchObject({
      kind: 'calendar#calendar',
      id: 'ann@example.com',
      summary: 'ann@example.com',
      timeZone: 'America/New_York',
    })
    expect((await ok('Calendar', 'GET', '/calendars/primary', { as: 'ben' })).timeZone).toBe('Europe/London')
  })
  test('a calendar the caller cannot see is not found', async () => {
    const { fails, ok } = cal()
    const team = (await ok(null, 'GET', '/users/me/calendarList')).items.find(
      (e: { summary: string }) => e.summary === 'Team',
    ).id
    await fails(404, 'notFound', 'GET', `/calendars/${enc(team)}`, { as: 'cy' })
    await fails(404, 'notFound', 'GET', '/calendars/nobody%40example.com')
  })
})

describe('calendar.calendars.insert', () => {
  test('creates a secondary calendar owned by the caller, listed and with an owner rule', async () => {
    const { ok, fails } = cal()
    const c = await ok('Calendar', 'POST', '/calendars', { json: { summary: 'Hiring', timeZone: 'Europe/Paris' } })
    expect(c.id).toMatch(/^[0-9a-f]{64}@group\.calendar\.google\.com$/)
    expect(c.timeZone).toBe('Europe/Paris')
    const entry = await ok('CalendarListEntry', 'GET', `/users/me/calendarList/${enc(c.id)}`)
    expect(entry.accessRole).toBe('owner')
    const acl = await ok('Acl', 'GET', `/calendars/${enc(c.id)}/acl`)
    expect(acl.items.map((r: { id: string; role: string }) => `${r.id}=${r.role}`)).toEqual([
      'user:ann@example.com=owner',
    ])
    await fails(400, 'required', 'POST', '/calendars', { json: { description: 'no summary' } })
    await fails(400, 'invalid', 'POST', '/calendars', { json: { summary: 'x', timeZone: 'Mars/Olympus' } })
  })
})

describe('calendar.calendars.update', () => {
  test('replaces summary and clears fields left out', async () => {
    const { ok } = cal()
    const c = await ok('Calendar', 'POST', '/calendars', { json: { summary: 'A', description: 'd', location: 'L' } })
    const u = await ok('Calendar', 'PUT', `/calendars/${enc(c.id)}`, { json: { summary: 'B' } })
    expect(u.summary).toBe('B')
    expect(u.description).toBeUndefined()
    expect(u.etag).not.toBe(c.etag)
  })
})

describe('calendar.calendars.patch', () => {
  test('changes only given fields; a reader may not', async () => {
    const { ok, fails } = cal()
    const c = await ok('Calendar', 'POST', '/calendars', { json: { summary: 'A', description: 'keep' } })
    const p = await ok('Calendar', 'PATCH', `/calendars/${enc(c.id)}`, { json: { timeZone: 'Asia/Tokyo' } })
    expect(p).toMatchObject({ summary: 'A', description: 'keep', timeZone: 'Asia/Tokyo' })
    await ok('AclRule', 'POST', `/calendars/${enc(c.id)}/acl`, {
      json: { role: 'reader', scope: { type: 'user', value: 'cy@example.com' } },
    })
    await fails(403, 'requiredAccessLevel', 'PATCH', `/calendars/${enc(c.id)}`, { json: { summary: 'mine' }, as: 'cy' })
  })
})

describe('calendar.calendars.delete', () => {
  test('removes a secondary calendar; the primary cannot be deleted', async () => {
    const { ok, fails, call } = cal()
    const c = await ok('Calendar', 'POST', '/calendars', { json: { summary: 'Temp' } })
    expect((await call('DELETE', `/calendars/${enc(c.id)}`)).status).toBe(204)
    await fails(404, 'notFound', 'GET', `/calendars/${enc(c.id)}`)
    await fails(400, 'cannotDeletePrimaryCalendar', 'DELETE', '/calendars/primary')
  })
})

describe('calendar.calendars.clear', () => {
  test('cancels every event of the calendar', async () => {
    const { ok, call } = cal()
    expect((await call('POST', '/calendars/primary/clear')).status).toBe(204)
    expect((await ok('Events', 'GET', '/calendars/primary/events')).items).toEqual([])
    const deleted = await ok('Events', 'GET', '/calendars/primary/events?showDeleted=true')
    expect(deleted.items.every((e: { status: string }) => e.status === 'cancelled')).toBe(true)
    expect(deleted.items.length).toBeGreaterThan(0)
  })
})

describe('calendar.calendars.transferOwnership', () => {
  test('hands a secondary calendar to a colleague, who becomes owner', async () => {
    const { ok, fails } = cal()
    const c = await ok('Calendar', 'POST', '/calendars', { json: { summary: 'Handover' } })
    await fails(400, 'required', 'POST', `/calendars/${enc(c.id)}/transferOwnership`)
    await ok('Calendar', 'POST', `/calendars/${enc(c.id)}/transferOwnership?newOwnerEmail=ben%40example.com`)
    expect(
      (await ok('CalendarListEntry', 'GET', `/users/me/calendarList/${enc(c.id)}`, { as: 'ben' })).accessRole,
    ).toBe('owner')
    await fails(403, 'requiredAccessLevel', 'DELETE', `/calendars/${enc(c.id)}`)
  })
})
