import type { Fuzz, Op } from './engine.ts'
import { touched } from './ops-calendar.ts'

// Calendar between two people: Ann invites Ben (his primary calendar holds a copy with the same id), Ben answers
// through his copy or deletes it (a decline), Ann deletes hers (his copy is cancelled); checked by each side's
// events.get, Ben's events.list and both free/busy answers (docs/decisions/0445).

const BEN = 'ben@example.com'
const WINDOW = { timeMin: '2026-03-01T00:00:00Z', timeMax: '2026-04-01T00:00:00Z' }
const cal = (f: Fuzz) => f.model.calendar
const live = (f: Fuzz) => Object.keys(f.model.invites).filter((id) => cal(f)[id])
type Attendee = { email?: string | null; responseStatus?: string | null }
const answerOf = (as: Attendee[] | null | undefined) => as?.find((a) => a.email === BEN)?.responseStatus

async function invite(f: Fuzz): Promise<void> {
  const day = 11 + f.rng.int(15)
  const startMs = Date.UTC(2026, 2, day, f.rng.int(24), f.rng.pick([0, 30]))
  const endMs = startMs + (1 + f.rng.int(6)) * 1_800_000
  const [start, end] = [new Date(startMs).toISOString(), new Date(endMs).toISOString()]
  const summary = f.rng.text(40)
  const attendees = [{ email: BEN }, ...(f.rng.chance(0.3) ? [{ email: 'zed@elsewhere.test' }] : [])]
  const r = await f.google('events.insert invite', true, () =>
    f.calendar.events.insert({
      calendarId: 'primary',
      sendUpdates: 'none',
      requestBody: { summary, start: { dateTime: start }, end: { dateTime: end }, attendees },
    }),
  )
  f.check(r.ok, () => `events.insert with Ben: ${r.status} ${JSON.stringify(r.data)}`)
  f.equal(answerOf(r.data.attendees), 'needsAction', "Ben's answer on a new invitation")
  touched(f, r.data.id!)
  cal(f)[r.data.id!] = { summary, count: 1, gone: [], changed: [], start, allDay: false }
  f.model.invites[r.data.id!] = { response: 'needsAction', start, end }
}

/** Ben answers through his copy: the whole guest list as he sees it, his own entry changed. */
async function answer(f: Fuzz): Promise<void> {
  const ids = live(f).filter((id) => !f.model.invites[id]!.deleted)
  if (!ids.length) return invite(f)
  const eventId = f.rng.pick(ids)
  const mine = await f.google('ben events.get', false, () =>
    f.ben.calendar.events.get({ calendarId: 'primary', eventId }),
  )
  f.check(mine.ok, () => `Ben reads his copy of ${eventId}: ${mine.status}`)
  const response = f.rng.pick(['accepted', 'declined', 'tentative'])
  const attendees = (mine.data.attendees ?? []).map((a) => (a.email === BEN ? { ...a, responseStatus: response } : a))
  const r = await f.google('ben events.patch answer', true, () =>
    f.ben.calendar.events.patch({ calendarId: 'primary', eventId, requestBody: { attendees } }),
  )
  f.check(r.ok, () => `Ben answers ${eventId}: ${r.status} ${JSON.stringify(r.data)}`)
  f.equal(answerOf(r.data.attendees), response, "Ben's answer on his copy")
  // A new answer changes the organizer's event (her sync lists it); the same answer again changes nothing of hers.
  if (f.model.invites[eventId]!.response !== response) touched(f, eventId)
  f.model.invites[eventId]!.response = response
}

/** Ben deletes his copy: Google takes it as a decline. */
async function benDelete(f: Fuzz): Promise<void> {
  const ids = live(f).filter((id) => !f.model.invites[id]!.deleted)
  if (!ids.length) return invite(f)
  const eventId = f.rng.pick(ids)
  const r = await f.google('ben events.delete', true, () =>
    f.ben.calendar.events.delete({ calendarId: 'primary', eventId }),
  )
  f.check(r.ok, () => `Ben deletes his copy of ${eventId}: ${r.status} ${JSON.stringify(r.data)}`)
  // Deleting a copy already declined may still touch the organizer's event (the server records the decline again).
  touched(f, eventId, f.model.invites[eventId]!.response === 'declined')
  Object.assign(f.model.invites[eventId]!, { response: 'declined', deleted: true })
}

