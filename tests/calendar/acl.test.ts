import { describe, expect, test } from 'vitest'
import { cal } from './helpers.ts'
import { enc } from './fixtures.ts'

async function secondary(ok: ReturnType<typeof cal>['ok']) {
  return (await ok('Calendar', 'POST', '/calendars', { json: { summary: 'Shared' } })).id as string
}

describe('calendar.acl.list', () => {
  test('lists the owner rule and the domain free/busy rule of a primary; only owners may list', async () => {
    const { ok, fails } = cal()
    const acl = await ok('Acl', 'GET', '/calendars/primary/acl')
    expect(acl.items.map((r: { id: string }) => r.id)).toEqual(['user:ann@example.com', 'domain:example.com'])
    await fails(403, 'requiredAccessLevel', 'GET', `/calendars/${enc('ann@example.com')}/acl`, { as: 'ben' })
  })
  test('a sync token gives changed rules, deleted ones with role none', async () => {
    const { ok, call } = cal()
    const id = await secondary(ok)
    const first = await ok('Acl', 'GET', `/calendars/${enc(id)}/acl`)
    await ok(null, 'POST', `/calendars/${enc(id)}/acl`, {
      json: { role: 'reader', scope: { type: 'user', value: 'cy@example.com' } },
    })
    await call('DELETE', `/calendars/${enc(id)}/acl/${enc('user:cy@example.com')}`)
    const next = await ok('Acl', 'GET', `/calendars/${enc(id)}/acl?syncToken=${first.nextSyncToken}`)
    expect(next.items).toMatchObject([{ id: 'user:cy@example.com', role: 'none' }])
    const bad = await call('GET', `/calendars/${enc(id)}/acl?syncToken=bogus`)
    expect(bad.status).toBe(410)
  })
})

describe('calendar.acl.insert', () => {
  test('sharing grants real access and puts the calendar into the colleague’s list', async () => {
    const { ok, fails } = cal()
    const id = await secondary(ok)
    await fails(404, 'notFound', 'GET', `/calendars/${enc(id)}/events`, { as: 'cy' })
    const rule = await ok('AclRule', 'POST', `/calendars/${enc(id)}/acl`, {
      json: { role: 'reader', scope: { type: 'user', value: 'cy@example.com' } },
    })
    expect(rule).toMatchObject({
      kind: 'calendar#aclRule',
      id: 'user:cy@example.com',
      role: 'reader',
      scope: { type: 'user', value: 'cy@example.com' },
    })
    await ok('Events', 'GET', `/calendars/${enc(id)}/events`, { as: 'cy' })
    await fails(403, 'requiredAccessLevel', 'POST', `/calendars/${enc(id)}/events`, {
      as: 'cy',
      json: { start: { date: '2026-03-05' }, end: { date: '2026-03-06' } },
    })
    const list = await ok(null, 'GET', '/users/me/calendarList', { as: 'cy' })
    expect(list.items.some((e: { id: string; accessRole: string }) => e.id === id && e.accessRole === 'reader')).toBe(
      true,
    )
    await fails(400, 'required', 'POST', `/calendars/${enc(id)}/acl`, {
      json: { scope: { type: 'user', value: 'x@y.com' } },
    })
    await fails(400, 'invalid', 'POST', `/calendars/${enc(id)}/acl`, {
      json: { role: 'reader', scope: { type: 'user', value: 'not-an-email' } },
    })
  })
  test('domain and default rules grant access to everyone they cover', async () => {
    const { ok } = cal()
    const id = await secondary(ok)
    await ok('AclRule', 'POST', `/calendars/${enc(id)}/acl`, {
      json: { role: 'writer', scope: { type: 'domain', value: 'example.com' } },
    })
    expect((await ok('Events', 'GET', `/calendars/${enc(id)}/events`, { as: 'ben' })).accessRole).toBe('writer')
    const id2 = await secondary(ok)
    await ok('AclRule', 'POST', `/calendars/${enc(id2)}/acl`, {
      json: { role: 'freeBusyReader', scope: { type: 'default' } },
    })
    expect((await ok('Events', 'GET', `/calendars/${enc(id2)}/events`, { as: 'cy' })).accessRole).toBe('freeBusyReader')
  })
})

describe('calendar.acl.get', () => {
  test('answers a rule by id, 404 for an unknown one', async () => {
    const { ok, fails } = cal()
    expect((await ok('AclRule', 'GET', `/calendars/primary/acl/${enc('user:ann@example.com')}`)).role).toBe('owner')
    await fails(404, 'notFound', 'GET', `/calendars/primary/acl/${enc('user:zed@example.com')}`)
  })
})

describe('calendar.acl.update', () => {
  test('changes the role; the owner’s own rule cannot be lowered', async () => {
    const { ok, fails } = cal()
    const id = await secondary(ok)
    await ok(null, 'POST', `/calendars/${enc(id)}/acl`, {
      json: { role: 'reader', scope: { type: 'user', value: 'ben@example.com' } },
    })
    const r = await ok('AclRule', 'PUT', `/calendars/${enc(id)}/acl/${enc('user:ben@example.com')}`, {
      json: { role: 'writer', scope: { type: 'user', value: 'ben@example.com' } },
    })
    expect(r.role).toBe('writer')
    await fails(400, 'cannotChangeOwnAcl', 'PUT', `/calendars/${enc(id)}/acl/${enc('user:ann@example.com')}`, {
      json: { role: 'reader' },
    })
  })
})

describe('calendar.acl.patch', () => {
  test('downgrading a writer to freeBusyReader hides event details', async () => {
    const { ok } = cal()
    const team = (await ok(null, 'GET', '/users/me/calendarList')).items.find(
      (e: { summary: string }) => e.summary === 'Team',
    ).id
    await ok('AclRule', 'PATCH', `/calendars/${enc(team)}/acl/${enc('user:ben@example.com')}`, {
      json: { role: 'freeBusyReader' },
    })
    const list = await ok('Events', 'GET', `/calendars/${enc(team)}/events`, { as: 'ben' })
    expect(list.items[0].summary).toBeUndefined()
    expect(list.items[0].start).toEqual({ date: '2026-03-12' })
  })
})

describe('calendar.acl.delete', () => {
  test('revokes access', async () => {
    const { ok, fails, call } = cal()
    const team = (await ok(null, 'GET', '/users/me/calendarList')).items.find(
      (e: { summary: string }) => e.summary === 'Team',
    ).id
    expect((await call('DELETE', `/calendars/${enc(team)}/acl/${enc('user:ben@example.com')}`)).status).toBe(204)
    await fails(404, 'notFound', 'GET', `/calendars/${enc(team)}/events`, { as: 'ben' })
    await fails(404, 'notFound', 'DELETE', `/calendars/${enc(team)}/acl/${enc('user:ben@example.com')}`)
  })
})

describe('calendar.acl.get (raw rule ids)', () => {
  test('a rule id with an unencoded colon and @ reaches the rule', async () => {
    const { ok } = cal()
    expect((await ok('AclRule', 'GET', '/calendars/primary/acl/user:ann@example.com')).role).toBe('owner')
    expect((await ok('AclRule', 'GET', '/calendars/primary/acl/domain:example.com')).role).toBe('freeBusyReader')
  })
})
