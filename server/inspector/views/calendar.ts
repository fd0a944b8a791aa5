import { DateTime } from 'luxon'
import type { World } from '../../../envs/core/world.ts'
import type { WorldUserRow } from '../../../envs/core/world-tables.ts'
import { nowMs } from '../../../envs/core/clock.ts'
import { singleEvents } from '../../../envs/calendar/store/window.ts'
import { dataOf, recurrenceOf, timeOf } from '../../../envs/calendar/store/events.ts'
import type { EventRow } from '../../../envs/calendar/schema.ts'
import { h, href, qs, type Raw } from '../html.ts'

const HOUR_PX = 48

type Cal = { id: string; summary: string; override: string | null }

/** The Monday (00:00 in `zone`) of the week holding `day` (ISO date) or, without one, the world's now. */
export function weekStart(world: World, zone: string, day?: string): DateTime {
  const parsed = day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? DateTime.fromISO(day, { zone }) : undefined
  const at = parsed?.isValid ? parsed : DateTime.fromMillis(nowMs(world.db), { zone })
  return at.startOf('day').minus({ days: at.weekday - 1 })
}

function kindOf(r: EventRow, storedExceptions: Set<string>): string {
  if (r.status === 'cancelled') return 'cancelled'
  if (r.recurringEventId) return storedExceptions.has(`${r.calendarId}/${r.id}`) ? 'exception' : 'recurring'
  return 'single'
}

/**
 * A week in the user's zone: one column per day, events placed by their local start hour (48 px an hour),
 * recurring series expanded with the API's own expansion (stored exceptions replace their occurrence).
 */
export function calendarView(world: World, worldId: string, user: WorldUserRow, day?: string): Raw {
  const zone = user.timeZone
  const start = weekStart(world, zone, day)
  const end = start.plus({ days: 7 })
  const cals = world.db.$client
    .prepare(
      `SELECT c.id, c.summary, l.summary_override AS override FROM calendar_list l
    JOIN calendar_calendars c ON c.id = l.calendar_id WHERE l.user_id = ? AND l.deleted = 0 AND l.hidden = 0
    ORDER BY c.is_primary DESC, c.id`,
    )
    .all(user.id) as Cal[]
  const exceptions = new Set(
    (
      world.db.$client
        .prepare(
          `SELECT calendar_id || '/' || id AS k FROM calendar_events
    WHERE recurring_event_id IS NOT NULL`,
        )
        .all() as { k: string }[]
    ).map((r) => r.k),
  )
  const days = [...Array(7).keys()].map((i) => start.plus({ days: i }))
  const timed: Raw[][] = days.map(() => [])
  const allDay: Raw[][] = days.map(() => [])
  const series: Raw[] = []
  const seen = new Set<string>()
  for (const cal of cals) {
    const rows = singleEvents(world.db, cal.id, { min: start.toMillis(), max: end.toMillis() }, true)
    for (const r of rows) {
      const d = dataOf(r)
      const kind = kindOf(r, exceptions)
      const title = String(d.summary ?? '(no title)')
      const st = timeOf(r.start)
      const who = (d.attendees ?? []).map((x) => `${x.email} (${x.responseStatus ?? 'needsAction'})`).join(', ')
      const detail = [
        `${title} · ${cal.override ?? cal.summary}`,
        d.location ? `at ${String(d.location)}` : '',
        who ? `attendees: ${who}` : '',
        r.status === 'cancelled' ? 'cancelled' : '',
      ]
        .filter(Boolean)
        .join('\n')
      if (r.recurringEventId && !seen.has(r.recurringEventId)) {
        seen.add(r.recurringEventId)
        const master = world.db.$client
          .prepare('SELECT recurrence FROM calendar_events WHERE calendar_id = ? AND id = ?')
          .get(cal.id, r.recurringEventId) as Pick<EventRow, 'recurrence'> | undefined
        series.push(
          h`<li><b>${title}</b> <span class="muted">${(master && recurrenceOf(master)?.join(' ')) ?? ''}</span></li>`,
        )
      }
      if (st.allDay) {
        const from = DateTime.fromISO(st.date ?? '', { zone })
        days.forEach((dd, i) => {
          if (from.isValid && dd.toISODate()! >= from.toISODate()! && dd.toMillis() < r.endMs) {
            allDay[i]!.push(h`<div class="ev allday ${kind}" data-summary="${title}" title="${detail}">${title}</div>`)
          }
        })
        continue
      }
      days.forEach((dd, i) => {
        const dayEnd = dd.plus({ days: 1 })
        const a = Math.max(r.startMs, dd.toMillis())
        const b = Math.min(Math.max(r.endMs, r.startMs + 15 * 60_000), dayEnd.toMillis())
        if (a >= dayEnd.toMillis() || b <= dd.toMillis()) return
        const local = DateTime.fromMillis(a, { zone })
        const minutes = local.hour * 60 + local.minute
        const top = (minutes * HOUR_PX) / 60
        const height = Math.max(16, (((b - a) / 60_000) * HOUR_PX) / 60)
        const label = DateTime.fromMillis(r.startMs, { zone }).toFormat('HH:mm')
        timed[i]!.push(h`<div class="ev ${kind}" style="top:${top}px;height:${height}px" data-hour="${local.hour}"
          data-day="${dd.toISODate()}" data-summary="${title}" title="${detail}">
          <b>${label}</b> ${title}${kind === 'exception' ? ' ✎' : kind === 'recurring' ? ' ↻' : ''}</div>`)
      })
    }
  }
  const base = href('worlds', worldId, 'u', user.id, 'calendar')
  const prev = start.minus({ days: 7 }).toISODate()!
  const next = start.plus({ days: 7 }).toISODate()!
  return h`<p><a href="${base}${qs({ week: prev })}">← previous week</a> · <b>${start.toFormat('d LLL yyyy')} –
    ${end.minus({ days: 1 }).toFormat('d LLL yyyy')}</b> in <code>${zone}</code> · <a href="${base}${qs({
      week: next,
    })}">next week →</a></p>
  <p class="muted">Calendars: ${cals.map((c) => c.override ?? c.summary).join(', ')}. ↻ occurrence of a series, ✎
    edited occurrence
    (exception).</p>
  <div class="week"><div></div>${days.map(
    (d) => h`<div class="dayhead"
    data-day="${d.toISODate()}">${d.toFormat('ccc d LLL')}</div>`,
  )}
  <div class="allday"><div class="muted">all day</div>${allDay.map((evs) => h`<div>${evs}</div>`)}</div>
  <div class="hours">${[...Array(24).keys()].map(
    (i) => h`<div class="hour">${String(i).padStart(2, '0')}:00</div>`,
  )}</div>
  ${timed.map((evs, i) => h`<div class="day" data-day="${days[i]!.toISODate()}">${evs}</div>`)}</div>
  ${series.length ? h`<h2>Recurring series this week</h2><ul>${series}</ul>` : ''}`
}
