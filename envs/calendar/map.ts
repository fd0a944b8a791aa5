import { getTableColumns } from 'drizzle-orm'
import { stmt, type Db } from '../core/db.ts'
import { JsonText, keyOf, textMemo, type TextMemo } from '../core/json-text.ts'
import { keptWhileUnwritten } from '../core/write-epoch.ts'
import { findUserByEmail, findUserById } from '../core/users.ts'
import { events, type AclRow, type CalendarRow, type EventRow, type ListRow } from './schema.ts'
import { renderEventTime, rfc3339Utc } from './time/zoned.ts'
import { dataOf, recurrenceOf, timeOf, type EventData, type ParsedParts, type StoredTime } from './store/events.ts'
import type { Role } from './store/access.ts'

/** Quoted numeric etag from a time and a change position (changes on every write). */
export const etagOf = (ms: number, seq: number) => {
  // Plain numbers while the product is exact (instants before the year 2255); BigInt beyond.
  const n = ms * 1000 + (seq % 1000)
  if (Number.isSafeInteger(n) && Number.isSafeInteger(ms) && ms >= 0) return `"${n}"`
  return `"${BigInt(ms) * 1000n + BigInt(seq % 1000)}"`
}

/** Secondary calendars name the owner's email in `dataOwner`. */
const owned = (db: Db, cal: CalendarRow) =>
  cal.isPrimary ? {} : { dataOwner: findUserById(db, cal.ownerId)?.email ?? cal.ownerId }

export function toCalendar(db: Db, cal: CalendarRow) {
  return {
    kind: 'calendar#calendar',
    etag: etagOf(cal.updatedMs, 0),
    id: cal.id,
    summary: cal.summary,
    ...owned(db, cal),
    ...(cal.description ? { description: cal.description } : {}),
    ...(cal.location ? { location: cal.location } : {}),
    timeZone: cal.timeZone,
    conferenceProperties: { allowedConferenceSolutionTypes: ['hangoutsMeet'] },
  }
}

export function toListEntry(db: Db, cal: CalendarRow, e: ListRow, role: Role) {
  const reminders = JSON.parse(e.defaultReminders) as unknown[]
  const notifications = JSON.parse(e.notifications) as unknown[]
  return {
    kind: 'calendar#calendarListEntry',
    etag: etagOf(cal.updatedMs, e.changeSeq),
    id: cal.id,
    summary: cal.summary,
    ...owned(db, cal),
    ...(cal.description ? { description: cal.description } : {}),
    ...(cal.location ? { location: cal.location } : {}),
    ...(e.summaryOverride ? { summaryOverride: e.summaryOverride } : {}),
    timeZone: cal.timeZone,
    colorId: e.colorId,
    backgroundColor: e.backgroundColor,
    foregroundColor: e.foregroundColor,
    ...(e.hidden ? { hidden: true } : {}),
    ...(e.selected ? { selected: true } : {}),
    accessRole: role,
    defaultReminders: reminders,
    ...(notifications.length ? { notificationSettings: { notifications } } : {}),
    ...(cal.isPrimary && cal.ownerId === e.userId ? { primary: true } : {}),
    conferenceProperties: { allowedConferenceSolutionTypes: ['hangoutsMeet'] },
  }
}

export function toAclRule(r: AclRow) {
  return {
    kind: 'calendar#aclRule',
    etag: `"${String(r.changeSeq).padStart(20, '0')}"`,
    id: r.id,
    scope: r.scopeType === 'default' ? { type: 'default' } : { type: r.scopeType, value: r.scopeValue },
    role: r.role,
  }
}

/** How much of a calendar's events a role shows: `freeBusy` (a freeBusyReader), `reader`, or `full` (writer, owner). */
export type EventAccess = 'freeBusy' | 'reader' | 'full'

/**
 * Whether the viewer reads an event's details or only its busy block (id, status, times, transparency, visibility).
 * An event's `visibility` decides it against the viewer's role, as Google Calendar shares: a `public` event's details
 * show even to a freeBusyReader, a `private` (or `confidential`) one's only to its guests and to writers and owners,
 * and `default` follows the calendar's sharing (details to readers and up).
 */
export function showsDetails(v: EventView, row: EventRow, d: EventData): boolean {
  if (v.access === undefined || v.access === 'full') return true
  if (v.access === 'freeBusy') return d.visibility === 'public'
  if (d.visibility !== 'private' && d.visibility !== 'confidential') return true
  const me = v.viewer.toLowerCase()
  return row.organizerEmail.toLowerCase() === me || !!d.attendees?.some((a) => a.email.toLowerCase() === me)
}

export type EventView = {
  /** Email of the viewing user (for `self`). */
  viewer: string
  /** Zone to render `dateTime`s in when the event names none (the calendar's, or the `timeZone` parameter). */
  zone: string
  /** The `timeZone` request parameter, which overrides every zone. */
  forcedZone?: string
  /** What the viewer's role shows of events (absent: everything, as to a writer or owner); see `showsDetails`. */
  access?: EventAccess
  /** World users' names by lowercase email, read once per request. */
  names?: ReadonlyMap<string, string>
}

