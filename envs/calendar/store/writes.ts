import type { Db } from '../../core/db.ts'
import { nowMs } from '../../core/clock.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import type { CalendarRow, EventRow } from '../schema.ts'
import { applyConference, fieldsOf, type EventBody } from './build.ts'
import {
  dataOf,
  exceptionsOf,
  findEvent,
  lookupEvent,
  propagate,
  rowsOfEvent,
  saveEvent,
  type Attendee,
  type ParsedParts,
} from './events.ts'
import { guestsOf, notify, type SendUpdates } from './notify.ts'
import { bookRooms } from './rooms.ts'
import { copyCancelledInstances } from './cancelled-copies.ts'
import { userAliasAddresses } from '../../core/aliases.ts'

export type WriteOptions = { sendUpdates: SendUpdates; conferenceDataVersion: number }

const isOrganizerRow = (r: EventRow) => r.calendarId === r.organizerCalendarId

/** A new row's texts and times from checked fields (fieldsOf), in the row's column order. */
const storedParts = (f: ReturnType<typeof fieldsOf>) => ({
  data: JSON.stringify(f.data),
  start: JSON.stringify(f.start),
  end: JSON.stringify(f.end),
  startMs: f.start.ms,
  endMs: f.end.ms,
  recurrence: f.recurrence ? JSON.stringify(f.recurrence) : null,
})

/**
 * Creates an event on `cal` from a checked body; the caller is the creator, the calendar the organizer. `o.minted`:
 * `id` was just taken from the id counter (`calendarEventId`), not given by the client or a seed.
 */
export type CreateOptions = WriteOptions & {
  iCalUID?: string
  organizer?: { email?: string; displayName?: string }
  minted?: boolean
}

export function createEvent(
  db: Db,
  cal: CalendarRow,
  user: WorldUserRow,
  id: string,
  b: EventBody,
  o: CreateOptions,
): EventRow {
  return insertEvent(db, cal, user, id, b, o).row
}

/**
 * createEvent, giving with the row the objects its `data`, `start` and `end` texts were written from, for rendering
 * it (toEvent's `parts`). They are what parsing those texts gives back for a body read from JSON (values of a JSON
 * text survive a second write and read unchanged); the caller must not change them.
 */
export function insertEvent(
  db: Db,
  cal: CalendarRow,
  user: WorldUserRow,
  id: string,
  b: EventBody,
  o: CreateOptions,
): { row: EventRow; parts: ParsedParts } {
  const f = fieldsOf(b, cal)
  primaryGuests(db, f.data)
  applyConference(db, f.data, cal.id, id, o.conferenceDataVersion)
  const booking = { organizerCalendarId: cal.id, id, start: f.start, startMs: f.start.ms, endMs: f.end.ms }
  bookRooms(db, f.data.attendees, { ...booking, recurrence: f.recurrence })
  const now = nowMs(db)
  const organizerEmail = o.organizer?.email ?? cal.id
  const row = saveEvent(
    db,
    {
      calendarId: cal.id,
      id,
      organizerCalendarId: cal.id,
      ...storedParts(f),
      recurringEventId: null,
      originalStart: null,
      status: f.status,
      sequence: typeof b.sequence === 'number' ? b.sequence : 0,
      iCalUID: o.iCalUID ?? `${id}@google.com`,
      creatorEmail: user.email,
      organizerEmail,
      organizerName: o.organizer?.displayName ?? (cal.isPrimary ? null : cal.summary),
      createdMs: now,
    },
    now,
  ) // updated = created: the clock read once (it does not move within a request)
  // Under an id just taken from the counter no copy exists anywhere, and without attendees none is wanted: a new
  // row (never an instance) then leaves propagate nothing to read or write.
  if (!o.minted || f.data.attendees) propagate(db, row, { minted: o.minted })
  // Mail goes out only with sendUpdates=all (notify sends nothing otherwise): the guest list is read only then.
  if (o.sendUpdates === 'all') notify(db, row, 'invite', guestsOf(row), o.sendUpdates)
  return { row, parts: { data: f.data, start: f.start, end: f.end } }
}

/**
 * events.import: "a private copy of an existing event" on this one calendar. No attendee's calendar gets a copy, no
 * room is booked and nobody is mailed, whatever attendees and answers the body names. When the organizer it names
 * is not this calendar, the row is held as a guest's copy (`organizerCalendarId` is that address, where no row of
 * this id lives), so later writes through it change only this calendar's copy. `existing`: the row an earlier
 * import of the same iCalUID left, replaced in place.
 */
