import type { DemoContext } from './context.ts'
import { demoExternals } from './people.ts'

type Who = { user: string; responseStatus?: 'needsAction' | 'accepted' | 'declined' | 'tentative'; optional?: boolean }
type SeedEvent = Record<string, unknown> & { calendar: string; summary: string }

const NY = 'America/New_York'
const at = (day: string, time: string, timeZone = NY) => ({ dateTime: `2026-03-${day}T${time}:00`, timeZone })

/**
 * Demo Calendar for the week of 2026-03-02 (US daylight saving starts on Sunday 8 March): a shared team
 * calendar, recurring leadership and engineering meetings with guests across the company (some accepted,
 * some declined, some pending), one-off reviews, an external customer call and all-day events.
 */
export function demoCalendar(ctx: DemoContext): { calendars: Record<string, unknown>[]; events: SeedEvent[] } {
  const rng = ctx.rng.fork('calendar')
  const customer = demoExternals[rng.int(0, Math.min(3, demoExternals.length - 1))]!
  const all = (except: string, status: Who['responseStatus'] = 'accepted'): Who[] =>
    ctx.users.filter((u) => u.id !== except).map((u) => ({ user: u.id, responseStatus: status }))
  const calendars = [
    {
      key: 'team',
      owner: 'alice',
      summary: 'Northwind Team',
      description: 'Company-wide events',
      timeZone: NY,
      acl: [
        { type: 'domain', role: 'reader' },
        { type: 'user', value: 'bob', role: 'writer' },
      ],
    },
    {
      key: 'oncall',
      owner: 'bob',
      summary: 'Engineering on-call',
      timeZone: NY,
      acl: [{ type: 'user', value: 'carol', role: 'reader' }],
    },
  ]
  const events: SeedEvent[] = [
    {
      calendar: 'team',
      summary: 'All-hands',
      description: 'Monthly company update.',
      start: at('05', '11:00'),
      end: at('05', '12:00'),
      recurrence: ['RRULE:FREQ=MONTHLY;BYDAY=1TH'],
      attendees: all('alice'),
      conference: true,
    },
    {
      calendar: 'team',
      summary: 'Company offsite',
      location: 'Lake Placid Lodge',
      start: { date: '2026-03-19' },
      end: { date: '2026-03-21' },
    },
    {
      calendar: 'oncall',
      summary: 'On-call: Bob',
      start: { date: '2026-03-02' },
      end: { date: '2026-03-09' },
      transparency: 'transparent',
    },
    {
      calendar: 'oncall',
      summary: 'On-call: Carol',
      start: { date: '2026-03-09' },
      end: { date: '2026-03-16' },
      transparency: 'transparent',
    },
    {
      calendar: 'alice',
      summary: 'Weekly leadership sync',
      description: 'Agenda in the leadership doc.',
      start: at('02', '10:00'),
      end: at('02', '10:45'),
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO'],
      attendees: [
        { user: 'bob', responseStatus: 'accepted' },
        { user: 'erin', responseStatus: 'accepted' },
        { user: 'dan', responseStatus: 'tentative' },
      ],
      conference: true,
    },
    {
      calendar: 'alice',
      summary: '1:1 Alice / Bob',
      start: at('04', '15:00'),
      end: at('04', '15:30'),
      recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=WE'],
      attendees: [{ user: 'bob', responseStatus: 'accepted' }],
    },
    {
      calendar: 'alice',
      summary: 'Board prep',
      description: 'Review the Q2 board deck (final).',
      start: at('06', '13:00'),
      end: at('06', '14:30'),
      attendees: [{ user: 'erin', responseStatus: 'needsAction' }],
    },
    { calendar: 'alice', summary: 'Dentist', start: at('03', '08:00'), end: at('03', '09:00'), visibility: 'private' },
    {
      calendar: 'bob',
      summary: 'Eng standup',
      start: at('02', '09:30'),
      end: at('02', '09:45'),
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR'],
      attendees: [{ user: 'carol', responseStatus: 'accepted' }],
      conference: true,
    },
    {
      calendar: 'bob',
      summary: 'Architecture review',
      location: 'Room 4B',
      start: at('03', '14:00'),
      end: at('03', '15:00'),
      attendees: [
        { user: 'carol', responseStatus: 'declined' },
        { user: 'alice', responseStatus: 'needsAction', optional: true },
      ],
      conference: true,
    },
    {
      calendar: 'bob',
      summary: 'Focus time',
      start: at('05', '13:00'),
      end: at('05', '16:00'),
      transparency: 'opaque',
      colorId: '8',
    },
    {
      calendar: 'carol',
      summary: 'Design critique',
      start: at('05', '16:00', 'Europe/Stockholm'),
      end: at('05', '17:00', 'Europe/Stockholm'),
      attendees: [
        { user: 'dan', responseStatus: 'accepted' },
        { user: 'bob', responseStatus: 'needsAction' },
      ],
    },
    {
      calendar: 'carol',
      summary: 'Gym',
      start: at('04', '07:00', 'Europe/Stockholm'),
      end: at('04', '08:00', 'Europe/Stockholm'),
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=8'],
    },
    {
      calendar: 'dan',
      summary: `Customer call: ${customer.company}`,
      start: at('04', '11:00', 'America/Los_Angeles'),
      end: at('04', '11:30', 'America/Los_Angeles'),
      attendees: [{ user: customer.email }, { user: 'alice', responseStatus: 'accepted' }],
      conference: true,
    },
    {
      calendar: 'dan',
      summary: 'Pipeline review',
      start: at('06', '09:00', 'America/Los_Angeles'),
      end: at('06', '09:30', 'America/Los_Angeles'),
      attendees: [
        { user: 'alice', responseStatus: 'needsAction' },
        { user: 'erin', responseStatus: 'accepted' },
      ],
    },
    {
      calendar: 'erin',
      summary: 'Budget review',
      start: at('04', '13:00', 'America/Chicago'),
      end: at('04', '14:00', 'America/Chicago'),
      attendees: [
        { user: 'alice', responseStatus: 'accepted' },
        { user: 'dan', responseStatus: 'declined' },
      ],
    },
    {
      calendar: 'erin',
      summary: 'Month-end close',
      start: { date: '2026-03-31' },
      end: { date: '2026-04-01' },
      recurrence: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-1'],
    },
  ]
  return { calendars, events }
}