/** Each side's copy of one invitation: the organizer's summary, Ben's answer, cancelled once Ann deleted it. */
async function view(f: Fuzz): Promise<void> {
  const ids = Object.keys(f.model.invites)
  if (!ids.length) return invite(f)
  const eventId = f.rng.pick(ids)
  const m = f.model.invites[eventId]!
  const organizer = cal(f)[eventId]
  const ben = await f.google('ben events.get', false, () =>
    f.ben.calendar.events.get({ calendarId: 'primary', eventId }),
  )
  f.check(ben.ok, () => `Ben's copy of ${eventId}: ${ben.status}`)
  const want = organizer && !m.deleted ? 'confirmed' : 'cancelled'
  f.equal(ben.data.status, want, `status of Ben's copy of ${eventId}`)
  if (want === 'confirmed') {
    f.equal([ben.data.summary, answerOf(ben.data.attendees)], [organizer!.summary, m.response], `Ben's ${eventId}`)
    f.equal(ben.data.organizer?.email, 'ann@example.com', 'organizer of the copy')
  }
  if (!organizer) return
  const ann = await f.google('events.get', false, () => f.calendar.events.get({ calendarId: 'primary', eventId }))
  f.check(ann.ok, () => `Ann's ${eventId}: ${ann.status}`)
  f.equal(answerOf(ann.data.attendees), m.response, `Ben's answer as Ann sees it on ${eventId}`)
}

/** Ben's listing holds his live invitations (a copy he deleted or Ann cancelled is gone without showDeleted). */
async function benList(f: Fuzz): Promise<void> {
  const seen: string[] = []
  let pageToken: string | undefined
  for (let i = 0; i < 500; i++) {
    const r = await f.google('ben events.list', false, () =>
      f.ben.calendar.events.list({ calendarId: 'primary', maxResults: 1 + f.rng.int(4), pageToken, ...WINDOW }),
    )
    f.check(r.ok, () => `ben events.list: ${r.status}`)
    seen.push(...(r.data.items ?? []).map((e) => e.id!))
    pageToken = r.data.nextPageToken ?? undefined
    if (!pageToken) break
  }
  const want = live(f).filter((id) => !f.model.invites[id]!.deleted)
  f.equal(seen.sort(), want.sort(), "Ben's events")
}

const merge = (xs: [number, number][]) => {
  const out: [number, number][] = []
  for (const [s, e] of xs.sort((a, b) => a[0] - b[0])) {
    const last = out.at(-1)
    if (last && s <= last[1]) last[1] = Math.max(last[1], e)
    else out.push([s, e])
  }
  return out
}

/** freebusy: Ben is busy exactly through the invitations he has not declined; Ann through every one she holds. */
async function freebusy(f: Fuzz): Promise<void> {
  const r = await f.google('freebusy.query', false, () =>
    f.ben.calendar.freebusy.query({ requestBody: { ...WINDOW, items: [{ id: 'ann@example.com' }, { id: BEN }] } }),
  )
  f.check(r.ok, () => `freebusy: ${r.status} ${JSON.stringify(r.data)}`)
  const busy = (who: string) =>
    (r.data.calendars?.[who]?.busy ?? []).map((b): [number, number] => [Date.parse(b.start!), Date.parse(b.end!)])
  const span = (id: string): [number, number] => [
    Date.parse(f.model.invites[id]!.start),
    Date.parse(f.model.invites[id]!.end),
  ]
  const benWant = merge(
    live(f)
      .filter((id) => f.model.invites[id]!.response !== 'declined')
      .map(span),
  )
  f.equal(merge(busy(BEN)), benWant, "Ben's busy times")
  const ann = merge(busy('ann@example.com'))
  for (const id of live(f)) {
    const [s, e] = span(id)
    f.check(
      ann.some(([a, b]) => a <= s && e <= b),
      () => `Ann's busy times ${JSON.stringify(ann)} miss ${id}`,
    )
  }
}

export const inviteOps: Op[] = [
  { name: 'invites.invite', weight: 3, run: invite },
  { name: 'invites.answer', weight: 3, run: answer },
  { name: 'invites.benDelete', weight: 1, run: benDelete },
  { name: 'invites.view', weight: 3, run: view },
  { name: 'invites.benList', weight: 2, run: benList },
  { name: 'invites.freebusy', weight: 2, run: freebusy },
]
