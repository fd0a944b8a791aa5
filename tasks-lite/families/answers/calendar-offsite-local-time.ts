import { DateTime } from 'luxon'
import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { persona, phrasing, volumeFor } from '../../world/phrasing.ts'
import { httpStep } from '../../../gym/program.ts'
import { doneStep } from './kit.ts'

const PLACES = ['Lisbon', 'Porto', 'Valencia', 'Krakow', 'Tallinn', 'Ghent', 'Bergen', 'Lyon', 'Split', 'Cork']
/** Organisers' zones (each differs from at least one actor zone by a DST change in March or October/November). */
const ORGANISER_ZONES = [
  'America/New_York',
  'Europe/London',
  'Europe/Berlin',
  'America/Los_Angeles',
  'Asia/Tokyo',
  'Australia/Sydney',
  'America/Chicago',
  'Asia/Kolkata',
]
/** Offsite days: the weeks around the 2026 DST changes (US 8 Mar / 1 Nov, EU 29 Mar / 25 Oct, AU 5 Apr / 4 Oct). */
const DAYS = [
  '2026-03-10',
  '2026-03-12',
  '2026-03-24',
  '2026-03-31',
  '2026-04-02',
  '2026-04-07',
  '2026-10-06',
  '2026-10-21',
  '2026-10-27',
  '2026-10-29',
  '2026-11-03',
  '2026-11-05',
]

const fmt = (t: DateTime) => t.setLocale('en-GB').toFormat("cccc d LLLL 'at' HH:mm")

/**
 * Calendar answer task: when an offsite organised in another time zone starts in the actor's own zone. Days sit around
 * the 2026 DST changes so a fixed offset is wrong for some seeds; last year's offsite (same title), the travel day
 * and the prep call are near-duplicates, and reading the organiser's wall-clock time as the actor's is a wrong answer.
 */