const TOPICS = [
  'Roadmap',
  'Pricing',
  'Onboarding flow',
  'Mobile app',
  'Billing',
  'Q2 launch',
  'Hiring plan',
  'Analytics',
  'Design system',
  'Partner API',
  'Security review',
  'Docs refresh',
]
const MEETINGS = [
  (t: string) => `${t} review`,
  (t: string) => `${t} sync`,
  (t: string) => `${t} planning`,
  (t: string) => `Workshop: ${t}`,
  (t: string) => `${t} retro`,
  (t: string) => `Brainstorm: ${t}`,
]
const SOLO = ['Focus time', 'Deep work', 'Inbox zero', 'Prep: board update', 'Expense reports', 'Reading time']
const ALL_DAY = [
  'Out of office',
  'Conference travel',
  'Team offsite day',
  'Company holiday',
  'Customer visit',
  'Training day',
]
const ROOMS = ['Room 4B', 'Room 2A', 'Lobby cafe', 'Boardroom', 'Studio']
const SERIES = [
  { summary: (a: string, b: string) => `1:1 ${a} / ${b}`, rule: () => 'RRULE:FREQ=WEEKLY', minutes: 30 },
  { summary: (a: string) => `${a}'s team standup`, rule: () => 'RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', minutes: 15 },
  { summary: () => 'Sprint planning', rule: () => 'RRULE:FREQ=WEEKLY;INTERVAL=2', minutes: 60 },
  { summary: () => 'Monthly metrics review', rule: () => 'RRULE:FREQ=MONTHLY;BYDAY=2TU', minutes: 60 },
  { summary: (a: string) => `Office hours with ${a}`, rule: () => 'RRULE:FREQ=WEEKLY;COUNT=10', minutes: 45 },
]
const LARGE_FROM = Date.UTC(2025, 11, 1)
const LARGE_DAYS = 212 // December 2025 through June 2026

/**
 * About 1,000 calendar events for the large world: the demo calendars and events, then generated meetings
 * over December 2025 – June 2026 on every user's primary calendar (and the shared team calendar), in the
 * owner's zone: mostly one-off meetings with colleagues (and now and then a customer), some solo blocks and
 * all-day entries, and a few dozen weekly/monthly series.
 */
