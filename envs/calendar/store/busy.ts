import type { Db } from '../../core/db.ts'
import type { CalendarRow } from '../schema.ts'
import { findCalendar } from './access.ts'
import { dataOf } from './events.ts'
import { singleEvents } from './window.ts'

/**
 * Busy intervals of a calendar in [min, max): confirmed or tentative events that are opaque and not declined
 * by the calendar's owner, merged where they touch or overlap, clipped to the window. `cal`: the calendar, when the
 * caller has already read it.
 */
export function busyOf(
  db: Db,
  calendarId: string,
  min: number,
  max: number,
  cal: Pick<CalendarRow, 'id'> | undefined = findCalendar(db, calendarId),
): [number, number][] {
  const self = cal?.id.toLowerCase()
  const spans: [number, number][] = []
  for (const r of singleEvents(db, calendarId, { min, max }, false)) {
    const d = dataOf(r)
    if (d.transparency === 'transparent') continue
    const me = d.attendees?.find((a) => a.email.toLowerCase() === self)
    if (me?.responseStatus === 'declined') continue
    const s = Math.max(r.startMs, min)
    const e = Math.min(r.endMs, max)
    if (e > s) spans.push([s, e])
  }
  spans.sort((a, b) => a[0] - b[0])
  const merged: [number, number][] = []
  for (const s of spans) {
    const last = merged[merged.length - 1]
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1])
    else merged.push([...s])
  }
  return merged
}
