import type { Db } from '../../core/db.ts'
import { expandGroup } from '../../core/groups.ts'
import { findUserByEmail } from '../../core/users.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { rfc3339Utc } from '../time/zoned.ts'
import { aliasCalendar, atLeast, findCalendar, roleOf } from './access.ts'
import { busyOf } from './busy.ts'

/** The documented maxima of `calendarExpansionMax` and `groupExpansionMax`, also their defaults. */
export const CALENDAR_EXPANSION_MAX = 50
export const GROUP_EXPANSION_MAX = 100

const failure = (reason: string) => [{ domain: 'global', reason }]
const stamp = (ms: number) => rfc3339Utc(ms).replace('.000Z', 'Z')

/**
 * A limit from the request: at most `max` (a larger value is capped, as Calendar caps page sizes); zero, a negative
 * value or none means `max` (proto3 cannot tell an unset int32 from 0).
 */
const limitOf = (v: unknown, max: number) => (typeof v === 'number' && v > 0 ? Math.min(v, max) : max)

export type FreeBusyLimits = { calendarExpansionMax?: unknown; groupExpansionMax?: unknown }

/**
 * The `calendars` and `groups` maps of a `freebusy.query` answer for the requested ids, in request order.
 * An id that is no calendar but a Directory group's address is expanded into its members (nested groups too, each
 * group once; every member, whatever their mail delivery setting): `groups[id].calendars` lists the members'
 * primary calendar ids (a world user's address, an outside address as it is), and each is answered as an item
 * would be. A group with more members than `groupExpansionMax` answers `groupTooBig` and no calendars; calendars
 * past `calendarExpansionMax` (distinct ids, items and members together) answer `tooManyCalendarsRequested`.
 * Deviation (unverified): any caller may expand any group of the workspace; Google follows the group's
 * "view members" setting.
 */
export function freeBusyMaps(
  db: Db,
  user: WorldUserRow,
  ids: readonly string[],
  min: number,
  max: number,
  limits: FreeBusyLimits,
): { calendars: Record<string, unknown>; groups: Record<string, unknown> | undefined } {
  const calendarMax = limitOf(limits.calendarExpansionMax, CALENDAR_EXPANSION_MAX)
  const groupMax = limitOf(limits.groupExpansionMax, GROUP_EXPANSION_MAX)
  const calendars: Record<string, unknown> = {}
  let groups: Record<string, unknown> | undefined
  const seen = new Set<string>()
  const answer = (key: string, id: string) => {
    if (seen.has(key)) return
    seen.add(key)
    // Deviation (unverified): Google's domain for the two limit reasons is not recorded; `global` as for notFound.
    if (seen.size > calendarMax) calendars[key] = { errors: failure('tooManyCalendarsRequested'), busy: [] }
    else calendars[key] = calendarAnswer(db, user, id, min, max)
  }
  // A repeated id is read once (a long list of one group must not walk the group each time).
  const expanded = new Map<string, string[] | undefined>()
  for (const key of ids) {
    const id = key === 'primary' ? user.email : key
    if (!expanded.has(id)) expanded.set(id, findCalendar(db, id) ? undefined : expandGroup(db, id, true))
    const members = expanded.get(id)
    if (!members) {
      answer(key, id)
      continue
    }
    groups ??= {}
    if (members.length > groupMax) {
      groups[key] = { errors: failure('groupTooBig'), calendars: [] }
      continue
    }
    const memberIds = members.map((m) => findUserByEmail(db, m)?.email ?? m)
    groups[key] = { calendars: memberIds }
    for (const m of memberIds) answer(m, m)
  }
  return { calendars, groups }
}

/** One calendar's busy periods, or `notFound` when it does not exist or the caller may not see its free/busy. */
function calendarAnswer(db: Db, user: WorldUserRow, id: string, min: number, max: number) {
  // A user's Directory alias stands for their primary calendar (the answer stays keyed by the id as asked).
  // Deviation (unverified): Google's answer for an alias is not recorded.
  const cal = findCalendar(db, id) ?? aliasCalendar(db, id)
  if (!cal || !atLeast(roleOf(db, cal, user), 'freeBusyReader')) return { errors: failure('notFound'), busy: [] }
  return { busy: busyOf(db, cal.id, min, max, cal).map(([s, e]) => ({ start: stamp(s), end: stamp(e) })) }
}
