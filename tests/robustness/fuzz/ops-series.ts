import type { calendar_v3 } from 'googleapis'
import type { Fuzz, Op } from './engine.ts'
import { touched } from './ops-calendar.ts'

// Invitations on recurring series (docs/decisions/0448): Ann invites Ben to daily series (in May, outside the
// `invites` family's March window), changes the guest list of the series or of one instance, and Ben answers the
// series or one instance. Checked by comparing both sides: Ben's instances are Ann's instances that list him, with
// the same start, summary and his answer as Ann's copy shows it; an answer to one instance leaves the others as they
// were; Ben's own sync feed lists every event the organizer or he changed since his token.

type Event = calendar_v3.Schema$Event
const BEN = 'ben@example.com'
const ZED = 'zed@elsewhere.test'
const cal = (f: Fuzz) => f.model.calendar
export type SeriesModel = {
  series: Record<string, { guests: string[] }>
  /** Ben's sync position and the ids that must (or may) appear in his next sync. */
  benSync: { token?: string; changed: string[] }
}
const model = (f: Fuzz) => f.model.series
const live = (f: Fuzz) => Object.keys(model(f).series).filter((id) => cal(f)[id])
const answerOf = (e: Event | undefined) => e?.attendees?.find((a) => a.email === BEN)?.responseStatus
const at = (d: { dateTime?: string | null; date?: string | null } | undefined) =>
  d?.date ?? new Date(Date.parse(d!.dateTime!)).toISOString()
/** Notes an id written since Ben's sync token (his copy of it changed). */
const benTouched = (f: Fuzz, id: string) => {
  const feed = model(f).benSync
  if (feed.token && !feed.changed.includes(id)) feed.changed.push(id)
}

async function invite(f: Fuzz): Promise<void> {
  const startMs = Date.UTC(2026, 4, 4 + f.rng.int(20), 6 + f.rng.int(12), f.rng.pick([0, 30]))
  const count = 2 + f.rng.int(5)
  const summary = f.rng.text(40)
  const guests = [BEN, ...(f.rng.chance(0.4) ? [ZED] : [])]
  const start = new Date(startMs).toISOString()
  const r = await f.google('events.insert series invite', true, () =>
    f.calendar.events.insert({
      calendarId: 'primary',
      sendUpdates: 'none',
      requestBody: {
        summary,
        start: { dateTime: start, timeZone: 'Europe/Berlin' },
        end: { dateTime: new Date(startMs + 3_600_000).toISOString(), timeZone: 'Europe/Berlin' },
        recurrence: [`RRULE:FREQ=DAILY;COUNT=${count}`],
        attendees: guests.map((email) => ({ email })),
      },
    }),
  )
  f.check(r.ok, () => `series invite: ${r.status} ${JSON.stringify(r.data)}`)
  const id = r.data.id!
  touched(f, id)
  benTouched(f, id)
  cal(f)[id] = { summary, count, gone: [], changed: [], start, allDay: false }
  model(f).series[id] = { guests }
}

async function instancesOf(f: Fuzz, who: 'ann' | 'ben', eventId: string): Promise<Event[] | undefined> {
  const c = who === 'ann' ? f.calendar : f.ben.calendar
  const r = await f.google(`${who} events.instances`, false, () =>
    c.events.instances({ calendarId: 'primary', eventId, maxResults: 250 }),
  )
  if (who === 'ben' && r.status === 404) return undefined
  f.check(r.ok, () => `${who} events.instances of ${eventId}: ${r.status} ${JSON.stringify(r.data)}`)
  return r.data.items ?? []
}

