/**
 * `events.quickAdd`: English text → event fields. A small grammar over `tokenize()` tokens: each rule
 * recognises one phrase (a day, a clock time or range, a duration, a repetition), records what it means and
 * marks its tokens used; what is left is the summary, with "at <place>" lifted into `location`.
 * @see https://developers.google.com/calendar/api/v3/reference/events/quickAdd
 */
import { DateTime } from 'luxon'
import { tokenize } from './quickadd-lex.ts'
import { type Clock, CONNECTORS, Parse, RULES, matchesByday, to24 } from './quickadd-rules.ts'
import { type EventDateTime, isValidZone, rfc3339InZone } from './zoned.ts'

export type QuickAddResult = {
  summary: string
  start: EventDateTime
  end: EventDateTime
  recurrence?: string[]
  location?: string
  attendees?: string[]
}

/**
 * Parses quickAdd text at `nowMs` in `zone` (the calendar's). Without a clock time the event is all-day on
 * the named day (today if none); the default length is one hour.
 * Deviation: a small English grammar, not Google's parser; unknown phrasing stays in the summary.
 */
export function quickAdd(text: string, nowMs: number, zone: string): QuickAddResult {
  const tz = isValidZone(zone) ? zone : 'UTC'
  const toks = tokenize(text)
  const p = new Parse(toks, DateTime.fromMillis(nowMs, { zone: tz }).startOf('day'))
  for (let i = 0; i < toks.length; i++) {
    if (p.used.has(i)) continue
    for (const rule of RULES) if (rule(p, i)) break
  }
  // Connectors directly before a recognised phrase go with it.
  for (let i = toks.length - 2; i >= 0; i--) {
    if (!p.used.has(i) && p.used.has(i + 1) && CONNECTORS.has(p.word(i) ?? '')) p.used.add(i)
  }
  const { summary, location } = summaryAndLocation(p)
  // Deviation (unverified): addresses become attendees and also stay in the summary.
  const attendees = toks.filter((t) => t.kind === 'email').map((t) => t.text)
  const out: QuickAddResult = { summary, ...times(p, tz) }
  if (p.rule) out.recurrence = [`RRULE:${p.rule}${p.byday ? `;BYDAY=${p.byday.join(',')}` : ''}`]
  if (location) out.location = location
  if (attendees.length) out.attendees = attendees
  return out
}

function times(p: Parse, tz: string): { start: EventDateTime; end: EventDateTime } {
  let day = p.date ? DateTime.fromObject(p.date, { zone: tz }) : p.today
  // A repetition on named weekdays starts on the first such day.
  for (let k = 0; p.byday && !p.date && k < 400 && !p.byday.some((e) => matchesByday(day, e)); k++)
    day = day.plus({ days: 1 })
  const clock = p.start ? to24(p.start, p.dayPart !== undefined && p.dayPart.hour >= 18) : p.dayPart
  if (!clock || p.allDay) {
    const days = p.durationMin && p.durationMin >= 1440 ? Math.round(p.durationMin / 1440) : 1
    return { start: { date: day.toISODate()! }, end: { date: day.plus({ days }).toISODate()! } }
  }
  // Wall-clock arithmetic (set, not plus hours), so a DST change overnight does not shift the time.
  const at = (c: Clock) =>
    day.plus({ days: c.hour === 24 ? 1 : 0 }).set({ hour: c.hour % 24, minute: c.minute, second: 0, millisecond: 0 })
  const start = at(clock)
  let end = p.end ? at(p.end) : start.plus({ minutes: p.durationMin ?? 60 })
  if (end <= start) end = end.plus({ days: 1 })
  return {
    start: { dateTime: rfc3339InZone(start.toMillis(), tz), timeZone: tz },
    end: { dateTime: rfc3339InZone(end.toMillis(), tz), timeZone: tz },
  }
}

/** The unused tokens, joined as written; "at <place>" among them becomes the location. */
function summaryAndLocation(p: Parse): { summary: string; location?: string } {
  const kept = p.toks.map((t, i) => ({ t, i })).filter(({ i }) => !p.used.has(i))
  const join = (list: typeof kept) =>
    list
      .reduce((s, { t }, k) => s + (k > 0 && list[k - 1]!.t.to === t.from ? '' : k > 0 ? ' ' : '') + t.text, '')
      .replace(/^[\s,;:@-]+|[\s,;:@-]+$/g, '')
  const at = kept.findIndex(
    ({ t }, k) => k > 0 && (t.text.toLowerCase() === 'at' || t.text === '@') && kept[k + 1]?.i === kept[k]!.i + 1,
  )
  if (at > 0) {
    let stop = at + 1
    while (
      stop < kept.length &&
      kept[stop]!.i === kept[stop - 1]!.i + 1 &&
      !['with', 'and', ','].includes(kept[stop]!.t.text.toLowerCase())
    )
      stop++
    const location = join(kept.slice(at + 1, stop))
    const summary = join([...kept.slice(0, at), ...kept.slice(stop)])
    if (location && summary) return { summary, location }
  }
  return { summary: join(kept) }
}
