import { getTableColumns } from 'drizzle-orm'
import { selectRows, stmt, upsertRow, type Db } from '../../core/db.ts'
import { nowMs } from '../../core/clock.ts'
import { expandGroupAddresses } from '../../core/groups.ts'
import { events, type EventRow } from '../schema.ts'
import { type ResolvedTime } from '../time/zoned.ts'
import { expandRecurrence, instanceId, instanceSpan, parseInstanceId, type Occurrence } from '../time/recurrence.ts'
import { findCalendar, nextChange } from './access.ts'
import { acceptedRooms } from './rooms.ts'
import { usersByEmail } from './users.ts'

/** An event time as stored: the instant, the effective zone and whether the client named the zone. */
export type StoredTime = { ms: number; allDay: boolean; date?: string; timeZone: string; given: boolean }
export type EventData = Record<string, unknown> & { attendees?: Attendee[] }
export type Attendee = {
  email: string
  displayName?: string
  responseStatus?: string
  optional?: boolean
  comment?: string
  additionalGuests?: number
  resource?: boolean
  organizer?: boolean
  self?: boolean
  id?: string
}

/**
 * A row's JSON columns as objects: what parsing its `data`, `start` and `end` texts gives (docs/decisions/0352). A
 * writer that made the texts from these objects hands them on, for rendering the row without reading it back.
 */
export type ParsedParts = { data: EventData; start: StoredTime; end: StoredTime }

export const stored = (t: ResolvedTime): StoredTime => ({
  ms: t.ms,
  allDay: t.allDay,
  ...(t.date ? { date: t.date } : {}),
  timeZone: t.timeZone,
  given: t.givenTimeZone !== undefined,
})
export const resolved = (t: StoredTime): ResolvedTime => ({
  ms: t.ms,
  allDay: t.allDay,
  ...(t.date ? { date: t.date } : {}),
  timeZone: t.timeZone,
  ...(t.given ? { givenTimeZone: t.timeZone } : {}),
})
export const timeOf = (json: string): StoredTime => JSON.parse(json) as StoredTime
export const dataOf = (row: Pick<EventRow, 'data'>): EventData => JSON.parse(row.data) as EventData
export const recurrenceOf = (row: Pick<EventRow, 'recurrence'>): string[] | undefined =>
  row.recurrence ? (JSON.parse(row.recurrence) as string[]) : undefined

export const findEvent = (db: Db, calendarId: string, id: string): EventRow | undefined =>
  selectRows(db, events, { calendarId, id })[0]

// Rows are read as arrays and keyed here (better-sqlite3 names each column of each row otherwise, and drizzle builds
// its query text on every call): no column of calendar_events has a drizzle mode, so the stored values are the row's.
const FIELDS = Object.entries(getTableColumns(events))
export const EVENT_COLUMNS = FIELDS.map(([, col]) => `"${col.name}"`).join(', ')
export const EVENT_KEYS = FIELDS.map(([key]) => key)
const KEYS = EVENT_KEYS
/**
 * A row read raw, as an object literal in column order (tests/calendar/save-event.test.ts holds it to the table):
 * the same hidden class as the rows saveEvent stamps (docs/decisions/0446), with no keyed store per column.
 */
export const eventRowOf = (v: unknown[]): EventRow =>
  ({
    calendarId: v[0],
    id: v[1],
    organizerCalendarId: v[2],
    data: v[3],
    start: v[4],
    end: v[5],
    startMs: v[6],
    endMs: v[7],
    recurrence: v[8],
    recurringEventId: v[9],
    originalStart: v[10],
    status: v[11],
    sequence: v[12],
    iCalUID: v[13],
    creatorEmail: v[14],
    organizerEmail: v[15],
    organizerName: v[16],
    createdMs: v[17],
    updatedMs: v[18],
    changeSeq: v[19],
  }) as EventRow

/**
 * `{ ...row, updatedMs, changeSeq }` spelled out in column order: in Node 20's V8 a literal that starts with a spread
 * gets a hidden class of its own each time, and every reader of it then misses its inline caches (docs/decisions/
 * 0446). A row with a key the table lacks keeps the spread (everyColumn then sends it through upsertRow). Rows
 * read by name only, so the column order of the literal changes nothing that is written or answered.
 */