export function largeCalendar(ctx: DemoContext, total = 1000): ReturnType<typeof demoCalendar> {
  const demo = demoCalendar(ctx)
  const rng = ctx.rng.fork('calendar-large')
  const customers = demoExternals.filter((x) => x.company !== 'Unknown')
  const first = (id: string) => ctx.users.find((u) => u.id === id)!.name.split(' ')[0]!
  const dayText = (offset: number) => new Date(LARGE_FROM + offset * 86_400_000).toISOString().slice(0, 10)
  const weekday = (offset: number) => {
    const d = new Date(LARGE_FROM + offset * 86_400_000).getUTCDay()
    return d !== 0 && d !== 6
  }
  const pickWorkday = () => {
    for (;;) {
      const offset = rng.int(0, LARGE_DAYS - 1)
      if (weekday(offset)) return offset
    }
  }
  const clock = (minutes: number) =>
    `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
  const timed = (offset: number, startMin: number, minutes: number, timeZone: string) => ({
    start: { dateTime: `${dayText(offset)}T${clock(startMin)}:00`, timeZone },
    end: { dateTime: `${dayText(offset)}T${clock(Math.min(startMin + minutes, 23 * 60 + 59))}:00`, timeZone },
  })
  // Most meetings have one or two colleagues (each guest who is a world user gets a copy of the event).
  const guestCount = (max: number) => Math.min(max, [1, 1, 1, 1, 1, 2, 2, 2, 3, 4][rng.int(0, 9)]!)
  const guests = (owner: string, max: number): Who[] =>
    rng
      .shuffle(ctx.users.filter((u) => u.id !== owner))
      .slice(0, guestCount(max))
      .map((u) => {
        const r = rng.next()
        return {
          user: u.id,
          responseStatus: r < 0.55 ? 'accepted' : r < 0.7 ? 'declined' : r < 0.8 ? 'tentative' : 'needsAction',
          ...(rng.chance(0.1) ? { optional: true } : {}),
        }
      })

  const events: SeedEvent[] = []
  const want = Math.max(0, total - demo.events.length)
  for (let i = 0; i < want; i++) {
    const owner = rng.pick(ctx.users)
    const zone = owner.timeZone ?? NY
    const kind = rng.next()
    if (kind < 0.05) {
      const s = rng.pick(SERIES)
      const other = rng.pick(ctx.users.filter((u) => u.id !== owner.id))
      const offset = pickWorkday()
      const until = rng.chance(0.4)
        ? `;UNTIL=${dayText(Math.min(LARGE_DAYS - 1, offset + rng.int(30, 120))).replace(/-/g, '')}T235959Z`
        : ''
      const rule = s.rule()
      events.push({
        calendar: owner.id,
        summary: s.summary(first(owner.id), first(other.id)),
        ...timed(offset, rng.int(9, 16) * 60 + rng.pick([0, 30]), s.minutes, zone),
        recurrence: [rule.includes('COUNT') ? rule : `${rule}${until}`],
        attendees: guests(owner.id, 3),
        conference: rng.chance(0.5),
      })
    } else if (kind < 0.13) {
      const offset = rng.int(0, LARGE_DAYS - 2)
      const days = rng.int(1, 3)
      events.push({
        calendar: rng.chance(0.2) ? 'team' : owner.id,
        summary: rng.pick(ALL_DAY),
        start: { date: dayText(offset) },
        end: { date: dayText(Math.min(LARGE_DAYS, offset + days)) },
        transparency: 'transparent',
      })
    } else if (kind < 0.25) {
      events.push({
        calendar: owner.id,
        summary: rng.pick(SOLO),
        ...timed(pickWorkday(), rng.int(8, 17) * 60 + rng.pick([0, 30]), rng.pick([60, 90, 120]), zone),
        ...(rng.chance(0.3) ? { colorId: String(rng.int(1, 11)) } : {}),
      })
    } else {
      const topic = rng.pick(TOPICS)
      const customer = rng.chance(0.12) ? rng.pick(customers) : undefined
      const attendees: Who[] = [...guests(owner.id, 4), ...(customer ? [{ user: customer.email }] : [])]
      events.push({
        calendar: rng.chance(0.05) ? 'team' : owner.id,
        summary: customer ? `${customer.company}: ${topic}` : rng.pick(MEETINGS)(topic),
        ...(rng.chance(0.3) ? { description: `Notes and agenda: ${topic.toLowerCase()} doc.` } : {}),
        ...(rng.chance(0.25) ? { location: rng.pick(ROOMS) } : {}),
        ...timed(
          pickWorkday(),
          rng.int(8, 17) * 60 + rng.pick([0, 15, 30, 45]),
          rng.pick([15, 30, 30, 45, 60, 60, 90]),
          zone,
        ),
        attendees,
        conference: rng.chance(customer ? 0.8 : 0.15),
      })
    }
  }
  return { calendars: demo.calendars, events: [...demo.events, ...events] }
}