export const calendarOffsiteLocalTime: Family = {
  id: 'calendar-offsite-local-time',
  services: ['calendar'],
  multiApp: false,
  antiGaming:
    "Judged by the final-answer oracle: the answer must state the start as a clock time in the actor's zone (with the date, if it gives one, on the right day; ISO date-times are read with their offset) and no near-duplicate: last year's offsite, the travel day, the prep call, or the organiser's own wall-clock time or UTC read as local; any change to the calendar is collateral.",
  scenario:
    "A colleague in another zone organises the offsite (the actor is invited); the world also has last year's offsite with the same title, a travel-day block and a prep call. Days fall in the weeks around the 2026 DST changes. The reference reads the actor's zone from Calendar settings, lists the matching events in start order in that zone and answers with the last (upcoming) one's start.",
  generate(seed) {
    const r = rng(seed * 4409 + 29)
    const c = company(r, 3)
    const actorZone = c.users[0]!.timeZone
    const day = DAYS[(seed - 1) % DAYS.length]!
    const place = r.pick(PLACES)
    const zones = ORGANISER_ZONES.filter((z) => {
      const at = DateTime.fromISO(`${day}T09:00`, { zone: z })
      return at.setZone(actorZone).toFormat('HH:mm') !== at.toFormat('HH:mm')
    })
    const orgZone = zones[(seed + r.int(0, zones.length - 1)) % zones.length]!
    const organiser = c.colleagues[0]!
    const users = c.users.map((u) => (u.id === organiser.id ? { ...u, timeZone: orgZone } : u))
    const start = DateTime.fromISO(`${day}T${r.pick(['09:00', '09:30', '10:00'])}`, { zone: orgZone })
    const now = start
      .minus({ days: r.int(9, 20) })
      .set({ hour: 8, minute: 0 })
      .toUTC()
    const lastYear = start
      .minus({ years: 1 })
      .plus({ days: r.int(-10, 10) })
      .set({ hour: 10, minute: 30 })
    const travel = start.minus({ days: 1 }).set({ hour: 14, minute: 0 })
    const prep = start.minus({ days: r.int(3, 6) }).set({ hour: 16, minute: 30 })
    const summary = `${place} offsite`
    const ev = (id: string, name: string, s: DateTime, hours: number, desc: string) => ({
      calendar: organiser.id,
      id,
      summary: name,
      description: desc,
      location: place,
      start: { dateTime: s.toFormat("yyyy-MM-dd'T'HH:mm:ss"), timeZone: orgZone },
      end: { dateTime: s.plus({ hours }).toFormat("yyyy-MM-dd'T'HH:mm:ss"), timeZone: orgZone },
      attendees: [{ user: c.actor.id, responseStatus: 'accepted' as const }, { user: c.colleagues[1]!.id }],
    })
    const events = [
      ev(`off${seed}a${r.int(100, 999)}`, summary, lastYear, 7, `Team offsite in ${place}. Agenda to follow.`),
      ev(`prep${seed}b${r.int(100, 999)}`, `Prep call: ${summary}`, prep, 1, 'Logistics and agenda for the offsite.'),
      ev(`trv${seed}c${r.int(100, 999)}`, `${summary} - travel day`, travel, 4, 'Flights and check-in; no meetings.'),
      ev(`off${seed}d${r.int(100, 999)}`, summary, start, 8, `Team offsite in ${place}. Full day; dinner after.`),
    ]
    const local = start.setZone(actorZone)
    const asIf = (t: DateTime, zone: string) =>
      DateTime.fromISO(t.setZone(zone).toFormat("yyyy-MM-dd'T'HH:mm"), { zone: actorZone })
    const wrongAt = [lastYear, travel, prep, asIf(start, orgZone), asIf(start, 'UTC')].filter(
      (t) => t.setZone(actorZone).toFormat('HH:mm') !== local.toFormat('HH:mm'),
    )
    const wrong = wrongAt.map((t) => ({ kind: 'instant' as const, iso: t.toUTC().toISO()!, zone: actorZone }))
    const look = [
      httpStep('GET', '/calendar/v3/calendars/primary', {}, { zone: 'timeZone' }),
      httpStep(
        'GET',
        '/calendar/v3/calendars/primary/events',
        { query: { q: summary, singleEvents: true, orderBy: 'startTime', timeZone: '{{zone}}' } },
        { start: 'items.-1.start.dateTime' },
      ),
    ]
    return {
      generatedBy: GENERATED_BY,
      id: `calendar-offsite-local-time-${seed}`,
      family: 'calendar-offsite-local-time',
      services: ['calendar'],
      instruction: persona(
        rng(seed * 4409 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 4409 + 101), [
          () => `What time does the ${summary} start for me, in my own time zone? ${organiser.first} set it up.`,
          () =>
            `${organiser.first} organised the ${summary}. When does it begin in my local time? Just tell me the day and time.`,
          () => `I need to book travel: when does the upcoming ${summary} start, in my time zone?`,
          () => `When is the start of the ${summary} (the upcoming one), expressed in my time zone?`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: {
        ...baseSeed(c, `calendar-offsite-local-time-${seed}`),
        now: now.toISO({ suppressMilliseconds: true })!,
        users,
        calendar: { events },
      },
      oracle: {
        id: 'final-answer',
        params: {
          actor: c.actor.id,
          expected: { kind: 'instant', iso: start.toUTC().toISO()!, zone: actorZone },
          wrong,
        },
      },
      reference: [...look, doneStep(`It starts ${fmt(local)} your time (${actorZone}).`)],
      nearMisses: [
        {
          name: "the organiser's wall-clock time",
          program: [...look, doneStep(`It starts ${fmt(asIf(start, orgZone))}.`)],
        },
        { name: "last year's offsite", program: [...look, doneStep(`It starts ${fmt(lastYear.setZone(actorZone))}.`)] },
        { name: 'the travel day', program: [...look, doneStep(`${fmt(travel.setZone(actorZone))}`)] },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['calendar', 'answer', 'time-zones', 'dst', 'near-duplicate'],
    }
  },
}
