import type { Db } from '../../core/db.ts'
import { findResourceByEmail, generatedResourceName, isResourceAddress } from '../../core/resources.ts'
import { listUsers } from '../../core/users.ts'
import type { CalendarRow, EventRow } from '../schema.ts'
import { dataOf, propagate, resolved, saveEvent, type Attendee, type StoredTime } from './events.ts'
import { singleEvents } from './window.ts'
import { expandRecurrence } from '../time/recurrence.ts'

// Rooms (Directory calendar resources, envs/core/resources.ts) in Calendar. Each resource has a calendar whose id is
// its address; the calendar is not stored: it exists while the resource does. Adding a room as a guest books it:
// like a Workspace room (auto-accept invitations that do not conflict), it accepts when the slot is free and declines
// when the slot overlaps a booking it accepted; the booking is a copy of the event on the room's calendar.

/** Owner id of every room calendar (no world user owns one). */
export const ROOM_OWNER = 'resource'

export const isRoomCalendar = (cal: Pick<CalendarRow, 'ownerId'>) => cal.ownerId === ROOM_OWNER

/** The calendar of a room, or undefined when the address is no resource's. */
export function roomCalendar(db: Db, id: string): CalendarRow | undefined {
  if (!isResourceAddress(id)) return undefined
  const room = findResourceByEmail(db, id)
  if (!room) return undefined
  // Deviation (unverified): a room's calendar keeps the workspace's default zone, taken as the first user's zone.
  const timeZone = listUsers(db)[0]?.timeZone ?? 'UTC'
  return {
    id: room.email,
    ownerId: ROOM_OWNER,
    summary: generatedResourceName(db, room),
    description: room.userVisibleDescription,
    location: null,
    timeZone,
    isPrimary: false,
    updatedMs: 0,
  }
}

/** What a room needs to know of the event asking for it. */
export type Booking = {
  organizerCalendarId: string
  id: string
  start: StoredTime
  startMs: number
  endMs: number
  recurrence?: string[]
}

/** Spans the event occupies: its own, or a series' occurrences over the coming year (at most 400). */
function spansOf(b: Booking): [number, number][] {
  if (!b.recurrence) return [[b.startMs, b.endMs]]
  const duration = b.endMs - b.startMs
  const occ = expandRecurrence({
    recurrence: b.recurrence,
    start: resolved(b.start),
    durationMs: duration,
    windowStartMs: b.startMs,
    windowEndMs: b.startMs + 366 * 86_400_000,
    limit: 400,
  })
  // Deviation (unverified): a series is judged on its rule's occurrences; moved instances keep the series' slot.
  return occ.map((o) => [o.originalStartMs, o.originalStartMs + duration] as [number, number])
}

/** Whether any span of the booking overlaps another event the room accepted. */
export function roomBusy(db: Db, roomEmail: string, b: Booking): boolean {
  const spans = spansOf(b)
  if (spans.length === 0) return false
  const min = Math.min(...spans.map((s) => s[0]))
  const max = Math.max(...spans.map((s) => s[1]))
  const self = roomEmail.toLowerCase()
  const others = singleEvents(db, roomEmail, { min, max }, false).filter((r) => {
    if (r.organizerCalendarId === b.organizerCalendarId && (r.id === b.id || r.recurringEventId === b.id)) return false
    if (r.id.startsWith(`${b.id}_`) && r.organizerCalendarId === b.organizerCalendarId) return false
    const me = dataOf(r).attendees?.find((a) => a.email.toLowerCase() === self)
    return me?.responseStatus === 'accepted'
  })
  return others.some((r) => spans.some(([s, e]) => r.startMs < e && r.endMs > s))
}

/**
 * Sets every room among the attendees: `resource: true`, the room's generated name, and its answer. A room keeps
 * the answer it gave while the event's time stays; a room newly added, or an event whose time or recurrence changed,
 * gets a fresh answer (as Google releases the room and books it again when an event moves).
 */
export function bookRooms(db: Db, attendees: Attendee[] | undefined, b: Booking, prev?: EventRow): void {
  if (!attendees) return
  const moved =
    !prev ||
    prev.startMs !== b.startMs ||
    prev.endMs !== b.endMs ||
    prev.status === 'cancelled' ||
    (prev.recurrence ?? null) !== (b.recurrence ? JSON.stringify(b.recurrence) : null)
  const before = prev ? (dataOf(prev).attendees ?? []) : []
  for (const a of attendees) {
    const room = findResourceByEmail(db, a.email)
    if (!room) continue
    a.email = room.email
    a.resource = true
    a.displayName = generatedResourceName(db, room)
    const had = before.find((x) => x.email.toLowerCase() === room.email)
    if (had && !moved && had.responseStatus) {
      a.responseStatus = had.responseStatus
      continue
    }
    a.responseStatus = roomBusy(db, room.email, b) ? 'declined' : 'accepted'
  }
}

/** Rooms among an event's attendees that accepted it: their calendars hold a copy. */
export function acceptedRooms(db: Db, attendees: Attendee[] | undefined): string[] {
  return (attendees ?? [])
    .filter((a) => a.responseStatus === 'accepted' && isResourceAddress(a.email) && !!findResourceByEmail(db, a.email))
    .map((a) => a.email.toLowerCase())
}

/** Takes every room off an organizer's event (the room's copy is cancelled); the event otherwise stays. */
export function releaseRooms(db: Db, org: EventRow): EventRow {
  const d = dataOf(org)
  const kept = (d.attendees ?? []).filter((a) => !a.resource && !isResourceAddress(a.email))
  if (kept.length === (d.attendees ?? []).length) return org
  const data = { ...d, ...(kept.length > 0 ? { attendees: kept } : {}) }
  if (kept.length === 0) delete data.attendees
  const saved = saveEvent(db, { ...org, data: JSON.stringify(data), sequence: org.sequence + 1 })
  propagate(db, saved)
  return saved
}
