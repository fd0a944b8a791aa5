import { describe, expect, test } from 'vitest'
import { cal, timed } from './helpers.ts'
import { enc } from './fixtures.ts'
import { calendar } from '../../envs/calendar/index.ts'

const hook = (id: string) => ({ id, type: 'web_hook', address: 'https://hooks.example.com/cal', token: 'tok' })

describe('calendar.colors.get', () => {
  test('answers the fixed palette', async () => {
    const { ok } = cal()
    const c = await ok('Colors', 'GET', '/colors')
    expect(Object.keys(c.calendar)).toHaveLength(24)
    expect(c.event['11']).toEqual({ background: '#dc2127', foreground: '#1d1d1d' })
  })
})

describe('calendar.settings.list', () => {
  test('lists settings with the user’s time zone', async () => {
    const { ok } = cal()
    const s = await ok('Settings', 'GET', '/users/me/settings', { as: 'ben' })
    expect(s.items.find((x: { id: string }) => x.id === 'timezone').value).toBe('Europe/London')
  })
})

describe('calendar.settings.get', () => {
  test('answers one setting; the time zone follows the primary calendar', async () => {
    const { ok, fails } = cal()
    expect((await ok('Setting', 'GET', '/users/me/settings/timezone')).value).toBe('America/New_York')
    await ok('Calendar', 'PATCH', '/calendars/primary', { json: { timeZone: 'Asia/Tokyo' } })
    expect((await ok('Setting', 'GET', '/users/me/settings/timezone')).value).toBe('Asia/Tokyo')
    await fails(404, 'notFound', 'GET', '/users/me/settings/noSuchSetting')
  })
})

describe('calendar.freebusy.query', () => {
  test('merges busy time across events and reports calendars the caller cannot see', async () => {
    const { ok, call } = cal()
    await ok('Event', 'POST', '/calendars/primary/events', {
      json: timed('2026-03-04T17:30:00Z', '2026-03-04T18:30:00Z'),
    })
    await ok('Event', 'POST', '/calendars/primary/events', {
      json: { transparency: 'transparent', ...timed('2026-03-04T20:00:00Z', '2026-03-04T21:00:00Z') },
    })
    const team = (await ok(null, 'GET', '/users/me/calendarList')).items.find(
      (e: { summary: string }) => e.summary === 'Team',
    ).id
    const fb = await ok('FreeBusyResponse', 'POST', '/freeBusy', {
      as: 'cy',
      json: {
        timeMin: '2026-03-04T00:00:00Z',
        timeMax: '2026-03-05T00:00:00Z',
        items: [{ id: 'ann@example.com' }, { id: team }],
      },
    })
    expect(fb.calendars['ann@example.com'].busy).toEqual([
      { start: '2026-03-04T17:00:00Z', end: '2026-03-04T18:30:00Z' },
    ])
    expect(fb.calendars[team]).toEqual({ errors: [{ domain: 'global', reason: 'notFound' }], busy: [] })
    expect((await call('POST', '/freeBusy', { json: { timeMax: '2026-03-05T00:00:00Z' } })).status).toBe(400)
  })
  test('a declined invitation does not make the guest busy', async () => {
    const { ok } = cal()
    await ok('Event', 'PATCH', '/calendars/primary/events/lunc0000001', {
      as: 'cy',
      json: { attendees: [{ email: 'cy@example.com', responseStatus: 'declined' }] },
    })
    const fb = await ok('FreeBusyResponse', 'POST', '/freeBusy', {
      as: 'cy',
      json: { timeMin: '2026-03-04T00:00:00Z', timeMax: '2026-03-05T00:00:00Z', items: [{ id: 'primary' }] },
    })
    expect(fb.calendars.primary.busy).toEqual([])
  })
})

describe('calendar.events.watch', () => {
  test('stores a channel for the calendar’s events', async () => {
    const { ok, fails, h } = cal()
    const ch = await ok('Channel', 'POST', '/calendars/primary/events/watch', { json: hook('ch-1') })
    expect(ch).toMatchObject({
      kind: 'api#channel',
      id: 'ch-1',
      token: 'tok',
      resourceUri: 'https://www.googleapis.com/calendar/v3/calendars/ann%40example%2Ecom/events?alt=json',
    })
    expect(Number(ch.expiration)).toBeGreaterThan(Date.parse('2026-03-02T14:00:00Z'))
    await fails(400, 'push.webhookUrlNotHttps', 'POST', '/calendars/primary/events/watch', {
      json: { ...hook('ch-2'), address: 'http://plain.test' },
    })
    expect(Object.keys(calendar.dump(h.entry.world).entities.channels!)).toEqual([`ch-1/${ch.resourceId}`])
  })
})

describe('calendar.acl.watch', () => {
  test('needs owner access', async () => {
    const { ok, fails } = cal()
    await ok('Channel', 'POST', '/calendars/primary/acl/watch', { json: hook('a-1') })
    await fails(403, 'requiredAccessLevel', 'POST', `/calendars/${enc('ann@example.com')}/acl/watch`, {
      as: 'ben',
      json: hook('a-2'),
    })
  })
})

describe('calendar.calendarList.watch', () => {
  test('answers a channel on the caller’s list', async () => {
    const { ok } = cal()
    expect((await ok('Channel', 'POST', '/users/me/calendarList/watch', { json: hook('l-1') })).resourceUri).toContain(
      '/users/me/calendarList',
    )
  })
})

describe('calendar.settings.watch', () => {
  test('answers a channel on the caller’s settings', async () => {
    const { ok } = cal()
    expect((await ok('Channel', 'POST', '/users/me/settings/watch', { json: hook('s-1') })).resourceUri).toContain(
      '/users/me/settings',
    )
  })
})

describe('calendar.channels.stop', () => {
  test('removes a channel once; another user cannot stop it', async () => {
    const { ok, call, fails } = cal()
    const ch = await ok('Channel', 'POST', '/calendars/primary/events/watch', { json: hook('stop-me') })
    await fails(404, 'notFound', 'POST', '/channels/stop', {
      as: 'ben',
      json: { id: ch.id, resourceId: ch.resourceId },
    })
    expect((await call('POST', '/channels/stop', { json: { id: ch.id, resourceId: ch.resourceId } })).status).toBe(204)
    await fails(404, 'notFound', 'POST', '/channels/stop', { json: { id: ch.id, resourceId: ch.resourceId } })
  })
})