/**
 * Names of world users by lowercase email (one query, for rendering many events), kept per connection while
 * `world_users` is unwritten (envs/core/write-epoch.ts; served worlds count its writes for the token's row already).
 * Shared by every request that reads it until then: read only (`ReadonlyMap`).
 */
export function namesOf(db: Db): ReadonlyMap<string, string> {
  return keptWhileUnwritten(db.$client, 'world_users', 'calendar names', () => readNames(db))
}

function readNames(db: Db): ReadonlyMap<string, string> {
  // listUsers' rows in its order (rowid), two columns as arrays: the same map without keying every user's columns.
  const rows = stmt(db, 'SELECT email, name FROM world_users ORDER BY rowid').raw().all() as [string, string][]
  return new Map(rows.map(([email, name]) => [email.toLowerCase(), name]))
}
const nameOf = (db: Db, v: EventView, email: string) =>
  v.names ? v.names.get(email.toLowerCase()) : findUserByEmail(db, email)?.name

const renderTime = (t: StoredTime, v: EventView) =>
  renderEventTime(
    { ms: t.ms, allDay: t.allDay, date: t.date, timeZone: t.given ? t.timeZone : undefined },
    v.forcedZone ?? (t.given ? t.timeZone : v.zone),
  )

/** `self` marks the person whose calendar holds this copy of the event (not the caller). */
const person = (db: Db, v: EventView, email: string, name: string | null | undefined, calendarId: string) => {
  const displayName = name ?? nameOf(db, v, email)
  const out: { email: string; displayName?: string; self?: true } = { email }
  if (displayName) out.displayName = displayName
  if (email.toLowerCase() === calendarId) out.self = true
  return out
}

const htmlLinkOf = (row: Pick<EventRow, 'id' | 'calendarId'>) =>
  `https://www.google.com/calendar/event?eid=${Buffer.from(`${row.id} ${row.calendarId}`).toString('base64url')}`

/**
 * An event row → the Calendar v3 Event resource as the viewer sees it. `parts`: the row's JSON columns as objects,
 * when the caller holds them (a row just written): rendered without reading back the texts written from them.
 */
export function toEvent(db: Db, row: EventRow, v: EventView, parts?: ParsedParts): Record<string, unknown> {
  const d = parts ? parts.data : dataOf(row)
  const start = parts ? parts.start : timeOf(row.start)
  const end = parts ? parts.end : timeOf(row.end)
  const base = { kind: 'calendar#event', etag: etagOf(row.updatedMs, row.changeSeq), id: row.id, status: row.status }
  const startOut = renderTime(start, v)
  // An unmodified instance starts at its original start: render it once.
  const original = row.originalStart
    ? {
        recurringEventId: row.recurringEventId,
        originalStartTime: row.originalStart === row.start ? startOut : renderTime(timeOf(row.originalStart), v),
      }
    : {}
  // Deviation (unverified): an event shown as a busy block has these fields only.
  if (!showsDetails(v, row, d))
    return { ...base, start: startOut, end: renderTime(end, v), transparency: d.transparency, visibility: d.visibility }
  const here = row.calendarId.toLowerCase()
  const organizer = row.organizerEmail.toLowerCase()
  const attendees = d.attendees?.map((a) => {
    const email = a.email.toLowerCase()
    return {
      ...a,
      ...(email === organizer ? { organizer: true } : {}),
      ...(email === here ? { self: true } : {}),
      responseStatus: a.responseStatus ?? 'needsAction',
    }
  })
  const creatorName = nameOf(db, v, row.creatorEmail)
  const creator: Record<string, unknown> = { email: row.creatorEmail }
  if (creatorName) creator.displayName = creatorName
  if (row.creatorEmail.toLowerCase() === here) creator.self = true
  // Built by assignment in the resource's key order (spreading a dozen small objects per event was most of a
  // listing's rendering time); absent and null data fields are left out, as before.
  const out: Record<string, unknown> = { kind: base.kind, etag: base.etag, id: base.id, status: base.status }
  out.htmlLink = htmlLinkOf(row)
  out.created = rfc3339Utc(row.createdMs - (row.createdMs % 1000))
  out.updated = rfc3339Utc(row.updatedMs)
  copyData(out, d, HEAD_DATA)
  out.creator = creator
  out.organizer = person(db, v, row.organizerEmail, row.organizerName, here)
  out.start = startOut
  out.end = renderTime(end, v)
  if (d.endTimeUnspecified) out.endTimeUnspecified = true
  const recurrence = recurrenceOf(row)
  if (recurrence) out.recurrence = recurrence
  if (row.originalStart) {
    out.recurringEventId = (original as { recurringEventId: unknown }).recurringEventId
    out.originalStartTime = (original as { originalStartTime: unknown }).originalStartTime
  }
  copyData(out, d, VISIBILITY_DATA)
  out.iCalUID = row.iCalUID
  out.sequence = row.sequence
  if (attendees?.length) out.attendees = attendees
  copyData(out, d, TAIL_DATA)
  out.reminders = d.reminders ?? { useDefault: true }
  out.eventType = d.eventType ?? 'default'
  return out
}