/** Ann changes who is invited: to the whole series (Ben removed or back, an outside guest) or to one instance. */
async function guests(f: Fuzz): Promise<void> {
  const ids = live(f)
  if (!ids.length) return invite(f)
  const id = f.rng.pick(ids)
  const s = model(f).series[id]!
  // One instance's guests change only while Ben is invited to the series (an instance alone is not modelled), the
  // series' only while it has no exceptions (whether a changed instance follows the series' guests is not documented).
  const whole = f.rng.chance(0.6) || !s.guests.includes(BEN)
  if (whole && cal(f)[id]!.changed.length) return
  if (whole) {
    const next = f.rng.pick([[BEN], [BEN, ZED], [ZED]])
    const r = await f.google('events.patch series guests', true, () =>
      f.calendar.events.patch({
        calendarId: 'primary',
        eventId: id,
        sendUpdates: 'none',
        requestBody: { attendees: next.map((email) => ({ email })) },
      }),
    )
    f.check(r.ok, () => `series guests: ${r.status} ${JSON.stringify(r.data)}`)
    f.equal((r.data.attendees ?? []).map((a) => a.email).sort(), [...next].sort(), 'series guests')
    touched(f, id)
    for (const x of [...cal(f)[id]!.changed, ...cal(f)[id]!.gone]) touched(f, x, true)
    if (s.guests.includes(BEN) || next.includes(BEN)) benTouched(f, id)
    s.guests = next
    return
  }
  const items = await instancesOf(f, 'ann', id)
  if (!items?.length) return
  const one = f.rng.pick(items)
  const next = f.rng.pick([[BEN], [ZED], [BEN, ZED]])
  const r = await f.google('events.patch instance guests', true, () =>
    f.calendar.events.patch({
      calendarId: 'primary',
      eventId: one.id!,
      sendUpdates: 'none',
      requestBody: { attendees: next.map((email) => ({ email })) },
    }),
  )
  f.check(r.ok, () => `instance guests: ${r.status} ${JSON.stringify(r.data)}`)
  f.equal([r.data.id, r.data.recurringEventId], [one.id, id], 'patched instance')
  touched(f, one.id!)
  if (!cal(f)[id]!.changed.includes(one.id!)) cal(f)[id]!.changed.push(one.id!)
  const had = (one.attendees ?? []).some((a) => a.email === BEN)
  if (had || next.includes(BEN)) benTouched(f, one.id!)
}

/** Ann cancels one instance (Ben's copy of it goes, whether or not he is invited now). */
async function cancel(f: Fuzz): Promise<void> {
  const ids = live(f)
  if (!ids.length) return invite(f)
  const id = f.rng.pick(ids)
  const items = await instancesOf(f, 'ann', id)
  if (!items?.length) return
  const one = f.rng.pick(items)
  const r = await f.google('events.delete series instance', true, () =>
    f.calendar.events.delete({ calendarId: 'primary', eventId: one.id!, sendUpdates: 'none' }),
  )
  f.check(r.ok, () => `cancel ${one.id}: ${r.status}`)
  const m = cal(f)[id]!
  touched(f, one.id!)
  m.gone.push(one.id!)
  m.changed = m.changed.filter((x) => x !== one.id)
  if (one.attendees?.some((a) => a.email === BEN)) benTouched(f, one.id!)
}

/** Ben answers his copy of the series or of one instance; Ann's side shows it there and nowhere else. */
async function answer(f: Fuzz): Promise<void> {
  const ids = live(f).filter((id) => model(f).series[id]!.guests.includes(BEN))
  if (!ids.length) return invite(f)
  const id = f.rng.pick(ids)
  const before = await instancesOf(f, 'ann', id)
  const mine = (await instancesOf(f, 'ben', id))?.filter((e) => answerOf(e))
  const whole = f.rng.chance(0.4) || !mine?.length
  const target = whole ? id : f.rng.pick(mine).id!
  const got = await f.google('ben events.get', false, () =>
    f.ben.calendar.events.get({ calendarId: 'primary', eventId: target }),
  )
  f.check(got.ok, () => `Ben reads his copy of ${target}: ${got.status}`)
  const response = f.rng.pick(['accepted', 'declined', 'tentative'].filter((x) => x !== answerOf(got.data)))
  const attendees = (got.data.attendees ?? []).map((a) => (a.email === BEN ? { ...a, responseStatus: response } : a))
  const r = await f.google('ben events.patch answer', true, () =>
    f.ben.calendar.events.patch({ calendarId: 'primary', eventId: target, requestBody: { attendees } }),
  )
  f.check(r.ok, () => `Ben answers ${target}: ${r.status} ${JSON.stringify(r.data)}`)
  f.equal(answerOf(r.data), response, `Ben's answer on his ${target}`)
  touched(f, target)
  benTouched(f, target)
  if (!whole) {
    // Ann's copy of that instance carries the answer; her other instances keep theirs.
    const after = await instancesOf(f, 'ann', id)
    for (const e of after ?? []) {
      const was = answerOf(before?.find((b) => b.id === e.id))
      f.equal(answerOf(e), e.id === target ? response : was, `Ben's answer on Ann's ${e.id}`)
    }
    if (!cal(f)[id]!.changed.includes(target)) cal(f)[id]!.changed.push(target)
  }
  if (whole) {
    const ann = await f.google('events.get', false, () => f.calendar.events.get({ calendarId: 'primary', eventId: id }))
    f.check(ann.ok, 'Ann reads the series')
    f.equal(answerOf(ann.data), response, `Ben's answer on Ann's series ${id}`)
    for (const x of [...cal(f)[id]!.changed, ...cal(f)[id]!.gone]) touched(f, x, true)
  }
}

