import type { Json } from '../../../envs/core/service.ts'
import { confirmed, notASeries } from '../../event-series.ts'
import type { EntityChange, WorldState } from '../../../envs/core/diff.ts'
import type { Entity, OracleInput, OracleResult } from '../../types.ts'
import { entities, mailSideEffects, nothingElseChanged, norm, readStateChanges, verdict } from '../../predicates.ts'

export type BookRoomParams = {
  actor: string
  /** The actor's primary calendar (their address): the event's organizer. */
  calendarId: string
  title: string
  startUtc: string
  durationMin: number
  /** Guests' addresses (the actor is the organizer, not listed). */
  guests: string[]
  /** resourceId of the one room that fits; the rest are `wrong`. */
  room: string
  building: string
  capacity: number
  feature: string
  wrong: string[]
}

const ms = (t: Json | undefined) => {
  const o = t && typeof t === 'object' && !Array.isArray(t) ? (t as Entity) : {}
  return Date.parse(String(o.dateTime ?? o.date ?? ''))
}
const isRoom = (email: string) => email.toLowerCase().endsWith('@resource.calendar.google.com')

/** The Directory's rooms as the world started (address → entity). */
function roomsOf(s: WorldState): Map<string, Entity> {
  return new Map(entities(s, 'identity', 'resources').map((r) => [String(r.email).toLowerCase(), r]))
}

/**
 * Book a room: exactly one new event on the actor's calendar at the asked time and length, with every guest and no
 * one else, and exactly one room, which accepted (a busy room declines) and is in the asked building, seats everyone
 * and has the feature. Only that event's rows (the guests' and the room's copies), invitation mail and read marks
 * may change; a second event, even for a declined room, fails "exactly one new event".
 */
export function bookRoom({ initial, diff, params: p }: OracleInput<BookRoomParams>): OracleResult {
  const inserted = diff
    .filter((c) => c.op === 'inserted' && c.service === 'calendar' && c.collection === 'events')
    .map((c) => (c as { after: Json }).after as Entity)
    .filter((e) => e.status !== 'cancelled')
  const ids = [...new Set(inserted.map((e) => String(e.id)))]
  const me = p.calendarId.toLowerCase()
  const e =
    ids.length === 1
      ? inserted.find((x) => String(x.calendarId).toLowerCase() === me && String(x.organizer).toLowerCase() === me)
      : undefined
  const attendees = ((e?.attendees ?? []) as Entity[]).map((a) => ({
    email: String(a.email).toLowerCase(),
    responseStatus: a.responseStatus,
  }))
  const people = attendees.filter((a) => !isRoom(a.email) && a.email !== me).map((a) => a.email)
  const booked = attendees.filter((a) => isRoom(a.email))
  const rooms = roomsOf(initial)
  const only = booked.length === 1 ? booked[0]! : undefined
  const r = only ? rooms.get(only.email) : undefined
  const at = Date.parse(p.startUtc)
  const guests = p.guests.map((g) => g.toLowerCase())
  const checks = [
    { name: 'exactly one new event', ok: ids.length === 1, note: `${ids.length} events` },
    { name: 'on your calendar, organised by you', ok: !!e },
    { name: 'with the asked title', ok: !!e && norm(e.summary).includes(norm(p.title)) },
    { name: 'at the asked time', ok: !!e && ms(e.start) === at },
    { name: 'with the asked length', ok: !!e && ms(e.end) === at + p.durationMin * 60_000 },
    notASeries(e),
    confirmed(e),
    { name: 'inviting every guest', ok: !!e && guests.every((g) => people.includes(g)) },
    // A guest invited and dropped again saw the event all the same (docs/decisions/0379).
    { name: 'and nobody else', ok: !!e && people.every((x) => guests.includes(x)), everyVersion: true as const },
    { name: 'exactly one room', ok: booked.length === 1, note: `${booked.length} rooms` },
    { name: 'the room accepted (it was free)', ok: only?.responseStatus === 'accepted' },
    { name: `the room is in ${p.building}`, ok: !!r && r.buildingId === p.building },
    { name: `it seats ${p.capacity}`, ok: !!r && typeof r.capacity === 'number' && r.capacity >= p.capacity },
    { name: `it has ${p.feature}`, ok: !!r && ((r.features ?? []) as string[]).includes(p.feature) },
    { name: 'it is the room that fits', ok: !!r && r.resourceId === p.room },
  ]
  const mine = (c: EntityChange) => c.op === 'inserted' && ids.length === 1 && String((c.after as Entity).id) === ids[0]
  const violations = nothingElseChanged(diff, [
    ...mailSideEffects(p.actor),
    readStateChanges,
    { service: 'calendar', collection: 'events', id: (_id, c) => mine(c) },
  ])
  return verdict(checks, violations, { rooms: booked.length })
}
