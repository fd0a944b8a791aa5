import { Rng } from '../../envs/core/rng.ts'
import { benchWorld, timeIt, type BenchFigure } from './types.ts'

const RULES = [
  'RRULE:FREQ=WEEKLY;BYDAY=MO',
  'RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR',
  'RRULE:FREQ=DAILY',
  'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU',
  'RRULE:FREQ=MONTHLY;BYDAY=1TH',
  'RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
]
const ZONES = ['America/New_York', 'Europe/London', 'Asia/Tokyo', 'America/Los_Angeles']

/** 50 recurring series (several with attendees) on one calendar: a year of single events, ordered by start. */
export async function run(): Promise<BenchFigure[]> {
  const rng = new Rng(11)
  const events = Array.from({ length: 50 }, (_, i) => {
    const zone = rng.pick(ZONES)
    const day = String(rng.int(1, 28)).padStart(2, '0')
    const hour = String(rng.int(8, 17)).padStart(2, '0')
    return {
      calendar: 'ann',
      summary: `Series ${i}`,
      recurrence: [rng.pick(RULES)],
      start: { dateTime: `2026-01-${day}T${hour}:00:00`, timeZone: zone },
      end: { dateTime: `2026-01-${day}T${hour}:30:00`, timeZone: zone },
      attendees: rng.chance(0.3) ? [{ user: 'ben', responseStatus: 'accepted' }] : [],
    }
  })
  const seed = {
    name: 'bench-calendar',
    now: '2026-01-01T00:00:00Z',
    users: ['ann', 'ben'].map((id) => ({ id, email: `${id}@example.com`, name: id.toUpperCase() })),
    calendar: { events },
  }
  const { worlds, app, seedMs, headers } = await benchWorld(seed)
  const path =
    '/calendar/v3/calendars/primary/events?singleEvents=true&orderBy=startTime&timeMin=2026-01-01T00:00:00Z&timeMax=2027-01-01T00:00:00Z&prettyPrint=false'
  const get = async (p: string) => {
    const res = await app.request(p, { headers })
    if (res.status !== 200) throw new Error(`${p} → ${res.status} ${await res.text()}`)
    return res.text()
  }
  const list = await timeIt(() => get(`${path}&maxResults=250`), 50, 5)
  const all = await timeIt(() => get(`${path}&maxResults=2500`), 20, 3)
  worlds.close()
  return [
    { name: 'seed 50 recurring series', value: seedMs, unit: 'ms' },
    {
      name: 'events.list singleEvents, 1 year of 50 series, first page p50',
      value: list.p50,
      unit: 'ms',
      target: '≤ 20 ms',
    },
    { name: 'events.list (same) p99', value: list.p99, unit: 'ms' },
    { name: 'events.list (same, maxResults=2500) p50', value: all.p50, unit: 'ms' },
  ]
}
