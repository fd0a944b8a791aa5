import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { compareShapes, recorded } from './shape.ts'

// The recordings come from one account with a primary and a temporary secondary calendar; ours from a world
// user doing the same calls. Keys that depend on data the recording happened to have are listed per call.
const seed = {
  name: 'gcal-parity',
  now: '2026-03-27T21:00:00Z',
  domain: 'example.com',
  users: [
    { id: 'fixture', email: 'fixture-user@example.com', name: 'Fixture User', timeZone: 'UTC' },
    { id: 'other', email: 'other@example.com', name: 'Other User', timeZone: 'UTC' },
  ],
}
const C = '/calendar/v3'
const when = {
  start: { dateTime: '2026-03-28T21:09:03Z', timeZone: 'UTC' },
  end: { dateTime: '2026-03-28T22:09:03Z', timeZone: 'UTC' },
}

async function world() {
  const h = harness(seed)
  const call = async (method: string, path: string, json?: unknown) =>
    (await h.call(method, `${C}${path}`, { json })).body
  const secondary = await call('POST', '/calendars', {
    summary: 'Fixture calendar',
    description: 'Fixture baseline',
    timeZone: 'UTC',
  })
  const sid = encodeURIComponent(secondary.id)
  const event = await call('POST', `/calendars/${sid}/events`, {
    summary: 'Fixture Event',
    description: 'Fixture body',
    location: 'Virtual',
    attendees: [{ email: 'fixture-user@example.com' }],
    ...when,
  })
  const primaryEvent = await call('POST', '/calendars/primary/events', {
    summary: 'Fixture Primary Event',
    description: 'd',
    location: 'Room',
    attendees: [{ email: 'fixture-user@example.com' }],
    ...when,
  })
  const series = await call('POST', `/calendars/${sid}/events`, {
    summary: 'Recurring',
    description: 'Fixture body',
    location: 'Virtual',
    attendees: [{ email: 'fixture-user@example.com' }],
    recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
    ...when,
  })
  return { h, call, secondary, sid, event, primaryEvent, series }
}

/** Differences of shape against a recording, as `name: missing …` / `name: extra …` lines (collected per test). */
let diffs: string[] = []
const same = (ours: unknown, name: string, ignore: string[] = []) => {
  const { missing, extra } = compareShapes(ours, recorded('gcal', name), ignore)
  if (missing.length) diffs.push(`${name}: missing ${missing.join(', ')}`)
  if (extra.length) diffs.push(`${name}: extra ${extra.join(', ')}`)
}
beforeEach(() => {
  diffs = []
})
afterEach(() => {
  expect(diffs).toEqual([])
})