function stamped(row: Omit<EventRow, 'changeSeq' | 'updatedMs'>, updatedMs: number, changeSeq: number): EventRow {
  const n = Object.keys(row).length
  // Every column but the two stamped here, or all of them (a row spread from its previous version): else the spread.
  if (n !== KEYS.length - 2 && !(n === KEYS.length && 'updatedMs' in row && 'changeSeq' in row))
    return { ...row, updatedMs, changeSeq }
  return {
    calendarId: row.calendarId,
    id: row.id,
    organizerCalendarId: row.organizerCalendarId,
    data: row.data,
    start: row.start,
    end: row.end,
    startMs: row.startMs,
    endMs: row.endMs,
    recurrence: row.recurrence,
    recurringEventId: row.recurringEventId,
    originalStart: row.originalStart,
    status: row.status,
    sequence: row.sequence,
    iCalUID: row.iCalUID,
    creatorEmail: row.creatorEmail,
    organizerEmail: row.organizerEmail,
    organizerName: row.organizerName,
    createdMs: row.createdMs,
    updatedMs,
    changeSeq,
  }
}

/** Event rows matching `where` (the SQL after WHERE, with `?` parameters), through this connection's statement. */
const eventRows = (db: Db, where: string, ...params: unknown[]): EventRow[] =>
  (
    stmt(db, `SELECT ${EVENT_COLUMNS} FROM calendar_events WHERE ${where}`)
      .raw()
      .all(...params) as unknown[][]
  ).map(eventRowOf)

export const calendarEvents = (db: Db, calendarId: string): EventRow[] =>
  eventRows(db, 'calendar_id = ? ORDER BY start_ms, id', calendarId)

export const changedSince = (db: Db, calendarId: string, seq: number): EventRow[] =>
  eventRows(db, 'calendar_id = ? AND change_seq > ? ORDER BY change_seq', calendarId, seq)

/**
 * Writes a row (insert or full replace), stamping the change sequence and `updatedMs` (now: every write is a
 * modification, as in Google; rows are usually spread from their previous version, so their old `updatedMs` is
 * ignored unless `keepUpdatedMs` asks for a given one, as attendee copies do to mirror the organizer's row).
 */
export function saveEvent(db: Db, row: Omit<EventRow, 'changeSeq' | 'updatedMs'>, keepUpdatedMs?: number): EventRow {
  const full = stamped(row, keepUpdatedMs ?? nowMs(db), nextChange(db))
  const values = everyColumn(full)
  if (values) stmt(db, UPSERT).run(values)
  else upsertRow(db, events, full, ['calendarId', 'id'])
  return full
}

/**
 * What `upsertRow(db, events, row, ['calendarId', 'id'])` runs for a row giving every column (what saveEvent always
 * writes), with the statement built once: Calendar's own writer, so that the shared one neither checks the row's
 * shape per call nor meets a new table in the middle of a run (its optimized code would be thrown away).
 */
const UPSERT =
  `INSERT INTO "calendar_events" (${EVENT_COLUMNS}) VALUES (${KEYS.map(() => '?').join(', ')}) ` +
  `ON CONFLICT ("calendar_id", "id") DO UPDATE SET ${FIELDS.filter(([key]) => key !== 'calendarId' && key !== 'id')
    .map(([, col]) => `"${col.name}" = excluded."${col.name}"`)
    .join(', ')}`

/**
 * The row's values in column order, when it has exactly the table's keys and each value is a string, a number or
 * null (an undefined one leaves its column out of upsertRow's statement, an SQL expression takes drizzle's path).
 * Named reads in column order (tests/calendar/save-event.test.ts holds them to the table): no keyed lookups.
 */
export function everyColumn(r: EventRow): unknown[] | undefined {
  const values = [
    r.calendarId,
    r.id,
    r.organizerCalendarId,
    r.data,
    r.start,
    r.end,
    r.startMs,
    r.endMs,
    r.recurrence,
    r.recurringEventId,
    r.originalStart,
    r.status,
    r.sequence,
    r.iCalUID,
    r.creatorEmail,
    r.organizerEmail,
    r.organizerName,
    r.createdMs,
    r.updatedMs,
    r.changeSeq,
  ] as unknown[]
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    if (v !== null && typeof v !== 'string' && typeof v !== 'number') return undefined
  }
  return values.length === KEYS.length && Object.keys(r).length === KEYS.length ? values : undefined
}

