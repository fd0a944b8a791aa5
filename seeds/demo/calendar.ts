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
  const all = (except: string, status: Who['responseStatus'] = 'accepted'): Who[] => ctx.users.filter((u) => u.id !== except).map((u) => ({ user: u.id, responseStatus: status }))
  const calendars = [
    { key: 'team', owner: 'alice', summary: 'Northwind Team', description: 'Company-wide events', timeZone: NY, acl: [{ type: 'domain', role: 'reader' }, { type: 'user', value: 'bob', role: 'writer' }] },
    { key: 'oncall', owner: 'bob', summary: 'Engineering on-call', timeZone: NY, acl: [{ type: 'user', value: 'carol', role: 'reader' }] },
  ]
  const events: SeedEvent[] = [
    { calendar: 'team', summary: 'All-hands', description: 'Monthly company update.', start: at('05', '11:00'), end: at('05', '12:00'), recurrence: ['RRULE:FREQ=MONTHLY;BYDAY=1TH'], attendees: all('alice'), conference: true },
    { calendar: 'team', summary: 'Company offsite', location: 'Lake Placid Lodge', start: { date: '2026-03-19' }, end: { date: '2026-03-21' } },
    { calendar: 'oncall', summary: 'On-call: Bob', start: { date: '2026-03-02' }, end: { date: '2026-03-09' }, transparency: 'transparent' },
    { calendar: 'oncall', summary: 'On-call: Carol', start: { date: '2026-03-09' }, end: { date: '2026-03-16' }, transparency: 'transparent' },
    {
      calendar: 'alice', summary: 'Weekly leadership sync', description: 'Agenda in the leadership doc.', start: at('02', '10:00'), end: at('02', '10:45'), recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO'],
      attendees: [{ user: 'bob', responseStatus: 'accepted' }, { user: 'erin', responseStatus: 'accepted' }, { user: 'dan', responseStatus: 'tentative' }], conference: true,
    },
    { calendar: 'alice', summary: '1:1 Alice / Bob', start: at('04', '15:00'), end: at('04', '15:30'), recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=WE'], attendees: [{ user: 'bob', responseStatus: 'accepted' }] },
    { calendar: 'alice', summary: 'Board prep', description: 'Review the Q2 board deck (final).', start: at('06', '13:00'), end: at('06', '14:30'), attendees: [{ user: 'erin', responseStatus: 'needsAction' }] },
    { calendar: 'alice', summary: 'Dentist', start: at('03', '08:00'), end: at('03', '09:00'), visibility: 'private' },
    {
      calendar: 'bob', summary: 'Eng standup', start: at('02', '09:30'), end: at('02', '09:45'), recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR'],
      attendees: [{ user: 'carol', responseStatus: 'accepted' }], conference: true,
    },
    { calendar: 'bob', summary: 'Architecture review', location: 'Room 4B', start: at('03', '14:00'), end: at('03', '15:00'), attendees: [{ user: 'carol', responseStatus: 'declined' }, { user: 'alice', responseStatus: 'needsAction', optional: true }], conference: true },
    { calendar: 'bob', summary: 'Focus time', start: at('05', '13:00'), end: at('05', '16:00'), transparency: 'opaque', colorId: '8' },
    { calendar: 'carol', summary: 'Design critique', start: at('05', '16:00', 'Europe/Stockholm'), end: at('05', '17:00', 'Europe/Stockholm'), attendees: [{ user: 'dan', responseStatus: 'accepted' }, { user: 'bob', responseStatus: 'needsAction' }] },
    { calendar: 'carol', summary: 'Gym', start: at('04', '07:00', 'Europe/Stockholm'), end: at('04', '08:00', 'Europe/Stockholm'), recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=8'] },
    {
      calendar: 'dan', summary: `Customer call: ${customer.company}`, start: at('04', '11:00', 'America/Los_Angeles'), end: at('04', '11:30', 'America/Los_Angeles'),
      attendees: [{ user: customer.email }, { user: 'alice', responseStatus: 'accepted' }], conference: true,
    },
    { calendar: 'dan', summary: 'Pipeline review', start: at('06', '09:00', 'America/Los_Angeles'), end: at('06', '09:30', 'America/Los_Angeles'), attendees: [{ user: 'alice', responseStatus: 'needsAction' }, { user: 'erin', responseStatus: 'accepted' }] },
    { calendar: 'erin', summary: 'Budget review', start: at('04', '13:00', 'America/Chicago'), end: at('04', '14:00', 'America/Chicago'), attendees: [{ user: 'alice', responseStatus: 'accepted' }, { user: 'dan', responseStatus: 'declined' }] },
    { calendar: 'erin', summary: 'Month-end close', start: { date: '2026-03-31' }, end: { date: '2026-04-01' }, recurrence: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-1'] },
  ]
  return { calendars, events }
}
