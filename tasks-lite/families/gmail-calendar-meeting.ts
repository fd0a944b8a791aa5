import { DateTime } from 'luxon'
import { baseSeed, company, rng, GENERATED_BY, type Family } from './common.ts'
import { persona, phrasing, volumeFor } from '../world/phrasing.ts'

const ZONES = [
  'Europe/Berlin',
  'America/Los_Angeles',
  'Asia/Tokyo',
  'Europe/London',
  'America/Chicago',
  'Australia/Sydney',
]

/** Gmail + Calendar: turn an emailed meeting request into an event in the sender's time zone with the right guests. */
export const gmailCalendarMeeting: Family = {
  id: 'gmail-calendar-meeting',
  services: ['gmail', 'calendar'],
  multiApp: true,
  antiGaming:
    'Exactly one new event (events at both the superseded and the final time, or every candidate plus the right one, fail and the extras are collateral) on your calendar, at the right instant, in the requester\'s zone, with the right length and exactly the right guests (the colleague on leave makes "invite everyone" fail, and so does anyone else beside the customer and the asked colleague).',
  generate(seed) {
    const r = rng(seed * 217645199 + 43)
    const c = company(r, 4)
    const cust = c.customers[0]!
    const zone = r.pick(ZONES.filter((z) => z !== c.users[0]!.timeZone))
    const [colleague, onLeave] = r.sample(c.colleagues, 2)
    const day = DateTime.fromISO(c.now, { zone })
      .plus({ days: r.int(3, 12) })
      .set({ hour: r.int(9, 16), minute: r.pick([0, 30]), second: 0, millisecond: 0 })
    const old = day.minus({ days: r.int(1, 2) }).set({ hour: day.hour === 9 ? 11 : day.hour - 1 })
    const minutes = r.pick([30, 45, 60])
    const fmt = (d: DateTime) => d.toFormat("cccc d LLLL 'at' HH:mm")
    const messages = [
      {
        from: `"${cust.contact.name}" <${cust.contact.email}>`,
        to: [c.actor.id],
        subject: 'Quick sync on the rollout',
        text: `Hi ${c.actor.first},\n\nCould we meet on ${fmt(old)} (my time, ${zone})?\n\n${cust.contact.first}`,
        at: '-2d',
        thread: 'm',
      },
      {
        from: `"${cust.contact.name}" <${cust.contact.email}>`,
        to: [c.actor.id],
        subject: 'Re: Quick sync on the rollout',
        text: `Sorry, that slot no longer works. Let's do ${fmt(day)} instead, ${minutes} minutes, my time zone (${zone}). Please bring ${colleague!.name} from your side.\n\n${cust.contact.first}`,
        at: '-1d',
        thread: 'm',
      },
      {
        from: colleague!.id,
        to: [c.actor.id],
        subject: 'Customer calls',
        text: `Happy to join any customer calls this month, just add me.\n\n${colleague!.first}`,
        at: '-4d',
      },
      {
        from: onLeave!.id,
        to: [c.actor.id],
        subject: 'Out next two weeks',
        text: `Heads up: I'm on leave for the next two weeks, please don't book me into anything.`,
        at: '-3d',
      },
    ]
    // Look first: read the whole thread with the customer (the first proposal was superseded), find the colleague's
    // address in their mail, then book the final slot in the customer's zone.
    const look = [
      {
        tool: 'http_request',
        args: { method: 'GET', path: '/gmail/v1/users/me/messages', query: { q: `"${cust.contact.name}"` } },
        save: { tid: 'messages.0.threadId' },
      },
      {
        tool: 'http_request',
        args: { method: 'GET', path: '/gmail/v1/users/me/threads/{{tid}}', query: { format: 'full' } },
        save: { customer: 'messages.0.payload.headers[name=from].value|email' },
      },
      {
        tool: 'http_request',
        args: {
          method: 'GET',
          path: '/gmail/v1/users/me/messages',
          query: { q: `from:${colleague!.first.toLowerCase()}` },
        },
        save: { cmid: 'messages.0.id' },
      },
      {
        tool: 'http_request',
        args: { method: 'GET', path: '/gmail/v1/users/me/messages/{{cmid}}', query: { format: 'metadata' } },
        save: { colleague: 'payload.headers[name=from].value|email' },
      },
    ]
    const ev = (start: DateTime, attendees: string[], tz = zone) => ({
      tool: 'http_request',
      args: {
        method: 'POST',
        path: '/calendar/v3/calendars/primary/events',
        body: {
          summary: `Rollout sync with ${cust.company}`,
          start: { dateTime: start.setZone(tz).toISO({ suppressMilliseconds: true }), timeZone: tz },
          end: { dateTime: start.plus({ minutes }).setZone(tz).toISO({ suppressMilliseconds: true }), timeZone: tz },
          attendees: attendees.map((email) => ({ email })),
        },
      },
    })
    const guests = ['{{customer}}', '{{colleague}}']
    const emails = [cust.contact.email, colleague!.email]
    return {
      generatedBy: GENERATED_BY,
      id: `gmail-calendar-meeting-${seed}`,
      family: 'gmail-calendar-meeting',
      services: ['gmail', 'calendar'],
      requires: ['calendar.events.insert'],
      instruction: persona(
        rng(seed * 7919 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 7919 + 101), [
          () =>
            `${cust.contact.name} emailed you to set up a meeting. Put it on your primary calendar at the time they settled on, in their time zone, and invite the people who should attend.`,
          () =>
            `Please book the meeting ${cust.contact.name} has been emailing you about: add it to your primary calendar at the time they finally settled on (their time zone) and invite whoever should be there.`,
          () =>
            `Add the meeting that was agreed over email with ${cust.contact.name} to my primary calendar. Use the time they settled on, read in their time zone, and invite the right attendees.`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `gmail-calendar-meeting-${seed}`), gmail: { messages } },
      oracle: {
        id: 'meeting-event',
        params: {
          actor: c.actor.id,
          calendarId: c.actor.email,
          startUtc: day.toUTC().toISO()!,
          durationMin: minutes,
          timeZone: zone,
          attendees: emails,
          notAttendees: [onLeave!.email],
        },
      },
      reference: [...look, ev(day, guests)],
      nearMisses: [
        { name: 'superseded first proposal', program: [...look, ev(old, guests)] },
        {
          name: 'wall-clock time in your own zone',
          program: [
            ...look,
            ev(
              DateTime.fromObject(
                { year: day.year, month: day.month, day: day.day, hour: day.hour, minute: day.minute },
                { zone: c.users[0]!.timeZone },
              ),
              guests,
              c.users[0]!.timeZone,
            ),
          ],
        },
        { name: 'invites the colleague on leave too', program: [...look, ev(day, [...guests, onLeave!.email])] },
        {
          // Nobody but the asked guests: the rest of the team invited too fails (docs/decisions/0481).
          name: 'invites the rest of the team too',
          program: [
            ...look,
            ev(day, [...guests, ...c.colleagues.filter((p) => p !== colleague && p !== onLeave).map((p) => p.email)]),
          ],
        },
      ],
      difficulty: 'hard',
      safetyCritical: false,
      tags: ['gmail', 'calendar', 'time-zones', 'near-duplicate'],
    }
  },
}