/** Occurrences of a series row, in a window. */
export function occurrences(
  master: EventRow,
  windowStartMs?: number,
  windowEndMs?: number,
  limit?: number,
): Occurrence[] {
  const start = resolved(timeOf(master.start))
  return expandRecurrence({
    recurrence: recurrenceOf(master) ?? [],
    start,
    durationMs: master.endMs - master.startMs,
    windowStartMs,
    windowEndMs,
    limit,
  })
}

/** A series' start and end, read once for making many instance rows. */
export type SeriesTimes = {
  start: StoredTime
  end: StoredTime
  resolvedStart: ResolvedTime
  resolvedEnd: ResolvedTime
  /** The stored-time JSON of a timed instance around its `ms`, when the series' times allow it (see `timedText`). */
  timedStart?: [string, string]
  timedEnd?: [string, string]
}

export function seriesTimes(master: Pick<EventRow, 'start' | 'end'>): SeriesTimes {
  const start = timeOf(master.start)
  const end = timeOf(master.end)
  return {
    start,
    end,
    resolvedStart: resolved(start),
    resolvedEnd: resolved(end),
    timedStart: timedText(start),
    timedEnd: timedText(end),
  }
}

/**
 * What `JSON.stringify({ ...stored(span), given: t.given })` writes for a timed instance span of a series time `t`
 * (span: `{ ms, allDay: false, timeZone: t.timeZone, … }`, as instanceSpan makes it), split around the instant:
 * `{"ms":` + ms + `,"allDay":false,"timeZone":"…","given":…}`. Only for a string zone and a boolean `given` (what
 * every stored time has); otherwise undefined, and instanceRow stringifies as before.
 */
function timedText(t: StoredTime): [string, string] | undefined {
  if (typeof t.timeZone !== 'string' || typeof t.given !== 'boolean') return undefined
  return ['{"ms":', `,"allDay":false,"timeZone":${JSON.stringify(t.timeZone)},"given":${t.given}}`]
}

/** A virtual instance row of a series (not stored): the series' fields at one occurrence. */
export function instanceRow(master: EventRow, o: Occurrence, times: SeriesTimes = seriesTimes(master)): EventRow {
  const { start, end } = times
  // A timed span (instanceSpan's first branch) is the occurrence's start and the series' length, in the series'
  // zones: its texts are written around the two instants without building the span and stored objects.
  const rs = times.resolvedStart
  if ((!rs.allDay || !o.date) && times.timedStart && times.timedEnd) {
    const startMs = o.originalStartMs
    const endMs = o.originalStartMs + (times.resolvedEnd.ms - rs.ms)
    if (Number.isFinite(startMs) && Number.isFinite(endMs)) {
      const startText = `${times.timedStart[0]}${startMs}${times.timedStart[1]}`
      return {
        ...master,
        id: instanceId(master.id, { ms: startMs, allDay: start.allDay, date: o.date }),
        start: startText,
        end: `${times.timedEnd[0]}${endMs}${times.timedEnd[1]}`,
        startMs,
        endMs,
        recurrence: null,
        recurringEventId: master.id,
        originalStart: startText,
      }
    }
  }
  const span = instanceSpan(o, times.resolvedStart, times.resolvedEnd)
  // The original start is the start: one string for both.
  const startText = JSON.stringify({ ...stored(span.start), given: start.given })
  return {
    ...master,
    id: instanceId(master.id, { ms: o.originalStartMs, allDay: start.allDay, date: o.date }),
    start: startText,
    end: JSON.stringify({ ...stored(span.end), given: end.given }),
    startMs: span.start.ms,
    endMs: span.end.ms,
    recurrence: null,
    recurringEventId: master.id,
    originalStart: startText,
  }
}

/**
 * The row for an event id on a calendar: a stored row, or a virtual instance of a stored series when the id
 * is `<seriesId>_<originalStart>` and the series really has an occurrence there.
 */
