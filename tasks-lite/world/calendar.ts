import { BG_PARTNERS, BG_PROJECTS } from './vocab.ts'
import { DAY, type SeedUser, type WorldCtx } from './context.ts'

type Time = { dateTime: string; timeZone: string }
type Event = {
  calendar: string
  summary: string
  description?: string
  location?: string
  start: Time
  end: Time
  recurrence?: string[]
  attendees: { user: string; responseStatus: 'needsAction' | 'accepted' | 'declined' | 'tentative' }[]
  conference?: boolean
  visibility?: 'private'
  transparency?: 'transparent'
}

const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR'] as const
const ROOMS = ['Room Alder (4)', 'Room Birch (8)', 'Room Cedar (12)', 'Atrium booth 2']

/** One `en-CA` date formatter per time zone: building an Intl.DateTimeFormat costs far more than formatting. */
const dateFormats = new Map<string, Intl.DateTimeFormat>()
function dateFormat(tz: string): Intl.DateTimeFormat {
  let f = dateFormats.get(tz)
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' })
    if (dateFormats.size >= 64) dateFormats.clear()
    dateFormats.set(tz, f)
  }
  return f
}

/** The local calendar date `days` from now in `tz` (YYYY-MM-DD) and its weekday (0 = Sunday). */
function localDay(nowMs: number, days: number, tz: string): { date: string; weekday: number } {
  const d = new Date(nowMs + days * DAY * 60_000)
  const date = dateFormat(tz).format(d)
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay()
  return { date, weekday }
}
const hm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`
const at = (date: string, minutes: number, tz: string): Time => ({ dateTime: `${date}T${hm(minutes)}`, timeZone: tz })

/** Background calendars: recurring series (stand-ups, syncs, 1:1s) from weeks ago, and one-offs around now. */
export function backgroundEvents(ctx: WorldCtx): Event[] {
  const out: Event[] = []
  for (const u of ctx.users) {
    const share = u.id === ctx.actor.id ? 1 : ctx.vol.othersShare * 2
    out.push(...recurring(ctx, u, Math.max(1, Math.round(ctx.vol.recurring * share))))
    out.push(...oneOffs(ctx, u, Math.max(1, Math.round(ctx.vol.oneOffs * share))))
  }
  return out.filter((e) => !ctx.collides(`${e.summary} ${e.description ?? ''}`))
}

function recurring(ctx: WorldCtx, u: SeedUser, count: number): Event[] {
  const { r } = ctx
  const tz = u.timeZone ?? 'UTC'
  const out: Event[] = []
  for (let i = 0; i < count; i++) {
    const project = BG_PROJECTS[(i * 5 + r.int(0, 3)) % BG_PROJECTS.length]!
    const kind = i % 3
    const weekday = r.int(1, 5)
    const first = localDay(ctx.nowMs, -r.int(21, 70), tz)
    const shift = (weekday - first.weekday + 7) % 7
    const start = localDay(ctx.nowMs + shift * DAY * 60_000, 0, tz).date
    const from = kind === 0 ? r.pick([8 * 60 + 30, 9 * 60, 9 * 60 + 45]) : r.int(10, 16) * 60 + r.pick([0, 30])
    const len = kind === 0 ? 15 : r.pick([30, 45, 60])
    const people = r.sample(ctx.coworkers, kind === 2 ? 1 : r.int(2, 5))
    const rule =
      kind === 0
        ? `RRULE:FREQ=WEEKLY;BYDAY=${DAYS.join(',')}`
        : kind === 1
          ? `RRULE:FREQ=WEEKLY;INTERVAL=${r.int(1, 2)};BYDAY=${DAYS[weekday - 1]}`
          : `RRULE:FREQ=WEEKLY;BYDAY=${DAYS[weekday - 1]};COUNT=${r.int(8, 20)}`
    out.push({
      calendar: u.id,
      summary:
        kind === 0 ? `${project} stand-up` : kind === 1 ? `${project} weekly sync` : `1:1 with ${people[0]!.first}`,
      description: kind === 1 ? 'Agenda in the shared notes. Add topics before the meeting.' : undefined,
      start: at(kind === 0 ? start : start, from, tz),
      end: at(start, from + len, tz),
      recurrence: [rule],
      attendees: [
        { user: u.id, responseStatus: 'accepted' },
        ...people.map((p) => ({
          user: p.email,
          responseStatus: r.pick(['accepted', 'accepted', 'tentative', 'needsAction'] as const),
        })),
      ],
      conference: r.next() < 0.6,
      ...(kind === 1 ? { location: r.pick(ROOMS) } : {}),
    })
  }
  return out
}

function oneOffs(ctx: WorldCtx, u: SeedUser, count: number): Event[] {
  const { r } = ctx
  const tz = u.timeZone ?? 'UTC'
  const out: Event[] = []
  for (let i = 0; i < count; i++) {
    const { date, weekday } = localDay(ctx.nowMs, r.int(-28, 28), tz)
    if (weekday === 0 || weekday === 6) continue
    const from = r.int(9, 16) * 60 + r.pick([0, 30])
    const kind = r.int(0, 5)
    const person = r.pick(ctx.coworkers)
    const project = r.pick(BG_PROJECTS)
    const partner = r.pick(BG_PARTNERS)
    const summary = [
      `Focus time`,
      `Coffee with ${person.first}`,
      `${project} demo`,
      `Interview: ${r.pick(['backend engineer', 'product designer', 'data analyst'])}`,
      `Call with ${partner.company}`,
      'Dentist',
    ][kind]!
    out.push({
      calendar: u.id,
      summary,
      start: at(date, from, tz),
      end: at(date, from + r.pick([30, 45, 60, 90]), tz),
      attendees:
        kind === 0 || kind === 5
          ? []
          : [
              { user: u.id, responseStatus: 'accepted' },
              { user: person.email, responseStatus: r.pick(['accepted', 'needsAction', 'tentative'] as const) },
            ],
      ...(kind === 0 ? { transparency: 'transparent' as const } : {}),
      ...(kind === 5 ? { visibility: 'private' as const } : {}),
      ...(kind === 2 ? { location: r.pick(ROOMS) } : {}),
      conference: kind === 3 || kind === 4,
    })
  }
  return out
}
