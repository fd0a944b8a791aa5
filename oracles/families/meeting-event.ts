import type { Json } from '../../envs/core/service.ts'
import type { EntityChange } from '../../envs/core/diff.ts'
import type { OracleInput, OracleResult } from '../types.ts'
import { mailSideEffects, nothingElseChanged, readStateChanges, verdict } from '../predicates.ts'
import { importedEvents, invitedBy } from '../imported-events.ts'
import { confirmed, notASeries } from '../event-series.ts'

export type MeetingEventParams = {
  startUtc: string
  durationMin: number
  timeZone: string
  attendees: string[]
  notAttendees: string[]
  /** The organizer's calendar id (their email) and world user id. */
  calendarId?: string
  actor?: string
}

type Ev = { [k: string]: Json }
const when = (v: Json | undefined): { ms: number; tz?: string } | undefined => {
  if (typeof v === 'string') return { ms: Date.parse(v) }
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Ev
    const s = typeof o.dateTime === 'string' ? o.dateTime : typeof o.date === 'string' ? o.date : undefined
    if (s) return { ms: Date.parse(s), tz: typeof o.timeZone === 'string' ? o.timeZone : undefined }
  }
  return undefined
}
const emails = (v: Json | undefined): string[] =>
  Array.isArray(v)
    ? v.map((a) => String(a && typeof a === 'object' && !Array.isArray(a) ? (a as Ev).email : a).toLowerCase())
    : []

/**
 * Exactly one new calendar event (its guests' copies share its id), on the organizer's calendar, at the requested
 * instant, in the requester's time zone, with the requested length and exactly the right guests. Events at both the
 * superseded and the final time, or every candidate plus the right one, fail (and the extra events are collateral);
 * inviting everyone fails (the excluded person is checked, and nobody but the asked guests and the organizer may be
 * invited); only that event, invitation mail and read marks may change.
 */
export function meetingEvent({ diff, actions, params: p }: OracleInput<MeetingEventParams>): OracleResult {
  // An event created and then deleted is stored cancelled: it books nothing (and counts for nothing).
  const events = diff
    .filter((c) => c.op === 'inserted' && c.service === 'calendar' && c.collection === 'events')
    .map((c) => (c as { after: Json }).after as Ev)
    .filter((e) => e.status !== 'cancelled')
  const ids = [...new Set(events.map((e) => String(e.id)))]
  const own = p.calendarId
    ? events.filter((e) => String(e.calendarId).toLowerCase() === p.calendarId!.toLowerCase())
    : events
  const e = ids.length === 1 ? own[0] : undefined
  const at = Date.parse(p.startUtc)
  // An imported copy invites nobody (imported-events.ts, 0451).
  const guests = e ? emails(invitedBy(e, importedEvents(actions))) : []
  const allowed = new Set([...p.attendees, p.calendarId ?? ''].map((a) => a.toLowerCase()))
  const checks = [
    { name: 'exactly one new event', ok: ids.length === 1, note: `${ids.length} events` },
    { name: 'on your calendar', ok: !!e },
    { name: 'it starts at the requested time', ok: !!e && when(e.start)?.ms === at },
    { name: "in the requester's time zone", ok: !!e && (when(e.start)?.tz ?? e.timeZone) === p.timeZone },
    { name: 'with the requested length', ok: !!e && when(e.end)?.ms === at + p.durationMin * 60_000 },
    notASeries(e),
    confirmed(e),
    { name: 'inviting everyone asked for', ok: !!e && p.attendees.every((a) => guests.includes(a.toLowerCase())) },
    {
      name: 'and nobody who should not come',
      ok: !!e && !p.notAttendees.some((a) => guests.includes(a.toLowerCase())),
      // An invitation that went out was seen even if the guest was dropped again (docs/decisions/0371).
      everyVersion: true as const,
    },
    // Only they (the organizer may list themself): the team, an outsider or the whole address book invited beside
    // the right guests paid 1 as long as the colleague on leave was not among them (docs/decisions/0481).
    {
      name: 'and nobody else',
      ok: !!e && guests.every((g) => allowed.has(g)),
      note: `${guests.filter((g) => !allowed.has(g)).length} other guests`,
      everyVersion: true as const,
    },
  ]
  const mine = (c: EntityChange) =>
    c.op === 'inserted' &&
    ((ids.length === 1 && String((c.after as Ev).id) === ids[0]) || (c.after as Ev).status === 'cancelled')
  const violations = nothingElseChanged(diff, [
    ...mailSideEffects(p.actor ?? ''),
    readStateChanges,
    { service: 'calendar', collection: 'events', id: (_id, c) => mine(c) },
  ])
  return verdict(checks, violations)
}
