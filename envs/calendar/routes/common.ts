import { z } from '@hono/zod-openapi'
import type { WorldContext } from '../../core/http.ts'
import { GoogleApiError } from '../../core/errors/google.ts'
import { INT32_MAX, intParam } from '../../core/param-errors.ts'
import { NOT_QUICK, quickField } from '../../core/sync-parse.ts'
import { aliasCalendar, atLeast, findCalendar, roleOf, type Role } from '../store/access.ts'
import type { CalendarRow } from '../schema.ts'
import { CalendarTimeError, isValidZone } from '../time/zoned.ts'
import { namesOf, type EventView } from '../map.ts'

export const json = <T extends z.ZodType>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema } },
})
export const jsonBody = <T extends z.ZodType>(schema: T, required = true) => ({
  required,
  content: { 'application/json': { schema } },
})
// Each also answers its valid values without zod (quickField): the query of a list keeps the synchronous plain path.
export const bool = () =>
  quickField(
    z
      .enum(['true', 'false'])
      .optional()
      .transform((v) => (v === undefined ? undefined : v === 'true')),
    (v) => (v === 'true' ? true : v === 'false' ? false : NOT_QUICK),
  )
const INTEGER = /^-?\d+$/
/**
 * An integer query parameter in `[min, max]` (discovery's bounds; no maximum there means int32's). Above `cap`,
 * Calendar serves `cap`: a page size past the documented largest is answered with that many, not refused.
 */
export const int = (min: number, max = INT32_MAX, cap = max) =>
  quickField(intParam({ min, max, cap }), (v) => {
    if (typeof v !== 'string' || !INTEGER.test(v)) return NOT_QUICK
    const n = Number(v)
    return n >= min && n <= max ? Math.min(n, cap) : NOT_QUICK
  })
/** A `maxResults` page size: at least 1, served as `cap` above it. */
export const pageSize = (cap: number) => int(1, INT32_MAX, cap)
export const CalParams = z.object({ calendarId: z.string() })
export const noContent = { 204: { description: 'No content' } }

// Calendar's errors use the legacy envelope (no `status`) with short messages ("Not Found"), as recorded
// in specs/parity/gcal/error_*.json.
export const notFound = (message = 'Not Found') => new GoogleApiError('NOT_FOUND', 'notFound', message)
export const invalid = (message: string, reason = 'invalid') => new GoogleApiError('INVALID_ARGUMENT', reason, message)
export const required = (message: string) => new GoogleApiError('INVALID_ARGUMENT', 'required', message)
export const forbidden = (message = 'Forbidden', reason = 'forbidden') =>
  new GoogleApiError('PERMISSION_DENIED', reason, message)
export const needAccess = (role: Role) =>
  forbidden(`You need to have ${role} access to this calendar.`, 'requiredAccessLevel')

/** `primary` → the caller's primary calendar id (their email). */
export const calendarIdOf = (c: WorldContext, id: string) => (id === 'primary' ? c.var.user.email : id)

/** The calendar with the caller's role; 404 when the caller has no access at all, 403 when too little. */
export function requireCalendar(
  c: WorldContext,
  rawId: string,
  need: Role = 'reader',
): { cal: CalendarRow; role: Role } {
  const db = c.var.world.db
  // A renamed user's old address (an alias now) still names their primary calendar (docs/decisions/0469).
  const id = calendarIdOf(c, rawId)
  const cal = findCalendar(db, id) ?? aliasCalendar(db, id)
  const role = cal ? roleOf(db, cal, c.var.user) : 'none'
  if (!cal || role === 'none') throw notFound()
  if (!atLeast(role, need)) throw need === 'reader' && role === 'freeBusyReader' ? notFound() : needAccess(need)
  return { cal, role }
}

/** Time-module errors become Google's 400 with the same wording. */
export function timeErrors<T>(fn: () => T): T {
  try {
    return fn()
  } catch (e) {
    if (e instanceof CalendarTimeError) throw invalid(e.message, e.reason)
    throw e
  }
}

/** How the caller sees events of `cal`: the calendar zone, or the `timeZone` parameter. */
export function viewOf(c: WorldContext, cal: CalendarRow, role: Role, tz?: string): EventView {
  if (tz !== undefined && !isValidZone(tz)) throw invalid('Invalid time zone definition.', 'invalid')
  return {
    viewer: c.var.user.email,
    zone: cal.timeZone,
    forcedZone: tz,
    access: role === 'freeBusyReader' ? 'freeBusy' : role === 'reader' ? 'reader' : 'full',
    names: namesOf(c.var.world.db),
  }
}

/** Fields a client may not send as anything other than an object (robustness against hostile bodies). */
export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/** Whether an `If-Match`/`If-None-Match` header value (`*`, or a comma list of possibly weak etags) names `etag`. */
export function etagMatches(header: string, etag: string): boolean {
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === etag)
}

/** A write with `If-Match` naming another version of the resource fails with 412, as Calendar answers it. */
export function requireIfMatch(c: WorldContext, etag: string): void {
  const header = c.req.header('if-match')
  if (header === undefined || etagMatches(header, etag)) return
  throw new GoogleApiError(
    'PRECONDITION_FAILED',
    'conditionNotMet',
    'Precondition Failed',
    { locationType: 'header', location: 'If-Match' },
    412,
  )
}

/** A read with `If-None-Match` naming the current etag: true when the answer is `304 Not Modified`. */
export const notModified = (c: WorldContext, etag: string): boolean => {
  const header = c.req.header('if-none-match')
  return header !== undefined && etagMatches(header, etag)
}
