import { createHash } from 'node:crypto'
import type { Db } from '../../core/db.ts'
import { getMeta, nowMs } from '../../core/clock.ts'
import type { CalendarRow, EventRow } from '../schema.ts'
import { checkEventRange, resolveEventTime, rfc3339InZone, type EventDateTime } from '../time/zoned.ts'
import { validateRecurrence, withinLibraryBounds } from '../time/recurrence.ts'
import { dataOf, recurrenceOf, stored, timeOf, type Attendee, type EventData, type StoredTime } from './events.ts'
import { AnswerError } from '../../core/errors/answer-error.ts'

/** Client-settable fields kept as given in the row's `data`. */
const DATA_KEYS = [
  'summary',
  'description',
  'location',
  'colorId',
  'attendees',
  'reminders',
  'extendedProperties',
  'attachments',
  'conferenceData',
  'hangoutLink',
  'guestsCanModify',
  'guestsCanInviteOthers',
  'guestsCanSeeOtherGuests',
  'anyoneCanAddSelf',
  'transparency',
  'visibility',
  'source',
  'eventType',
  'locked',
  'privateCopy',
  'endTimeUnspecified',
  'attendeesOmitted',
] as const

export type EventBody = Record<string, unknown> & {
  start?: EventDateTime
  end?: EventDateTime
  recurrence?: string[]
  attendees?: Attendee[]
  status?: string
  id?: string
  iCalUID?: string
  sequence?: number
  originalStartTime?: EventDateTime
}

/** Thrown for a body the API rejects; routes turn it into a 400 with `reason`. */
export class EventInputError extends AnswerError {
  constructor(
    message: string,
    readonly reason = 'invalid',
  ) {
    super(message)
  }
}

const EMAIL = /^[^@\s]+@[^@\s]+$/
const STRING_KEYS = [
  'summary',
  'description',
  'location',
  'colorId',
  'transparency',
  'visibility',
  'eventType',
  'hangoutLink',
] as const

/** The stored event as a body (start/end as the client would send them); patch merges into this. */
export function bodyOf(row: EventRow): EventBody {
  const time = (t: StoredTime): EventDateTime =>
    t.allDay
      ? { date: t.date }
      : { dateTime: rfc3339InZone(t.ms, t.timeZone), ...(t.given ? { timeZone: t.timeZone } : {}) }
  const recurrence = recurrenceOf(row)
  return {
    ...dataOf(row),
    start: time(timeOf(row.start)),
    end: time(timeOf(row.end)),
    ...(recurrence ? { recurrence } : {}),
    status: row.status,
  }
}

/** Checks a body and returns the row fields it sets (times, recurrence, data, status). */
export function fieldsOf(b: EventBody, cal: CalendarRow, opts: { instance?: boolean } = {}) {
  if (b.start === undefined || b.start === null) throw new EventInputError('Missing start time.', 'required')
  if (b.end === undefined || b.end === null) throw new EventInputError('Missing end time.', 'required')
  for (const k of STRING_KEYS)
    if (b[k] !== undefined && b[k] !== null && typeof b[k] !== 'string')
      throw new EventInputError(`Invalid value for: ${k}`)
  const recurrence = !opts.instance && Array.isArray(b.recurrence) && b.recurrence.length ? b.recurrence : undefined
  if (recurrence) {
    if (!recurrence.every((l) => typeof l === 'string')) throw new EventInputError('Invalid recurrence rule.')
    validateRecurrence(recurrence)
    // Deviation (unverified): sub-daily rules (HOURLY, MINUTELY, SECONDLY) are refused; Calendar's UI offers none, and
    // expanding them would make listings unbounded.
    if (recurrence.some((l) => /^(RRULE|EXRULE)[:;].*FREQ=(SECONDLY|MINUTELY|HOURLY)/i.test(l)))
      throw new EventInputError('Invalid recurrence rule.')
    if (!withinLibraryBounds(recurrence)) throw new EventInputError('Invalid recurrence rule.')
  }
  const start = resolveEventTime(b.start, cal.timeZone, { side: 'start', recurring: !!recurrence })
  const end = resolveEventTime(b.end, cal.timeZone, { side: 'end', recurring: !!recurrence })
  checkEventRange(start, end)
  if (b.status !== undefined && !['confirmed', 'tentative', 'cancelled'].includes(b.status))
    throw new EventInputError(`Invalid value for status: ${b.status}`)
  if (b.transparency !== undefined && !['opaque', 'transparent'].includes(b.transparency as string))
    throw new EventInputError('Invalid transparency value.')
  if (b.visibility !== undefined && !['default', 'public', 'private', 'confidential'].includes(b.visibility as string))
    throw new EventInputError('Invalid visibility value.')
  if (b.colorId !== undefined && !/^([1-9]|1[01])$/.test(b.colorId as string))
    throw new EventInputError('Invalid color ID.')
  const data: EventData = {}
  for (const k of DATA_KEYS) if (b[k] !== undefined && b[k] !== null) (data as Record<string, unknown>)[k] = b[k]
  if (b.attendees !== undefined) data.attendees = attendeesOf(b.attendees)
  if (data.attendees && !data.attendees.length) delete data.attendees
  if (b.reminders !== undefined) data.reminders = remindersOf(b.reminders)
  if (data.eventType !== undefined && data.eventType !== 'default')
    throw new EventInputError('Only events of type default can be created this way.')
  return {
    start: stored(start),
    end: stored(end),
    recurrence,
    data,
    status: (b.status ?? 'confirmed') as EventRow['status'],
  }
}