/** Ben's copies mirror Ann's: the instances that list him, with their start, summary and his answer. */
async function mirror(f: Fuzz): Promise<void> {
  const ids = live(f)
  if (!ids.length) return invite(f)
  const id = f.rng.pick(ids)
  const ann = (await instancesOf(f, 'ann', id))!
  const ben = await instancesOf(f, 'ben', id)
  const want = ann.filter((e) => e.attendees?.some((a) => a.email === BEN))
  const view = (e: Event) => [e.id, at(e.start!), e.summary, answerOf(e), e.organizer?.email]
  const seen = ben?.filter((e) => e.status !== 'cancelled') ?? []
  f.equal(seen.map(view), want.map(view), `Ben's instances of ${id} mirror Ann's`)
  const copy = await f.google('ben events.get', false, () =>
    f.ben.calendar.events.get({ calendarId: 'primary', eventId: id }),
  )
  if (!model(f).series[id]!.guests.includes(BEN)) {
    f.check(copy.status === 404 || copy.data.status === 'cancelled', `Ben's copy of a series he left (${copy.status})`)
  } else {
    f.check(copy.ok, () => `Ben's copy of ${id}: ${copy.status}`)
    f.equal([copy.data.status, copy.data.summary], ['confirmed', cal(f)[id]!.summary], `Ben's series ${id}`)
  }
}

/** Ben's incremental sync lists every copy that changed since his token (and only his events). */
async function benSync(f: Fuzz): Promise<void> {
  const feed = model(f).benSync
  const seen: Event[] = []
  let pageToken: string | undefined
  let next: string | undefined
  for (let i = 0; i < 500; i++) {
    const r = await f.google('ben events.list sync', false, () =>
      f.ben.calendar.events.list({
        calendarId: 'primary',
        maxResults: 1 + f.rng.int(4),
        ...(feed.token ? { syncToken: feed.token } : {}),
        ...(pageToken ? { pageToken } : {}),
      }),
    )
    f.check(r.ok, () => `ben sync: ${r.status} ${JSON.stringify(r.data)}`)
    seen.push(...(r.data.items ?? []))
    pageToken = r.data.nextPageToken ?? undefined
    next = r.data.nextSyncToken ?? undefined
    if (!pageToken) break
  }
  f.check(next, 'the last page of Ben sync carries nextSyncToken')
  if (feed.token) {
    const ids = seen.map((e) => e.id!)
    f.equal(ids.length, new Set(ids).size, "Ben's sync visits each change once")
    const missing = feed.changed.filter((id) => !ids.includes(id))
    // Other families' invitations (and the organizer's changes to Ann's events) may appear: only his own events.
    const mine = (id: string) => Object.keys(model(f).series).some((s) => id.startsWith(s)) || f.model.invites[id]
    const extra = ids.filter((id) => !mine(id))
    f.equal({ missing, extra }, { missing: [], extra: [] }, "Ben's events changed since his sync token")
  }
  feed.token = next
  feed.changed = []
}

export const seriesOps: Op[] = [
  { name: 'series.invite', weight: 2, run: invite },
  { name: 'series.guests', weight: 3, run: guests },
  { name: 'series.answer', weight: 3, run: answer },
  { name: 'series.cancel', weight: 1, run: cancel },
  { name: 'series.mirror', weight: 3, run: mirror },
  { name: 'series.benSync', weight: 2, run: benSync },
]