export function importEvent(
  db: Db,
  cal: CalendarRow,
  user: WorldUserRow,
  id: string,
  b: EventBody,
  o: CreateOptions & { iCalUID: string; existing?: EventRow },
): EventRow {
  const f = fieldsOf(b, cal)
  applyConference(db, f.data, cal.id, id, o.conferenceDataVersion)
  const now = nowMs(db)
  const organizerEmail = o.organizer?.email ?? cal.id
  const foreign = organizerEmail.toLowerCase() !== cal.id.toLowerCase()
  return saveEvent(
    db,
    {
      calendarId: cal.id,
      id,
      organizerCalendarId: foreign ? organizerEmail.toLowerCase() : cal.id,
      ...storedParts(f),
      recurringEventId: null,
      originalStart: null,
      status: f.status,
      sequence: typeof b.sequence === 'number' ? b.sequence : (o.existing?.sequence ?? 0),
      iCalUID: o.iCalUID,
      creatorEmail: o.existing?.creatorEmail ?? user.email,
      organizerEmail,
      organizerName: o.organizer?.displayName ?? (foreign || cal.isPrimary ? null : cal.summary),
      createdMs: o.existing?.createdMs ?? now,
    },
    now,
  )
}

/**
 * Writes a full body over an event (update; patch merges first). On the organizer's calendar it changes the
 * event for everyone (sequence + 1, copies follow, guests are told). On an attendee's copy only the
 * attendee's own response and their local settings change.
 */
export function writeEvent(
  db: Db,
  cal: CalendarRow,
  user: WorldUserRow,
  current: { row: EventRow; virtual: boolean },
  b: EventBody,
  o: WriteOptions,
): EventRow {
  const row = current.row
  if (!isOrganizerRow(row)) return respond(db, cal, row, b, o)
  const instance = !!row.recurringEventId
  const prev = dataOf(row)
  // A guest listed again without a responseStatus keeps the answer they gave.
  const answers = new Map((prev.attendees ?? []).map((a) => [a.email.toLowerCase(), a.responseStatus]))
  if (Array.isArray(b.attendees))
    b = {
      ...b,
      attendees: b.attendees.map((a) =>
        a &&
        typeof a === 'object' &&
        a.responseStatus === undefined &&
        typeof a.email === 'string' &&
        answers.get(a.email.toLowerCase())
          ? { ...a, responseStatus: answers.get(a.email.toLowerCase()) }
          : a,
      ),
    }
  const f = fieldsOf(b, cal, { instance })
  primaryGuests(db, f.data)
  applyConference(db, f.data, row.calendarId, instance ? row.recurringEventId! : row.id, o.conferenceDataVersion, prev)
  const recurrence = instance ? undefined : f.recurrence
  const span = { start: f.start, startMs: f.start.ms, endMs: f.end.ms }
  bookRooms(db, f.data.attendees, { organizerCalendarId: row.calendarId, id: row.id, ...span, recurrence }, row)
  const before = guestsOf(row)
  const saved = saveEvent(db, {
    ...row,
    data: JSON.stringify(f.data),
    start: JSON.stringify(f.start),
    end: JSON.stringify(f.end),
    startMs: f.start.ms,
    endMs: f.end.ms,
    recurrence: instance ? null : f.recurrence ? JSON.stringify(f.recurrence) : null,
    status: f.status,
    sequence: row.sequence + 1,
  })
  if (f.status === 'cancelled' && saved.recurrence) cancelExceptions(db, saved)
  propagate(db, saved)
  const after = guestsOf(saved)
  // A guest new to a series gets its cancelled instances too: their copy would otherwise expand them (0448).
  if (saved.recurrence && f.status !== 'cancelled' && after.some((e) => !before.includes(e)))
    copyCancelledInstances(db, saved)
  if (f.status === 'cancelled') notify(db, saved, 'cancel', before, o.sendUpdates)
  else {
    notify(
      db,
      saved,
      'update',
      after.filter((e) => before.includes(e)),
      o.sendUpdates,
    )
    notify(
      db,
      saved,
      'invite',
      after.filter((e) => !before.includes(e)),
      o.sendUpdates,
    )
    notify(
      db,
      saved,
      'cancel',
      before.filter((e) => !after.includes(e)),
      o.sendUpdates,
    )
  }
  void user
  return saved
}

/**
 * An attendee's change through their copy: their responseStatus
 * goes to every copy; colorId/reminders/transparency stay local.
 */