/**
 * Renders the virtual instances of series for one listing. Instances of a series differ only in id, link and
 * times, so each series is rendered in full once (its first instance, by `toEvent`) and later instances copy
 * that rendering with their own id, `htmlLink`, `start`, `end` and `originalStartTime` (same keys, same order).
 */
export function instanceRenderer(db: Db, v: EventView) {
  const firsts = new Map<EventRow, Record<string, unknown>>()
  return (series: EventRow, inst: EventRow): Record<string, unknown> => {
    const first = firsts.get(series)
    if (!first) {
      const out = toEvent(db, inst, v)
      firsts.set(series, out)
      return out
    }
    const out: Record<string, unknown> = { ...first, id: inst.id }
    if ('htmlLink' in out) out.htmlLink = htmlLinkOf(inst)
    const start = renderTime(timeOf(inst.start), v)
    out.start = start
    out.end = renderTime(timeOf(inst.end), v)
    if ('originalStartTime' in out)
      out.originalStartTime = inst.originalStart === inst.start ? start : renderTime(timeOf(inst.originalStart!), v)
    return out
  }
}

const ROW_KEYS = Object.keys(getTableColumns(events)) as (keyof EventRow)[]

/**
 * Renders the events of one listing as `JsonText`s: an event listed before for the same view (viewer, zones,
 * access) with the same row content and the same names of its creator and organizer is written from the text
 * kept for this world connection, not rendered again (docs/decisions/0300). Everything `toEvent`, `toCancelled`
 * and `instanceRenderer` read is in the slot or the compared values, so an event changed in any way renders anew.
 */
export function listRenderer(db: Db, v: EventView) {
  const memo = textMemo(db, 'calendar#event')
  const instance = instanceRenderer(db, v)
  const view = keyOf([v.viewer, v.zone, v.forcedZone, v.access ?? 'full'])
  const partsOfRow = keptRowParts(memo)
  return (row: EventRow, series?: EventRow): JsonText => {
    const creator = nameOf(db, v, row.creatorEmail)
    const organizer = nameOf(db, v, row.organizerEmail)
    // A frozen row (kept listing rows, store/window.ts) cannot change: its slot and values, built for this view
    // and these two names before, are the ones this call would build.
    const frozen = Object.isFrozen(row)
    let parts = frozen ? partsOfRow.get(row) : undefined
    if (!parts || parts.view !== view || parts.creator !== creator || parts.organizer !== organizer) {
      const values: unknown[] = [creator, organizer]
      for (const k of ROW_KEYS) values.push(row[k])
      parts = { view, creator, organizer, slot: keyOf([view, row.calendarId, row.id]), values }
      if (frozen) partsOfRow.set(row, parts)
    }
    return new JsonText(
      parts.slot,
      parts.values,
      () => (series ? instance(series, row) : row.status === 'cancelled' ? toCancelled(row, v) : toEvent(db, row, v)),
      memo,
    )
  }
}

/** A listed row's text slot and compared values, with the view and names they were built for. */
type RowParts = { view: string; creator: unknown; organizer: unknown; slot: string; values: readonly unknown[] }
const rowParts = new WeakMap<TextMemo, WeakMap<EventRow, RowParts>>()

/** The parts kept per frozen row, beside (and dying with) the connection's text memo. */
function keptRowParts(memo: TextMemo): WeakMap<EventRow, RowParts> {
  let parts = rowParts.get(memo)
  if (!parts) rowParts.set(memo, (parts = new WeakMap()))
  return parts
}

/** What a deleted event looks like in lists and sync: identity and status only. */
export function toCancelled(row: EventRow, v: EventView) {
  const original = row.originalStart
    ? { recurringEventId: row.recurringEventId, originalStartTime: renderTime(timeOf(row.originalStart), v) }
    : {}
  return {
    kind: 'calendar#event',
    etag: etagOf(row.updatedMs, row.changeSeq),
    id: row.id,
    status: 'cancelled',
    ...original,
  }
}

const HEAD_DATA = ['summary', 'description', 'location', 'colorId']
const VISIBILITY_DATA = ['transparency', 'visibility']
const TAIL_DATA = [
  'attendeesOmitted',
  'extendedProperties',
  'hangoutLink',
  'conferenceData',
  'anyoneCanAddSelf',
  'guestsCanInviteOthers',
  'guestsCanModify',
  'guestsCanSeeOtherGuests',
  'privateCopy',
  'locked',
  'source',
  'attachments',
]

/** Copies the data fields among `keys` that are set (not undefined or null) onto `out`, in `keys` order. */
function copyData(out: Record<string, unknown>, d: Record<string, unknown>, keys: readonly string[]) {
  for (const k of keys) if (d[k] !== undefined && d[k] !== null) out[k] = d[k]
}

export const userName = (db: Db, id: string) => findUserById(db, id)?.name
