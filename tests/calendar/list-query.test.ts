import { describe, expect, test, vi } from 'vitest'
import { parseNow, preferSyncParse } from '../../envs/core/sync-parse.ts'
import { InstancesQuery, ListQuery } from '../../envs/calendar/routes/events-list.ts'
import { harness } from '../../envs/core/testing/harness.ts'

// The list queries' bool(), int() and enum keys answer without zod (quickField, enums in envs/core/sync-parse.ts);
// whatever zod would refuse or does not know still goes to zod, so every answer is zod's.

const window = { timeMin: '2026-01-19T00:00:00Z', timeMax: '2026-01-26T00:00:00Z' }
const quick: Record<string, unknown>[] = [
  {},
  { singleEvents: 'true', orderBy: 'startTime', ...window },
  { singleEvents: 'false', orderBy: 'updated', showDeleted: 'true', showHiddenInvitations: 'false' },
  { maxResults: '1' },
  { maxResults: '2500', maxAttendees: '1000', alwaysIncludeEmail: 'false' },
  { maxResults: '0250', pageToken: 'abc', syncToken: 's', q: 'lunch', iCalUID: 'x@y', eventTypes: 'default' },
  { timeMin: 'not a time', timeMax: '', updatedMin: '2026-13-45T99:00:00Z', timeZone: 'Mars/Base' },
  { privateExtendedProperty: 'a=b', sharedExtendedProperty: '=', orderBy: 'startTime', singleEvents: 'true' },
  // Above the documented largest page: served at 2500 (docs/decisions/0378); maxAttendees has no maximum.
  { maxResults: '2501' },
  { maxAttendees: '1001' },
]
const zodOnly: Record<string, unknown>[] = [
  { singleEvents: 'TRUE' },
  { singleEvents: '1' },
  { singleEvents: '' },
  { showDeleted: ['true', 'true'] },
  { orderBy: 'starttime' },
  { orderBy: ['startTime', 'updated'] },
  { orderBy: '' },
  { maxResults: '0' },
  { maxResults: '2147483648' },
  { maxResults: '-1' },
  { maxResults: '1.5' },
  { maxResults: '1e3' },
  { maxResults: ' 10' },
  { maxResults: '' },
  { maxResults: '99999999999999999999' },
  { maxResults: ['10', '20'] },
  { maxAttendees: '0' },
  { timeMin: ['2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'] },
  { q: ['a', 'b'] },
  { singleEvents: 'true', prettyPrint: 'false' },
  { fields: 'items(id)' },
  { singleEvents: 'true', maxResults: '0', orderBy: 'nope' },
]

function zodCalls(schema: typeof ListQuery | typeof InstancesQuery) {
  preferSyncParse(schema)
  const spy = vi.spyOn(schema, 'safeParse')
  return spy
}

describe('calendar.events.list query', () => {
  test('answers valid queries as zod does, without running zod', () => {
    const spy = zodCalls(ListQuery)
    try {
      for (const q of quick) {
        const want = ListQuery.safeParse(q)
        spy.mockClear()
        const got = parseNow(ListQuery, q)
        expect(spy).not.toHaveBeenCalled()
        expect(want.success).toBe(true)
        expect(got).toEqual(want)
        expect(Object.keys(got!.data as object)).toEqual(Object.keys(want.data!))
      }
    } finally {
      spy.mockRestore()
    }
  })

  test('hands invalid, repeated and unknown parameters to zod, which answers them', () => {
    const spy = zodCalls(ListQuery)
    try {
      for (const q of zodOnly) {
        spy.mockClear()
        const got = parseNow(ListQuery, q)
        expect(spy).toHaveBeenCalledTimes(1)
        expect(got).toEqual(ListQuery.safeParse(q))
      }
      expect(zodOnly.filter((q) => !ListQuery.safeParse(q).success)).toHaveLength(zodOnly.length - 2)
    } finally {
      spy.mockRestore()
    }
  })

  test('answers the instances query the same way', () => {
    for (const q of [{ maxResults: '5', showDeleted: 'true', originalStart: 'x' }, { maxResults: '5000' }]) {
      preferSyncParse(InstancesQuery)
      expect(parseNow(InstancesQuery, q)).toEqual(InstancesQuery.safeParse(q))
    }
  })

  test("a bad value is still a 400 with zod's issues, and a bad time the handler's own 400", async () => {
    const h = harness('demo')
    const token = h.google('bob')
    const base = '/calendar/v3/calendars/primary/events'
    const bad = await h.call('GET', `${base}?singleEvents=yes&maxResults=0`, { token })
    expect(bad.status).toBe(400)
    expect(bad.text).toContain('maxResults')
    const time = await h.call('GET', `${base}?timeMin=yesterday`, { token })
    expect(time.status).toBe(400)
    expect((time.body as { error: { errors: { reason: string }[] } }).error.errors[0]?.reason).toBe('badRequest')
    const ok = await h.call('GET', `${base}?singleEvents=true&orderBy=startTime&maxResults=3`, { token })
    expect(ok.status).toBe(200)
    expect((ok.body as { items: unknown[] }).items.length).toBeLessThanOrEqual(3)
  })
})
