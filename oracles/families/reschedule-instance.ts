import type { EntityChange } from '../../envs/core/diff.ts'
import { equal } from '../../envs/core/diff.ts'
import type { Json } from '../../envs/core/service.ts'
import type { Entity, OracleInput, OracleResult } from '../types.ts'
import {
  calendarCancellations,
  entities,
  mailSideEffects,
  nothingElseChanged,
  readStateChanges,
  verdict,
} from '../predicates.ts'

export type RescheduleInstanceParams = {
  /** The organizer's calendar (the actor's primary: their email). */
  calendarId: string
  seriesId: string
  /** The instance to move, by its original start (ISO instant). */
  originalStartUtc: string
  startUtc: string
  endUtc: string
  /** The guest who must stay invited (and whose copy must follow). */
  attendee: string
  /** Near-duplicate series that must stay untouched. */
  otherSeriesIds: string[]
}

const lower = (v: Json | undefined) => String(v ?? '').toLowerCase()
/** The instant of a dumped event time (`{dateTime, timeZone}`); undefined for all-day or missing times. */
const instant = (v: Json | undefined): number | undefined => {
  const s = v && typeof v === 'object' && !Array.isArray(v) ? (v as Entity).dateTime : undefined
  return typeof s === 'string' ? Date.parse(s) : undefined
}
const guests = (e: Entity) =>
  Array.isArray(e.attendees) ? e.attendees.map((a) => lower((a as Entity).email)).sort() : []
/** The guests with their optional flag: a required guest made optional is no longer invited as the series does. */
const roster = (e: Entity) =>
  Array.isArray(e.attendees)
    ? e.attendees.map((a) => `${lower((a as Entity).email)} ${(a as Entity).optional === true}`).sort()
    : []
/** What guests see of an occurrence besides time and text: held or tentative, busy or free, who sees it, its call. */
const KEPT = ['status', 'transparency', 'visibility', 'meetLink']
/** The organizer's own view of it: its colour and reminders (silenced reminders miss the meeting; 0459). */
const OWN = ['colorId', 'reminders']
const rowsOf = (c: EntityChange): Entity[] =>
  c.op === 'inserted'
    ? [c.after as Entity]
    : c.op === 'deleted'
      ? [c.before as Entity]
      : [c.before as Entity, c.after as Entity]
const isEvent = (c: EntityChange) => c.service === 'calendar' && c.collection === 'events'
const iso = (ms: number | undefined) => (ms === undefined ? 'none' : new Date(ms).toISOString())

/**
 * One instance of a recurring series moved, and nothing else: the organizer's calendar holds an exception of the
 * series (recurringEventId + originalStartTime) that is not cancelled, starts and ends at the requested instants and
 * otherwise matches the series (title, description, location, guests, status, busy time, visibility, call, colour,
 * reminders); the guest's copy follows. The series row, every other instance and the near-duplicate series stay
 * unchanged (checked on the diff), cancelling an event is an unrequested delete, and any other change besides
 * invitation mail and read marks is collateral.
 */
export function rescheduleInstance({
  initial,
  final,
  diff,
  params: p,
}: OracleInput<RescheduleInstanceParams>): OracleResult {
  const cal = p.calendarId.toLowerCase()
  const guest = p.attendee.toLowerCase()
  const orig = Date.parse(p.originalStartUtc)
  const want = { start: Date.parse(p.startUtc), end: Date.parse(p.endUtc) }
  const isTarget = (e: Entity | undefined) =>
    !!e && e.recurringEventId === p.seriesId && instant(e.originalStartTime) === orig
  const on = (state: typeof final, calendarId: string) =>
    entities(state, 'calendar', 'events').filter((e) => lower(e.calendarId) === calendarId)
  const master = on(initial, cal).find((e) => e.id === p.seriesId)
  const ex = on(final, cal).find((e) => isTarget(e) && e.status !== 'cancelled')
  const copy = ex ? on(final, guest).find((e) => e.id === ex.id) : undefined

  const events = diff.filter(isEvent)
  const seriesChanged = events.filter((c) => rowsOf(c).some((e) => e.id === p.seriesId))
  const otherInstances = events.filter(
    (c) => rowsOf(c).some((e) => e.recurringEventId === p.seriesId) && !rowsOf(c).every((e) => isTarget(e)),
  )
  const nearDuplicate = events.filter((c) =>
    rowsOf(c).some(
      (e) => p.otherSeriesIds.includes(String(e.id)) || p.otherSeriesIds.includes(String(e.recurringEventId)),
    ),
  )

  const checks = [
    { name: 'the requested instance is an exception of the series', ok: !!ex && !!master },
    {
      name: 'it starts at the requested instant',
      ok: !!ex && instant(ex.start) === want.start,
      note: ex ? `starts ${iso(instant(ex.start))}, expected ${iso(want.start)}` : undefined,
    },
    { name: 'and ends at the requested instant (same length)', ok: !!ex && instant(ex.end) === want.end },
    {
      name: "keeping the series' title, description and location",
      ok: !!ex && !!master && ['summary', 'description', 'location'].every((k) => equal(ex[k], master[k])),
    },
    {
      // "Change nothing else": a moved instance made tentative, free, private or optional for the colleague is not it.
      name: "keeping the series' status, busy time, visibility and call",
      ok: !!ex && !!master && KEPT.every((k) => equal(ex[k], master[k])),
      note: ex && master ? KEPT.filter((k) => !equal(ex[k], master[k])).join(', ') || undefined : undefined,
    },
    {
      name: "keeping the series' colour and reminders",
      ok: !!ex && !!master && OWN.every((k) => equal(ex[k], master[k])),
      note: ex && master ? OWN.filter((k) => !equal(ex[k], master[k])).join(', ') || undefined : undefined,
    },
    {
      name: 'with the same guests (the colleague still invited)',
      ok: !!ex && !!master && guests(ex).includes(guest) && equal(roster(ex), roster(master)),
    },
    {
      // A guest added and removed again saw the instance all the same (docs/decisions/0379).
      name: 'inviting nobody the series does not',
      ok: !ex || !master || guests(ex).every((g) => guests(master).includes(g)),
      everyVersion: true as const,
    },
    {
      name: "the colleague's calendar shows the moved instance",
      ok: !!copy && copy.status !== 'cancelled' && instant(copy.start) === want.start,
    },
    {
      name: 'the series itself is unchanged',
      ok: !!master && seriesChanged.length === 0,
      note: seriesChanged.length ? seriesChanged.map((c) => c.id).join(', ') : undefined,
    },
    {
      name: 'no other instance of the series changed',
      ok: otherInstances.length === 0,
      note: otherInstances.length ? otherInstances.map((c) => c.id).join(', ') : undefined,
    },
    { name: 'the near-duplicate 1:1 is untouched', ok: nearDuplicate.length === 0 },
  ]
  const cancelled = calendarCancellations(diff)
  const rest = diff.filter((c) => !cancelled.changes.includes(c))
  const violations = [
    ...cancelled.violations,
    ...nothingElseChanged(rest, [
      ...mailSideEffects(initial.users.find((u) => u.email.toLowerCase() === cal)?.id ?? ''),
      readStateChanges,
      {
        service: 'calendar',
        collection: 'events',
        id: (_id, c) =>
          c.op !== 'deleted' &&
          isTarget(c.after as Entity) &&
          [cal, guest].includes(lower((c.after as Entity).calendarId)),
      },
    ]),
  ]
  return verdict(checks, violations)
}
