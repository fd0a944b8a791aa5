import type { calendar_v3 } from 'googleapis'
import type { Fuzz, Op } from './engine.ts'

// Calendar (Ann's primary): timed events in several time zones, all-day events, daily series with COUNT, partial
// patches, single instances changed or cancelled (exceptions), deletes; checked by get, instances and paged lists.

const ZONES = ['America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'UTC', 'Europe/Berlin', 'Australia/Lord_Howe']
type Event = calendar_v3.Schema$Event
const cal = (f: Fuzz) => f.model.calendar
/** Notes an event id written since the last sync token (each sync answers exactly these). */
export const touched = (f: Fuzz, id: string, maybe = false) => {
  const feed = f.model.calendarSync
  const list = maybe ? feed.maybe : feed.changed
  if (feed.token && !list.includes(id)) list.push(id)
}
const at = (d: { dateTime?: string | null; date?: string | null } | undefined) =>
  d?.date ?? new Date(Date.parse(d!.dateTime!)).toISOString()

async function insert(f: Fuzz): Promise<void> {
  const day = 11 + f.rng.int(15)
  const kind = f.rng.pick(['timed', 'allDay', 'series'] as const)
  const timeZone = f.rng.pick(ZONES)
  const startMs = Date.UTC(2026, 2, day, f.rng.int(24), f.rng.pick([0, 15, 30, 45]))
  const count = 2 + f.rng.int(4)
  const summary = f.rng.text(f.rng.chance(0.1) ? 500 : 40)
  const body: Event =
    kind === 'allDay'
      ? {
          summary,
          start: { date: `2026-03-${day}` },
          end: { date: `2026-03-${day + 1 + f.rng.int(2)}` },
        }
      : {
          summary,
          description: f.rng.chance(0.3) ? '' : f.rng.text(100),
          start: { dateTime: new Date(startMs).toISOString(), timeZone },
          end: { dateTime: new Date(startMs + (1 + f.rng.int(8)) * 900_000).toISOString(), timeZone },
          ...(kind === 'series' ? { recurrence: [`RRULE:FREQ=DAILY;COUNT=${count}`] } : {}),
        }
  const r = await f.google('events.insert', true, () =>
    f.calendar.events.insert({ calendarId: 'primary', requestBody: body }),
  )
  f.check(r.ok, () => `events.insert: ${r.status} ${JSON.stringify(r.data)}`)
  if (!r.ok) return
  f.equal([r.data.summary, at(r.data.start!), at(r.data.end!)], [summary, at(body.start), at(body.end)], 'inserted')
  touched(f, r.data.id!)
  cal(f)[r.data.id!] = {
    summary,
    count: kind === 'series' ? count : 1,
    gone: [],
    changed: [],
    start: at(body.start),
    allDay: kind === 'allDay',
  }
}

async function patch(f: Fuzz): Promise<void> {
  const ids = Object.keys(cal(f))
  if (!ids.length) return insert(f)
  const eventId = f.rng.pick(ids)
  const requestBody: Event = f.rng.chance(0.5) ? { summary: f.rng.text() } : { location: f.rng.text(), description: '' }
  const r = await f.google('events.patch', true, () =>
    f.calendar.events.patch({ calendarId: 'primary', eventId, requestBody }),
  )
  f.check(r.ok, () => `events.patch: ${r.status} ${JSON.stringify(r.data)}`)
  if (!r.ok) return
  const m = cal(f)[eventId]!
  // A change to a series may reach its exceptions too (those that kept the field).
  touched(f, eventId)
  for (const id of [...m.changed, ...m.gone]) touched(f, id, true)
  if (typeof requestBody.summary === 'string') m.summary = requestBody.summary
  f.equal([r.data.summary, at(r.data.start!)], [m.summary, m.start], 'patch keeps what it did not name')
}

async function instances(f: Fuzz): Promise<Event[] | undefined> {
  const ids = Object.keys(cal(f)).filter((id) => cal(f)[id]!.count > 1)
  if (!ids.length) return void (await insert(f))
  const eventId = f.rng.pick(ids)
  const r = await f.google('events.instances', false, () =>
    f.calendar.events.instances({ calendarId: 'primary', eventId, maxResults: 50 }),
  )
  f.check(r.ok, () => `events.instances: ${r.status}`)
  if (!r.ok) return
  const m = cal(f)[eventId]!
  const items = r.data.items ?? []
  f.equal(items.length, m.count - m.gone.length, `instances of ${eventId} (${m.count} less ${m.gone.length})`)
  for (const i of items) f.equal(i.recurringEventId, eventId, 'instance recurringEventId')
  return items
}

async function exception(f: Fuzz): Promise<void> {
  const items = await instances(f)
  if (!items?.length) return
  const one = f.rng.pick(items)
  const series = one.recurringEventId!
  if (f.rng.chance(0.5)) {
    const r = await f.google('events.delete instance', true, () =>
      f.calendar.events.delete({ calendarId: 'primary', eventId: one.id! }),
    )
    f.check(r.ok, () => `delete instance: ${r.status}`)
    const m = cal(f)[series]!
    touched(f, one.id!)
    m.gone.push(one.id!)
    m.changed = m.changed.filter((id) => id !== one.id)
  } else {
    const summary = f.rng.text()
    const r = await f.google('events.patch instance', true, () =>
      f.calendar.events.patch({ calendarId: 'primary', eventId: one.id!, requestBody: { summary } }),
    )
    f.check(r.ok, () => `patch instance: ${r.status} ${JSON.stringify(r.data)}`)
    if (!r.ok) return
    f.equal([r.data.id, r.data.summary, r.data.recurringEventId], [one.id, summary, series], 'patched instance')
    const m = cal(f)[series]!
    touched(f, one.id!)
    if (!m.changed.includes(one.id!)) m.changed.push(one.id!)
  }
  await instances(f)
}

async function remove(f: Fuzz): Promise<void> {
  const ids = Object.keys(cal(f))
  if (!ids.length) return insert(f)
  const eventId = f.rng.pick(ids)
  const r = await f.google('events.delete', true, () => f.calendar.events.delete({ calendarId: 'primary', eventId }))
  f.check(r.ok, () => `events.delete: ${r.status}`)
  touched(f, eventId)
  for (const id of [...cal(f)[eventId]!.changed, ...cal(f)[eventId]!.gone]) touched(f, id, true)
  delete cal(f)[eventId]
  const again = await f.google('events.delete again', true, () =>
    f.calendar.events.delete({ calendarId: 'primary', eventId }),
  )
  f.equal(again.status, 410, 'second delete of an event')
}

async function get(f: Fuzz): Promise<void> {
  const ids = Object.keys(cal(f))
  if (!ids.length) return insert(f)
  const eventId = f.rng.pick(ids)
  const r = await f.google('events.get', false, () => f.calendar.events.get({ calendarId: 'primary', eventId }))
  f.check(r.ok, () => `events.get: ${r.status}`)
  if (!r.ok) return
  const m = cal(f)[eventId]!
  f.equal([r.data.summary, at(r.data.start!), r.data.status], [m.summary, m.start, 'confirmed'], `get ${eventId}`)
}

async function list(f: Fuzz): Promise<void> {
  const single = f.rng.chance(0.5)
  const seen: string[] = []
  let pageToken: string | undefined
  for (let i = 0; i < 500; i++) {
    const maxResults = 1 + f.rng.int(4)
    const r = await f.google('events.list', false, () =>
      f.calendar.events.list({
        calendarId: 'primary',
        maxResults,
        pageToken,
        singleEvents: single,
        ...(single ? { orderBy: 'startTime' } : {}),
        timeMin: '2026-03-01T00:00:00Z',
      }),
    )
    f.check(r.ok, () => `events.list: ${r.status} ${JSON.stringify(r.data)}`)
    if (!r.ok) return
    seen.push(...(r.data.items ?? []).map((e) => e.id!))
    pageToken = r.data.nextPageToken ?? undefined
    if (!pageToken) break
  }
  f.equal(seen.length, new Set(seen).size, `events.list singleEvents=${single} visits each event once`)
  // Without singleEvents a series lists once, with its changed instances beside it, and its cancelled ones too
  // (events.list: cancelled instances "will still be included if showDeleted and singleEvents are both False").
  const total = Object.values(cal(f)).reduce(
    (n, m) => n + (single ? m.count - m.gone.length : 1 + m.changed.length + m.gone.length),
    0,
  )
  f.equal(seen.length, total, `events.list singleEvents=${single} count`)
  const want = Object.entries(cal(f)).flatMap(([id, m]) => [id, ...m.changed, ...m.gone])
  if (!single) f.equal([...seen].sort(), want.sort(), 'events.list ids')
}

/** Incremental sync: a sync token answers exactly the events written since it was handed out, then a new one. */
async function sync(f: Fuzz): Promise<void> {
  const feed = f.model.calendarSync
  const seen: calendar_v3.Schema$Event[] = []
  let pageToken: string | undefined
  let next: string | undefined
  const both = f.rng.chance(0.5)
  for (let i = 0; i < 500; i++) {
    const maxResults = 1 + f.rng.int(4)
    const r = await f.google('events.list sync', false, () =>
      f.calendar.events.list({
        calendarId: 'primary',
        maxResults,
        // Later pages: the pageToken alone or with the sync token again (as Google's sync sample does).
        ...(feed.token && (!pageToken || both) ? { syncToken: feed.token } : {}),
        ...(pageToken ? { pageToken } : {}),
      }),
    )
    f.check(r.ok, () => `events.list sync: ${r.status} ${JSON.stringify(r.data)}`)
    if (!r.ok) return
    seen.push(...(r.data.items ?? []))
    pageToken = r.data.nextPageToken ?? undefined
    next = r.data.nextSyncToken ?? undefined
    if (!pageToken) break
  }
  f.check(next, 'the last page of a sync carries nextSyncToken')
  if (feed.token) {
    const ids = seen.map((e) => e.id!)
    f.equal(ids.length, new Set(ids).size, 'sync visits each change once')
    const missing = feed.changed.filter((id) => !ids.includes(id))
    const extra = ids.filter((id) => !feed.changed.includes(id) && !feed.maybe.includes(id))
    f.equal({ missing, extra }, { missing: [], extra: [] }, 'events changed since the sync token')
    for (const e of seen) {
      const gone = !cal(f)[e.id!] && !Object.values(cal(f)).some((m) => m.changed.includes(e.id!))
      if (gone) f.equal(e.status, 'cancelled', `deleted event ${e.id} in the sync`)
    }
  }
  feed.token = next
  feed.changed = []
  feed.maybe = []
}

export const calendarOps: Op[] = [
  { name: 'calendar.insert', weight: 4, run: insert },
  { name: 'calendar.patch', weight: 2, run: patch },
  { name: 'calendar.exception', weight: 3, run: exception },
  { name: 'calendar.instances', weight: 1, run: async (f) => void (await instances(f)) },
  { name: 'calendar.delete', weight: 1, run: remove },
  { name: 'calendar.get', weight: 2, run: get },
  { name: 'calendar.list', weight: 2, run: list },
  { name: 'calendar.sync', weight: 2, run: sync },
]
