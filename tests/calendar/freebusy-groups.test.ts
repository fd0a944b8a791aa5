import { describe, expect, test } from 'vitest'
import { cal } from './helpers.ts'
import { calSeed } from './fixtures.ts'

/** calSeed with Directory groups: `team` holds Ann, Ben, the nested `eng` (Cy, and `team` again) and an outsider. */
const groupSeed = {
  ...calSeed,
  identity: {
    groups: [
      {
        email: 'team@example.com',
        name: 'Team',
        members: [
          { email: 'ann@example.com' },
          { email: 'ben@example.com' },
          { email: 'eng@example.com' },
          { email: 'pat@outside.test' },
        ],
      },
      { email: 'eng@example.com', name: 'Eng', members: [{ email: 'cy@example.com' }, { email: 'team@example.com' }] },
    ],
  },
}

const DAY = { timeMin: '2026-03-04T00:00:00Z', timeMax: '2026-03-05T00:00:00Z' }
const LUNCH = [{ start: '2026-03-04T17:00:00Z', end: '2026-03-04T18:00:00Z' }]
const MEMBERS = ['ann@example.com', 'ben@example.com', 'cy@example.com', 'pat@outside.test']
const error = (reason: string) => ({ errors: [{ domain: 'global', reason }], busy: [] })

describe('calendar.freebusy.query', () => {
  test('expands a group address into its members’ primary calendars, nested groups once', async () => {
    const { ok } = cal(groupSeed)
    const fb = await ok('FreeBusyResponse', 'POST', '/freeBusy', {
      as: 'cy',
      json: { ...DAY, items: [{ id: 'TEAM@example.com' }] },
    })
    expect(fb.groups).toEqual({ 'TEAM@example.com': { calendars: MEMBERS } })
    expect(fb.calendars).toEqual({
      'ann@example.com': { busy: LUNCH },
      'ben@example.com': { busy: [] },
      'cy@example.com': { busy: LUNCH },
      'pat@outside.test': error('notFound'),
    })
  })

  test('a member whose free/busy the caller may not see answers notFound', async () => {
    const { ok, call } = cal(groupSeed)
    const rule = `domain:example.com`
    expect((await call('DELETE', `/calendars/primary/acl/${rule}`, { as: 'ann' })).status).toBe(204)
    const fb = await ok('FreeBusyResponse', 'POST', '/freeBusy', {
      as: 'cy',
      json: { ...DAY, items: [{ id: 'eng@example.com' }, { id: 'team@example.com' }] },
    })
    expect(fb.groups['eng@example.com'].calendars).toEqual([
      'cy@example.com',
      ...MEMBERS.filter((m) => m !== 'cy@example.com'),
    ])
    expect(fb.calendars['ann@example.com']).toEqual(error('notFound'))
    expect(fb.calendars['cy@example.com']).toEqual({ busy: LUNCH })
  })

  test('a group with more members than groupExpansionMax answers groupTooBig', async () => {
    const { ok } = cal(groupSeed)
    const fb = await ok('FreeBusyResponse', 'POST', '/freeBusy', {
      json: { ...DAY, groupExpansionMax: 3, items: [{ id: 'team@example.com' }, { id: 'primary' }] },
    })
    expect(fb.groups).toEqual({
      'team@example.com': { errors: [{ domain: 'global', reason: 'groupTooBig' }], calendars: [] },
    })
    expect(Object.keys(fb.calendars)).toEqual(['primary'])
    const four = await ok('FreeBusyResponse', 'POST', '/freeBusy', {
      json: { ...DAY, groupExpansionMax: 4, items: [{ id: 'team@example.com' }] },
    })
    expect(four.groups['team@example.com']).toEqual({ calendars: MEMBERS })
  })

  test('calendars past calendarExpansionMax answer tooManyCalendarsRequested; values over 50 are capped', async () => {
    const { ok } = cal(groupSeed)
    const fb = await ok('FreeBusyResponse', 'POST', '/freeBusy', {
      as: 'cy',
      json: { ...DAY, calendarExpansionMax: 2, items: [{ id: 'primary' }, { id: 'team@example.com' }] },
    })
    expect(fb.groups['team@example.com'].calendars).toEqual(MEMBERS)
    expect(fb.calendars).toEqual({
      primary: { busy: LUNCH },
      'ann@example.com': { busy: LUNCH },
      'ben@example.com': error('tooManyCalendarsRequested'),
      'cy@example.com': error('tooManyCalendarsRequested'),
      'pat@outside.test': error('tooManyCalendarsRequested'),
    })
    const items = Array.from({ length: 51 }, (_, i) => ({ id: `nobody${i}@example.com` }))
    const many = await ok('FreeBusyResponse', 'POST', '/freeBusy', {
      json: { ...DAY, calendarExpansionMax: 500, items },
    })
    expect(many.calendars['nobody49@example.com']).toEqual(error('notFound'))
    expect(many.calendars['nobody50@example.com']).toEqual(error('tooManyCalendarsRequested'))
  })

  test('an unknown address that is no group stays a notFound calendar, with no groups map', async () => {
    const { ok } = cal(groupSeed)
    const fb = await ok('FreeBusyResponse', 'POST', '/freeBusy', {
      json: { ...DAY, items: [{ id: 'nobody@example.com' }] },
    })
    expect(fb).not.toHaveProperty('groups')
    expect(fb.calendars).toEqual({ 'nobody@example.com': error('notFound') })
  })
})
