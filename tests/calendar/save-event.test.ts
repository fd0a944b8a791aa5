import { describe, expect, test } from 'vitest'
import { sql } from 'drizzle-orm'
import { cal, timed } from './helpers.ts'
import { officeSeed } from './fixtures.ts'
import { calendarEvents, EVENT_KEYS, everyColumn, saveEvent } from '../../envs/calendar/store/events.ts'
import { nextChange } from '../../envs/calendar/store/access.ts'
import { events, type EventRow } from '../../envs/calendar/schema.ts'
import { nowMs } from '../../envs/core/clock.ts'
import { upsertRow, type Db } from '../../envs/core/db.ts'

// saveEvent writes a row that gives every column through Calendar's own statement (docs/decisions/0348); the world
// it leaves must be the one the shared upsertRow leaves.

/** What saveEvent did before its own statement: the shared writer, for the same stamped row. */
function referenceSave(db: Db, row: Omit<EventRow, 'changeSeq' | 'updatedMs'>, keepUpdatedMs?: number): EventRow {
  const full: EventRow = { ...row, updatedMs: keepUpdatedMs ?? nowMs(db), changeSeq: nextChange(db) }
  upsertRow(db, events, full, ['calendarId', 'id'])
  return full
}

async function worldWithEvents() {
  const c = cal(officeSeed)
  const guests = { summary: 'guests', attendees: [{ email: 'ben@example.com' }] }
  await c.ok('Event', 'POST', '/calendars/primary/events?sendUpdates=all', {
    json: { ...guests, ...timed('2026-03-05T12:00:00Z', '2026-03-05T13:00:00Z') },
  })
  await c.ok('Event', 'POST', '/calendars/primary/events', {
    json: {
      summary: 'series',
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
      ...timed('2026-03-10T09:00:00', '2026-03-10T09:30:00', 'Asia/Tokyo'),
    },
  })
  return c.h.entry.world
}

describe('saveEvent', () => {
  test('reads every column of calendar_events, in the table order its statement names them', () => {
    const row = Object.fromEntries(EVENT_KEYS.map((k, i) => [k, i % 3 ? `${k}-value` : i])) as unknown as EventRow
    expect(everyColumn(row)).toEqual(EVENT_KEYS.map((k) => (row as Record<string, unknown>)[k]))
    expect(everyColumn({ ...row, recurrence: null })).toHaveLength(EVENT_KEYS.length)
  })

  test('leaves to the shared writer a row with an undefined, extra or non-scalar value', () => {
    const row = Object.fromEntries(EVENT_KEYS.map((k) => [k, 'v'])) as unknown as EventRow
    expect(everyColumn({ ...row, organizerName: undefined } as unknown as EventRow)).toBeUndefined()
    expect(everyColumn({ ...row, extra: 1 } as unknown as EventRow)).toBeUndefined()
    expect(everyColumn({ ...row, sequence: true } as unknown as EventRow)).toBeUndefined()
    expect(everyColumn({ ...row, sequence: sql`1` } as unknown as EventRow)).toBeUndefined()
    expect(everyColumn({ ...row, startMs: 1n } as unknown as EventRow)).toBeUndefined()
  })

  test('leaves the world byte for byte as the shared upsertRow does, for new and existing rows', async () => {
    const [mine, theirs] = [await worldWithEvents(), await worldWithEvents()]
    expect(Buffer.compare(mine.db.$client.serialize(), theirs.db.$client.serialize())).toBe(0)
    const rows = calendarEvents(mine.db, 'ann@example.com')
    expect(rows.length).toBeGreaterThan(1)
    const writes = (save: typeof saveEvent) => (db: Db) => {
      for (const r of calendarEvents(db, 'ann@example.com')) {
        const data = JSON.stringify({ ...JSON.parse(r.data), summary: 'changed' })
        save(db, { ...r, data, sequence: r.sequence + 1 })
        save(db, { ...r, id: `${r.id}copy`, calendarId: 'ben@example.com', organizerName: null }, r.updatedMs)
      }
      // Rows the shared writer takes in both: a column left undefined keeps the stored value on conflict.
      const [first] = calendarEvents(db, 'ann@example.com')
      save(db, { ...first!, status: 'cancelled', organizerName: undefined } as unknown as EventRow)
    }
    mine.tx(writes(saveEvent))
    theirs.tx(writes(referenceSave))
    expect(calendarEvents(mine.db, 'ben@example.com')).toEqual(calendarEvents(theirs.db, 'ben@example.com'))
    expect(calendarEvents(mine.db, 'ann@example.com')).toEqual(calendarEvents(theirs.db, 'ann@example.com'))
    expect(Buffer.compare(mine.db.$client.serialize(), theirs.db.$client.serialize())).toBe(0)
  })
})