function respond(db: Db, cal: CalendarRow, copy: EventRow, b: EventBody, o: WriteOptions): EventRow {
  const me = cal.id.toLowerCase()
  const mine = (Array.isArray(b.attendees) ? (b.attendees as Attendee[]) : []).find(
    (a) => a && (a.self || String(a.email).toLowerCase() === me),
  )
  const status = mine?.responseStatus
  if (status !== undefined && !['needsAction', 'declined', 'tentative', 'accepted'].includes(status))
    throw new Error('Invalid attendee response status.')
  const current = (dataOf(copy).attendees ?? []).find((a) => a.email.toLowerCase() === me)
  if (
    status &&
    (status !== current?.responseStatus || (mine?.comment !== undefined && mine.comment !== current?.comment))
  )
    setResponse(db, copy, me, status, o, mine?.comment)
  // Deviation: other changes an attendee makes to their copy are ignored (the real API keeps some as private changes).
  const fresh = findEvent(db, cal.id, copy.id) ?? copy
  const local = dataOf(fresh)
  for (const k of ['colorId', 'reminders', 'transparency'] as const) if (b[k] !== undefined) local[k] = b[k]
  return saveEvent(db, { ...fresh, data: JSON.stringify(local) })
}

/** Records an attendee's response on the organizer's row (creating an exception for one instance) and its copies. */
export function setResponse(
  db: Db,
  copy: EventRow,
  email: string,
  status: string,
  o: WriteOptions,
  comment?: string,
): void {
  const org = lookupEvent(db, copy.organizerCalendarId, copy.id)
  if (!org) return
  const d = dataOf(org.row)
  d.attendees = (d.attendees ?? []).map((a) =>
    a.email.toLowerCase() === email
      ? { ...a, responseStatus: status, ...(comment !== undefined ? { comment } : {}) }
      : a,
  )
  const saved = saveEvent(db, { ...org.row, data: JSON.stringify(d) })
  propagate(db, saved)
  notify(db, saved, 'reply', [saved.organizerEmail], o.sendUpdates, { email, responseStatus: status })
}

function cancelExceptions(db: Db, master: EventRow) {
  for (const ex of exceptionsOf(db, master.calendarId, master.id)) {
    if (ex.status === 'cancelled') continue
    const saved = saveEvent(db, { ...ex, status: 'cancelled', sequence: ex.sequence + 1 })
    propagate(db, saved)
  }
}

/** Deletes (cancels) an event. By an attendee: they decline and the copy leaves their calendar. */
export function deleteEvent(
  db: Db,
  cal: CalendarRow,
  current: { row: EventRow; virtual: boolean },
  o: WriteOptions,
): void {
  const row = current.row
  if (!isOrganizerRow(row)) {
    setResponse(db, row, cal.id.toLowerCase(), 'declined', o)
    const fresh = findEvent(db, cal.id, row.id) ?? row
    saveEvent(db, { ...fresh, status: 'cancelled' })
    return
  }
  const guests = guestsOf(row)
  const saved = saveEvent(db, { ...row, status: 'cancelled', sequence: row.sequence + 1 })
  if (saved.recurrence) cancelExceptions(db, saved)
  propagate(db, saved)
  notify(db, saved, 'cancel', guests, o.sendUpdates)
}

/** Moves an event to another calendar: the source row is cancelled, the destination becomes the organizer. */
export function moveEvent(db: Db, from: EventRow, to: CalendarRow): EventRow {
  const moved = saveEvent(db, {
    ...from,
    calendarId: to.id,
    organizerCalendarId: to.id,
    organizerEmail: to.id,
    organizerName: to.isPrimary ? null : to.summary,
    sequence: from.sequence + 1,
  })
  saveEvent(db, { ...from, status: 'cancelled' })
  for (const r of rowsOfEvent(db, from.calendarId, from.id)) {
    if (r.calendarId !== from.calendarId && r.calendarId !== to.id)
      saveEvent(db, { ...r, organizerCalendarId: to.id, organizerEmail: to.id })
  }
  for (const ex of exceptionsOf(db, from.calendarId, from.id)) {
    saveEvent(db, { ...ex, calendarId: to.id, organizerCalendarId: to.id, organizerEmail: to.id })
    saveEvent(db, { ...ex, status: 'cancelled' })
  }
  propagate(db, moved)
  return moved
}

/**
 * Guests named by a user's Directory alias become that user's primary address, as a Drive grant does: the copy lands
 * on their calendar and their answer finds them (one read of the aliases, only for an event with guests).
 * Deviation (unverified): Calendar may keep the address as given; its documentation does not say.
 */
function primaryGuests(db: Db, data: { attendees?: { email: string }[] }): void {
  if (!data.attendees?.length) return
  const aliases = userAliasAddresses(db)
  if (aliases.size === 0) return
  const seen = new Set<string>()
  data.attendees = data.attendees.filter((a) => {
    const primary = aliases.get(a.email.toLowerCase())
    if (primary !== undefined) a.email = primary
    if (seen.has(a.email.toLowerCase())) return false
    seen.add(a.email.toLowerCase())
    return true
  })
}