describe('calendar parity with recorded responses', () => {
  test('calendars, calendarList and settings', async () => {
    const w = await world()
    same(await w.call('GET', '/calendars/primary'), 'calendars_get_primary')
    same(await w.call('PATCH', `/calendars/${w.sid}`, { summary: 'Updated' }), 'calendars_patch_response')
    same(
      await w.call('PUT', `/calendars/${w.sid}`, { summary: 'Updated 2', description: 'Updated desc' }),
      'calendars_update_response',
    )
    same(w.secondary, 'calendars_insert_response')
    same(await w.call('GET', '/users/me/calendarList/primary'), 'calendarlist_get_primary')
    // Secondary entries have no notification settings and the recording's had no defaultReminders entries.
    same(await w.call('GET', `/users/me/calendarList/${w.sid}`), 'calendarlist_get_secondary', ['defaultReminders'])
    same(await w.call('GET', '/users/me/calendarList'), 'calendarlist_list', [
      'items[].summaryOverride',
      'items[].description',
      'items[].notificationSettings',
      'items[].primary',
      'items[].defaultReminders',
      'items[].dataOwner',
    ])
    same(await w.call('GET', '/users/me/settings/timezone'), 'settings_get_timezone')
    same(await w.call('GET', '/users/me/settings'), 'settings_list')
    same(await w.call('GET', '/colors'), 'colors_get')
  })

  test('acl', async () => {
    const w = await world()
    const rule = await w.call('POST', `/calendars/${w.sid}/acl`, {
      role: 'reader',
      scope: { type: 'user', value: 'other@example.com' },
    })
    same(rule, 'acl_insert_response')
    same(await w.call('GET', `/calendars/${w.sid}/acl/${encodeURIComponent(rule.id)}`), 'acl_get_response')
    same(
      await w.call('PATCH', `/calendars/${w.sid}/acl/${encodeURIComponent(rule.id)}`, { role: 'writer' }),
      'acl_patch_response',
    )
    same(
      await w.call('PUT', `/calendars/${w.sid}/acl/${encodeURIComponent(rule.id)}`, {
        role: 'reader',
        scope: { type: 'user', value: 'other@example.com' },
      }),
      'acl_update_response',
    )
    // Our primary calendar also carries the domain's free/busy rule; its shape is the same.
    same(await w.call('GET', '/calendars/primary/acl'), 'acl_list_primary')
  })

  test('events', async () => {
    const w = await world()
    // The recorded organizer is a secondary calendar with a summary, hence its displayName.
    same(w.event, 'events_insert_response', ['creator.displayName', 'organizer.displayName'])
    same(await w.call('GET', `/calendars/${w.sid}/events/${w.event.id}`), 'events_get_response', [
      'creator.displayName',
      'organizer.displayName',
    ])
    same(await w.call('GET', `/calendars/primary/events/${w.primaryEvent.id}`), 'events_get_primary', [
      'creator.displayName',
      'organizer.displayName',
      'attendees[].self',
      'attendees[].organizer',
    ])
    const list = await w.call('GET', '/calendars/primary/events')
    same(list, 'events_list_primary', [
      'items[].creator.displayName',
      'items[].organizer.displayName',
      'items[].attendees[].self',
      'items[].attendees[].organizer',
      'items[].recurrence',
      'nextSyncToken',
    ])
    same(
      await w.call('PATCH', `/calendars/${w.sid}/events/${w.event.id}`, { summary: 'Patched' }),
      'events_patch_response',
      ['creator.displayName', 'organizer.displayName'],
    )
    same(
      await w.call('PUT', `/calendars/${w.sid}/events/${w.event.id}`, {
        summary: 'Updated',
        description: 'Fixture body',
        location: 'Virtual',
        attendees: [{ email: 'fixture-user@example.com' }],
        ...when,
      }),
      'events_update_response',
      ['creator.displayName', 'organizer.displayName'],
    )
    same(
      await w.call('GET', `/calendars/${w.sid}/events/${w.series.id}/instances?maxResults=1`),
      'events_instances_response',
      ['items[].creator.displayName', 'items[].organizer.displayName', 'nextPageToken', 'nextSyncToken'],
    )
    same(
      await w.call('POST', `/calendars/${w.sid}/events/quickAdd?text=${encodeURIComponent('Coffee tomorrow 3pm')}`),
      'events_quickadd_response',
      ['creator.displayName', 'organizer.displayName'],
    )
    same(
      await w.call('POST', `/calendars/${w.sid}/events/watch`, {
        id: 'fixture-watch',
        type: 'web_hook',
        address: 'https://example.com/h',
      }),
      'events_watch_response',
    )
    same(
      await w.call('POST', '/freeBusy', {
        timeMin: '2026-03-26T21:09:03Z',
        timeMax: '2026-03-28T21:09:03Z',
        items: [{ id: 'primary' }],
      }),
      'freebusy_query_primary',
    )
  })

  test('errors carry the recorded code, message and reason', async () => {
    const w = await world()
    for (const [name, path, method, body] of [
      ['error_calendar_not_found', '/calendars/nope%40group.calendar.google.com', 'GET', undefined],
      ['error_event_not_found', '/calendars/primary/events/nothere000', 'GET', undefined],
      [
        'error_invalid_event',
        '/calendars/primary/events',
        'POST',
        { summary: 'x', start: { dateTime: '2026-03-28T21:09:03Z' } },
      ],
      // The recorded import (no iCalUID) is an error answer.
      ['events_import_response', '/calendars/primary/events/import', 'POST', { summary: 'x', ...when }],
    ] as const) {
      const ours = (await w.call(method, path, body)) as {
        error: { code: number; message: string; errors: { reason: string }[] }
      }
      const real = recorded('gcal', name) as { error: { code: number; message: string; reason: string } }
      expect({ code: ours.error.code, message: ours.error.message, reason: ours.error.errors[0]!.reason }).toEqual(
        real.error,
      )
    }
  })
})
