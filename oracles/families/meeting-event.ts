import type { Json } from '../../envs/core/service.ts'
import type { OracleInput, OracleResult } from '../types.ts'
import { mailSideEffects, nothingElseChanged, readStateChanges, verdict } from '../predicates.ts'

export type MeetingEventParams = { startUtc: string; durationMin: number; timeZone: string; attendees: string[]; notAttendees: string[] }

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
const emails = (v: Json | undefined): string[] => (Array.isArray(v) ? v.map((a) => String(a && typeof a === 'object' && !Array.isArray(a) ? (a as Ev).email : a).toLowerCase()) : [])

/**
 * A new calendar event at the requested instant, in the requester's time zone, with exactly the right guests.
 * Reads any inserted Calendar entity with a `start` (the dump documents `start: {dateTime, timeZone}` or ISO
 * strings). Inviting everyone fails (the excluded person is checked); a wrong instant or zone fails; only new
 * events, invitations and read marks may change.
 */
export function meetingEvent({ diff, params: p }: OracleInput<MeetingEventParams>): OracleResult {
  const events = diff.filter((c) => c.op === 'inserted' && c.service === 'calendar').map((c) => (c as { after: Json }).after as Ev).filter((e) => e && typeof e === 'object' && 'start' in e)
  const at = Date.parse(p.startUtc)
  const timed = events.filter((e) => when(e.start)?.ms === at)
  const zoned = timed.filter((e) => (when(e.start)?.tz ?? e.timeZone) === p.timeZone)
  const lasting = zoned.filter((e) => when(e.end)?.ms === at + p.durationMin * 60_000)
  const guests = lasting.filter((e) => p.attendees.every((a) => emails(e.attendees).includes(a.toLowerCase())))
  const clean = guests.filter((e) => !p.notAttendees.some((a) => emails(e.attendees).includes(a.toLowerCase())))
  const checks = [
    { name: 'an event starts at the requested time', ok: timed.length > 0 },
    { name: "in the requester's time zone", ok: zoned.length > 0 },
    { name: 'with the requested length', ok: lasting.length > 0 },
    { name: 'inviting everyone asked for', ok: guests.length > 0 },
    { name: 'and nobody who should not come', ok: clean.length > 0 },
  ]
  const violations = nothingElseChanged(diff, [...mailSideEffects, readStateChanges, { service: 'calendar', collection: 'events', id: (_id, c) => c.op === 'inserted' }, { service: 'calendar', collection: 'attendees', id: (_id, c) => c.op === 'inserted' }])
  return verdict(checks, violations)
}