export function lookupEvent(db: Db, calendarId: string, id: string): { row: EventRow; virtual: boolean } | undefined {
  const row = findEvent(db, calendarId, id)
  if (row) return { row, virtual: false }
  const parsed = parseInstanceId(id)
  if (!parsed) return undefined
  const master = findEvent(db, calendarId, parsed.baseId)
  if (!master?.recurrence || master.status === 'cancelled') return undefined
  const at = parsed.originalStartMs ?? Date.parse(`${parsed.date}T00:00:00Z`)
  const found = occurrences(master, at - 86_400_000 * 2, at + 86_400_000 * 2).find((o) =>
    parsed.date ? o.date === parsed.date : o.originalStartMs === parsed.originalStartMs,
  )
  return found ? { row: instanceRow(master, found), virtual: true } : undefined
}

/** Exceptions (stored instance rows) of a series on a calendar. */
export const exceptionsOf = (db: Db, calendarId: string, seriesId: string): EventRow[] =>
  eventRows(db, 'calendar_id = ? AND recurring_event_id = ?', calendarId, seriesId)

/**
 * Keeps attendees' copies in step with the organizer's row: every attendee who is a world user (other than
 * the calendar itself) gets the row on their primary calendar; removed attendees' copies are cancelled.
 * Per-copy settings (colorId, reminders, transparency) of an existing copy are kept. `minted`: the event's id was
 * just taken from the id counter, so no row anywhere holds it yet and there are no copies to read.
 */
export function propagate(db: Db, org: EventRow, opts: { minted?: boolean } = {}): void {
  const data = dataOf(org)
  const wanted = new Set<string>()
  if (org.status !== 'cancelled') {
    // A group among the attendees invites its members (nested groups expanded).
    const addresses = expandGroupAddresses(
      db,
      (data.attendees ?? []).map((a) => a.email.toLowerCase()),
    )
    const users = usersByEmail(db)
    for (const address of addresses) {
      const email = address.toLowerCase()
      if (email === org.calendarId.toLowerCase() || !users(email) || !findCalendar(db, email)) continue
      wanted.add(email)
    }
    // A room that accepted holds the booking on its calendar.
    for (const room of acceptedRooms(db, data.attendees)) if (room !== org.calendarId.toLowerCase()) wanted.add(room)
  }
  const copies = opts.minted
    ? []
    : selectRows(
        db,
        events,
        { organizerCalendarId: org.calendarId, id: org.id },
        { not: { calendarId: org.calendarId } },
      )
  const have = new Map(copies.map((r) => [r.calendarId, r]))
  const declined = new Set(
    (data.attendees ?? []).filter((a) => a.responseStatus === 'declined').map((a) => a.email.toLowerCase()),
  )
  for (const email of wanted) {
    const prev = have.get(email)
    // A guest who declined by deleting their copy keeps it deleted.
    if (prev && prev.status === 'cancelled' && declined.has(email)) continue
    const local = prev ? dataOf(prev) : {}
    const merged = { ...data, ...pick(local, ['colorId', 'reminders', 'transparency']) }
    if (!prev) delete merged.reminders
    saveEvent(db, { ...org, calendarId: email, data: JSON.stringify(merged) }, org.updatedMs)
  }
  for (const [cal, r] of have) {
    if (!wanted.has(cal) && r.status !== 'cancelled')
      saveEvent(db, { ...r, ...withoutData(org), data: r.data, status: 'cancelled' }, org.updatedMs)
  }
  // An instance cancelled (or no longer including a guest) must also leave the guests' copies of the series,
  // which would otherwise keep expanding it: they get a cancelled exception of their own.
  if (org.recurringEventId) {
    const seriesCopies = stmt(
      db,
      `SELECT calendar_id FROM calendar_events WHERE organizer_calendar_id = ? AND id = ? AND calendar_id <> ?
      AND status <> ?`,
    )
      .pluck()
      .all(org.calendarId, org.recurringEventId, org.calendarId, 'cancelled') as string[]
    for (const calendarId of seriesCopies) {
      if (!wanted.has(calendarId) && !have.has(calendarId))
        saveEvent(db, { ...org, calendarId, status: 'cancelled' }, org.updatedMs)
    }
  }
}

const pick = (o: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]))
const withoutData = (r: EventRow) => {
  const { data: _d, calendarId: _c, ...rest } = r
  return rest
}

/** All rows of one event across calendars (organizer's row and attendees' copies). */
export const rowsOfEvent = (db: Db, organizerCalendarId: string, id: string): EventRow[] =>
  eventRows(db, 'organizer_calendar_id = ? AND id = ?', organizerCalendarId, id)
