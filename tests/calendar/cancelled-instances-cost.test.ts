import { describe, expect, test } from 'vitest'
import { cal, timed } from './helpers.ts'

// A guest added to a series gets its cancelled instances (0448) at a cost that does not grow with how many there are
// (docs/decisions/0452): counted in SQLite statements run, so the test does not depend on the host's speed.

type Ev = { id: string; status: string }
const S = '/calendars/primary/events'

/** Counts the statements run (better-sqlite3's run/get/all/iterate) while `fn` runs. */
async function statementsRun(db: { prepare(sql: string): object }, fn: () => Promise<unknown>) {
  const proto = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<string, (...a: unknown[]) => unknown>
  let n = 0
  const saved = new Map<string, (...a: unknown[]) => unknown>()
  for (const name of ['run', 'get', 'all', 'iterate']) {
    const original = proto[name]!
    saved.set(name, original)
    proto[name] = function (this: unknown, ...a: unknown[]) {
      n++
      return original.apply(this, a)
    }
  }
  try {
    await fn()
  } finally {
    for (const [name, original] of saved) proto[name] = original
  }
  return n
}

async function seriesWithCancelled(cancelled: number) {
  const c = cal()
  const series = await c.ok('Event', 'POST', S, {
    json: {
      ...timed('2026-05-04T09:00:00Z', '2026-05-04T10:00:00Z', 'UTC'),
      recurrence: ['RRULE:FREQ=DAILY;COUNT=200'],
    },
  })
  const items = (await c.ok('Events', 'GET', `${S}/${series.id}/instances?maxResults=250`)).items as Ev[]
  for (const ex of items.slice(0, cancelled)) await c.ok(null, 'DELETE', `${S}/${ex.id}`)
  return { ...c, series: series.id as string, cancelledIds: items.slice(0, cancelled).map((e) => e.id) }
}

describe('adding a guest to a series with cancelled instances', () => {
  test('runs about as many statements with 100 cancelled instances as with 2, and Ben sees none of them', async () => {
    const counts: number[] = []
    const times: number[] = []
    for (const cancelled of [2, 100]) {
      const c = await seriesWithCancelled(cancelled)
      const db = c.h.entry.world.db.$client as unknown as { prepare(sql: string): object }
      const t0 = performance.now()
      counts.push(
        await statementsRun(db, () =>
          c.ok('Event', 'PATCH', `${S}/${c.series}`, { json: { attendees: [{ email: 'ben@example.com' }] } }),
        ),
      )
      times.push(performance.now() - t0)
      // Then the guest swapped six times (Cy for Ben, Ben for Cy): each swap adds a guest. The median, printed.
      const swaps: number[] = []
      for (let i = 0; i < 6; i++) {
        const t = performance.now()
        const who = i % 2 === 0 ? 'cy' : 'ben'
        await c.ok('Event', 'PATCH', `${S}/${c.series}`, { json: { attendees: [{ email: `${who}@example.com` }] } })
        swaps.push(performance.now() - t)
      }
      times.push(swaps.sort((a, b) => a - b)[3]!)
      const his = (await c.ok('Events', 'GET', `${S}/${c.series}/instances?maxResults=250`, { as: 'ben' })).items
      expect(his).toHaveLength(200 - cancelled)
      const last = c.cancelledIds.at(-1)!
      expect((await c.ok('Event', 'GET', `${S}/${last}`, { as: 'ben' })).status).toBe('cancelled')
    }
    const ms = times.map((t) => t.toFixed(1))
    console.log(`statements: ${counts.join(' / ')}; ms first, median of 6 swaps: ${ms.join(' / ')} (2 / 100 cancelled)`)
    expect(counts[1]! - counts[0]!).toBeLessThan(20)
  })
})
