import { describe, expect, test } from 'vitest'
import { cal } from './helpers.ts'
import { calSeed, enc } from './fixtures.ts'

/** calSeed with Directory groups: `eng` holds Cy; `all` holds `eng` (nested), so Cy is in both. */
const groupSeed = {
  ...calSeed,
  identity: {
    groups: [
      { email: 'eng@example.com', name: 'Eng', members: [{ email: 'cy@example.com' }] },
      { email: 'all@example.com', name: 'All', members: [{ email: 'eng@example.com' }] },
    ],
  },
}

describe('calendar ACL group rules', () => {
  test('a rule for a Directory group reaches its members, nested groups included, and no one else', async () => {
    const { ok, fails } = cal(groupSeed)
    const id = (await ok('Calendar', 'POST', '/calendars', { json: { summary: 'Shared' } })).id as string
    await fails(404, 'notFound', 'GET', `/calendars/${enc(id)}/events`, { as: 'cy' })
    await ok('AclRule', 'POST', `/calendars/${enc(id)}/acl`, {
      json: { role: 'writer', scope: { type: 'group', value: 'ALL@example.com' } },
    })
    await ok('Events', 'GET', `/calendars/${enc(id)}/events`, { as: 'cy' })
    await ok('Event', 'POST', `/calendars/${enc(id)}/events`, {
      as: 'cy',
      json: { summary: 'Plan', start: { date: '2026-03-05' }, end: { date: '2026-03-06' } },
    })
    await fails(404, 'notFound', 'GET', `/calendars/${enc(id)}/events`, { as: 'ben' })
  })

  test('the rule deleted, the members lose the access it gave', async () => {
    const { ok, call, fails } = cal(groupSeed)
    const id = (await ok('Calendar', 'POST', '/calendars', { json: { summary: 'Shared' } })).id as string
    await ok('AclRule', 'POST', `/calendars/${enc(id)}/acl`, {
      json: { role: 'reader', scope: { type: 'group', value: 'eng@example.com' } },
    })
    await ok('Events', 'GET', `/calendars/${enc(id)}/events`, { as: 'cy' })
    expect((await call('DELETE', `/calendars/${enc(id)}/acl/${enc('group:eng@example.com')}`)).status).toBe(204)
    await fails(404, 'notFound', 'GET', `/calendars/${enc(id)}/events`, { as: 'cy' })
  })
})
