import { Rng } from '../../envs/core/rng.ts'
import { benchWorld, timeIt, type BenchFigure } from './types.ts'

/**
 * One-off events spread over a year plus 20 weekly series: a 7-day singleEvents window must cost what the week
 * holds, not what the calendar holds.
 */
export async function run(): Promise<BenchFigure[]> {
  const out: BenchFigure[] = []
  for (const count of [500, 5000]) {
    const rng = new Rng(5)
    const at = (day: number, hour: number) =>
      new Date(Date.UTC(2026, 0, 1) + day * 86_400_000 + hour * 3_600_000).toISOString()
    const events: Record<string, unknown>[] = Array.from({ length: count }, (_, i) => {
      const day = rng.int(0, 364)
      const hour = rng.int(7, 18)
      const start = { dateTime: at(day, hour) }
      return { calendar: 'ann', summary: `Event ${i}`, start, end: { dateTime: at(day, hour + 1) } }
    })
    for (let i = 0; i < 20; i++) {
      const start = { dateTime: at(i % 7, 9), timeZone: 'UTC' }
      const end = { dateTime: at(i % 7, 10), timeZone: 'UTC' }
      events.push({ calendar: 'ann', summary: `Weekly ${i}`, recurrence: ['RRULE:FREQ=WEEKLY'], start, end })
    }
    const users = ['ann', 'ben'].map((id) => ({ id, email: `${id}@example.com`, name: id.toUpperCase() }))
    const seed = { name: `bench-calendar-${count}`, now: '2026-01-01T00:00:00Z', users, calendar: { events } }
    const { worlds, app, headers } = await benchWorld(seed)
    const week = 'timeMin=2026-06-01T00:00:00Z&timeMax=2026-06-08T00:00:00Z'
    const path = `/calendar/v3/calendars/primary/events?singleEvents=true&orderBy=startTime&${week}&prettyPrint=false`
    const get = async (p: string) => {
      const res = await app.request(p, { headers })
      if (res.status !== 200) throw new Error(`${p} → ${res.status} ${await res.text()}`)
      return res.text()
    }
    const items = (JSON.parse(await get(path)) as { items: unknown[] }).items.length
    const list = await timeIt(() => get(path), 100, 10)
    const target = count === 5000 ? '≤ 3 ms' : undefined
    const name = `events.list singleEvents 7-day window, ${count} events (${items} in it) p50`
    out.push({ name, value: list.p50, unit: 'ms', target })
    worlds.close()
  }
  return out
}
