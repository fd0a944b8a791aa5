import { describe, expect, test } from 'vitest'
import { cal } from './helpers.ts'
import { enc } from './fixtures.ts'

const teamOf = async (ok: ReturnType<typeof cal>['ok'], as = 'ann') =>
  (await ok(null, 'GET', '/users/me/calendarList', { as })).items.find((e: { summary: string }) => e.summary === 'Team')

describe('calendar.calendarList.list', () => {
  test('lists the primary and subscribed calendars with the caller’s access role', async () => {
    const { ok } = cal()
    const ann = await ok('CalendarList', 'GET', '/users/me/calendarList')
    expect(ann.items.map((e: { summary: string; accessRole: string }) => `${e.summary}:${e.accessRole}`)).toEqual([
      'ann@example.com:owner',
      'Team:owner',
    ])
    expect(ann.items[0].primary).toBe(true)
    const ben = await ok('CalendarList', 'GET', '/users/me/calendarList', { as: 'ben' })
    expect(ben.items.map((e: { summary: string; accessRole: string }) => `${e.summary}:${e.accessRole}`)).toEqual([
      'ben@example.com:owner',
      'Team:writer',
    ])
    expect(
      (await ok('CalendarList', 'GET', '/users/me/calendarList?minAccessRole=owner', { as: 'ben' })).items,
    ).toHaveLength(1)
  })
  test('a sync token returns only entries changed since', async () => {
    const { ok } = cal()
    const first = await ok('CalendarList', 'GET', '/users/me/calendarList')
    const team = await teamOf(ok)
    await ok(null, 'PATCH', `/users/me/calendarList/${enc(team.id)}`, { json: { summaryOverride: 'My team' } })
    const next = await ok('CalendarList', 'GET', `/users/me/calendarList?syncToken=${first.nextSyncToken}`)
    expect(next.items.map((e: { summaryOverride?: string }) => e.summaryOverride)).toEqual(['My team'])
  })
})

describe('calendar.calendarList.get', () => {
  test('answers primary and 404 for a calendar not in the list', async () => {
    const { ok, fails } = cal()
    expect((await ok('CalendarListEntry', 'GET', '/users/me/calendarList/primary')).id).toBe('ann@example.com')
    await fails(404, 'notFound', 'GET', `/users/me/calendarList/${enc('cy@example.com')}`)
  })
})

describe('calendar.calendarList.insert', () => {
  test('subscribes to a calendar the caller can see; not to others', async () => {
    const { ok, fails, call } = cal()
    const c = await ok('Calendar', 'POST', '/calendars', { json: { summary: 'Public' } })
    await fails(404, 'notFound', 'POST', '/users/me/calendarList', { json: { id: c.id }, as: 'cy' })
    await call('POST', `/calendars/${enc(c.id)}/acl`, { json: { role: 'reader', scope: { type: 'default' } } })
    const e = await ok('CalendarListEntry', 'POST', '/users/me/calendarList', {
      json: { id: c.id, colorId: '3' },
      as: 'cy',
    })
    expect(e).toMatchObject({ accessRole: 'reader', colorId: '3', backgroundColor: '#f83a22' })
  })
})

describe('calendar.calendarList.update', () => {
  test('sets display settings; RGB colours need colorRgbFormat', async () => {
    const { ok, fails } = cal()
    const team = await teamOf(ok)
    await fails(400, 'invalid', 'PUT', `/users/me/calendarList/${enc(team.id)}`, {
      json: { backgroundColor: '#123456' },
    })
    const e = await ok('CalendarListEntry', 'PUT', `/users/me/calendarList/${enc(team.id)}?colorRgbFormat=true`, {
      json: { backgroundColor: '#123456', foregroundColor: '#ffffff', hidden: true },
    })
    expect(e).toMatchObject({ backgroundColor: '#123456', hidden: true })
    expect(e.selected).toBeUndefined()
  })
})

describe('calendar.calendarList.patch', () => {
  test('changes reminders and leaves the rest', async () => {
    const { ok } = cal()
    const e = await ok('CalendarListEntry', 'PATCH', '/users/me/calendarList/primary', {
      json: { defaultReminders: [{ method: 'email', minutes: 10 }] },
    })
    expect(e.defaultReminders).toEqual([{ method: 'email', minutes: 10 }])
    expect(e.colorId).toBe('14')
  })
})

describe('calendar.calendarList.delete', () => {
  test('unsubscribes; hidden from list but still accessible; primary stays', async () => {
    const { ok, fails, call } = cal()
    const team = await teamOf(ok, 'ben')
    expect((await call('DELETE', `/users/me/calendarList/${enc(team.id)}`, { as: 'ben' })).status).toBe(204)
    expect(await teamOf(ok, 'ben')).toBeUndefined()
    await ok('Calendar', 'GET', `/calendars/${enc(team.id)}`, { as: 'ben' })
    await fails(400, 'cannotRemovePrimaryCalendar', 'DELETE', '/users/me/calendarList/primary')
  })
})