function attendeesOf(list: unknown): Attendee[] {
  if (!Array.isArray(list)) throw new EventInputError('Invalid attendees.')
  const seen = new Set<string>()
  const out: Attendee[] = []
  for (const a of list as Attendee[]) {
    if (!a || typeof a !== 'object' || typeof a.email !== 'string')
      throw new EventInputError('Missing attendee email.', 'required')
    if (!EMAIL.test(a.email)) throw new EventInputError('Invalid attendee email.')
    const email = a.email.toLowerCase()
    if (seen.has(email)) continue
    seen.add(email)
    if (
      a.responseStatus !== undefined &&
      !['needsAction', 'declined', 'tentative', 'accepted'].includes(a.responseStatus)
    )
      throw new EventInputError('Invalid attendee response status.')
    // The rest object, completed in place: `{ ...rest, … }` gave each copy a hidden class of its own (0446).
    const { self: _s, organizer: _o, ...rest } = a
    rest.email = a.email
    rest.responseStatus = a.responseStatus ?? 'needsAction'
    out.push(rest)
  }
  return out
}

function remindersOf(r: unknown) {
  if (!r || typeof r !== 'object' || Array.isArray(r)) throw new EventInputError('Invalid reminders.')
  const { useDefault, overrides } = r as { useDefault?: boolean; overrides?: { method?: string; minutes?: number }[] }
  if (overrides !== undefined) {
    if (!Array.isArray(overrides)) throw new EventInputError('Invalid reminders.')
    if (useDefault && overrides.length)
      throw new EventInputError(
        'Cannot specify both default reminders and overrides at the same time.',
        'cannotUseDefaultRemindersAndSpecifyOverride',
      )
    if (overrides.length > 5) throw new EventInputError('Too many reminders.', 'tooManyReminders')
    for (const o of overrides) {
      if (!o || !['email', 'popup'].includes(o.method ?? ''))
        throw new EventInputError('Invalid reminder method.', 'required')
      if (typeof o.minutes !== 'number' || o.minutes < 0 || o.minutes > 40320)
        throw new EventInputError('Invalid reminder minutes.')
    }
  }
  return { useDefault: !!useDefault, ...(overrides?.length ? { overrides } : {}) }
}

/** A Meet code (`abc-defg-hij`) that depends only on the world and the event. */
export function meetCode(db: Db, calendarId: string, eventId: string): string {
  const h = createHash('sha256')
    .update(`${getMeta(db, 'id_salt') ?? ''}\u0000meet\u0000${calendarId}\u0000${eventId}`)
    .digest()
  const letters = [...h.subarray(0, 10)].map((b) => String.fromCharCode(97 + (b % 26))).join('')
  return `${letters.slice(0, 3)}-${letters.slice(3, 7)}-${letters.slice(7, 10)}`
}

/**
 * With conferenceDataVersion ≥ 1, a `createRequest` becomes a Google Meet conference (status success).
 * Without it, conference data is dropped, as the real API does.
 */
export function applyConference(
  db: Db,
  data: EventData,
  calendarId: string,
  eventId: string,
  version: number,
  previous?: EventData,
): void {
  if (version < 1) {
    if (previous?.conferenceData) data.conferenceData = previous.conferenceData
    else delete data.conferenceData
    if (previous?.hangoutLink) data.hangoutLink = previous.hangoutLink
    else delete data.hangoutLink
    return
  }
  const cd = data.conferenceData as
    | { createRequest?: { requestId?: string; conferenceSolutionKey?: { type?: string } }; entryPoints?: unknown[] }
    | undefined
  if (!cd?.createRequest || cd.entryPoints) return
  if (!cd.createRequest.requestId) throw new EventInputError('Invalid conference create request: missing requestId.')
  const type = cd.createRequest.conferenceSolutionKey?.type ?? 'hangoutsMeet'
  if (type !== 'hangoutsMeet') throw new EventInputError('Invalid conference type value.')
  const code = meetCode(db, calendarId, eventId)
  const uri = `https://meet.google.com/${code}`
  data.conferenceData = {
    createRequest: {
      requestId: cd.createRequest.requestId,
      conferenceSolutionKey: { type },
      status: { statusCode: 'success' },
    },
    entryPoints: [{ entryPointType: 'video', uri, label: `meet.google.com/${code}` }],
    conferenceSolution: {
      key: { type },
      name: 'Google Meet',
      iconUri:
        'https://fonts.gstatic.com/s/i/productlogos/meet_2020q4/v6/web-512dp/logo_meet_2020q4_color_2x_web_512dp.png',
    },
    conferenceId: code,
  }
  data.hangoutLink = uri
}

export const nowOf = (db: Db) => nowMs(db)
