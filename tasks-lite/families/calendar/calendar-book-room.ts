import { DateTime } from 'luxon'
import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { persona, phrasing, volumeFor } from '../../world/phrasing.ts'
import { httpStep } from '../../../gym/program.ts'
import type { ProgramStep } from '../../../gym/task.ts'

const BUILDINGS = ['Foundry', 'Mill Street', 'Canal Works', 'Northpoint', 'Larkspur House', 'Quayside']
const ROOMS = [
  'Orion',
  'Vega',
  'Lyra',
  'Atlas',
  'Juniper',
  'Maple',
  'Saturn',
  'Quartz',
  'Nova',
  'Topaz',
  'Fern',
  'Halley',
  'Iris',
  'Kepler',
  'Pollux',
  'Mistral',
]
const FEATURES = ['Video conferencing', 'Whiteboard', 'Projector', 'Speakerphone']
const TITLES = [
  'Quarterly planning',
  'Launch readiness review',
  'Hiring debrief',
  'Vendor selection',
  'Roadmap workshop',
  'Budget walkthrough',
  'Customer advisory prep',
  'Retro and next steps',
]
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-')
const CAL = '/calendar/v3/calendars/primary/events'
const DIR = '/admin/directory/v1/customer/my_customer/resources'

/**
 * Calendar + Directory: book a meeting room. Two buildings; in the asked-for one a single room seats everyone, has
 * the needed feature and is free; its neighbours are too small, lack the feature, or are already booked (they would
 * decline). The same kind of room also sits free in the other building. The actor is the office manager, with a
 * delegated admin role over Calendar resources, so the Directory API's room list is open to them.
 */
export const calendarBookRoom: Family = {
  id: 'calendar-book-room',
  services: ['calendar', 'identity'],
  multiApp: true,
  antiGaming:
    "Judged on the one new event on the actor's calendar: at the asked time and length, with every " +
    'guest and nobody else, and exactly one room, which must have accepted and be the free room in the asked ' +
    'building that seats everyone and has the feature. A busy room declines, so booking it fails; two rooms, ' +
    'every room, a second event, a missing guest or the right room in the wrong building fail; changing or ' +
    'cancelling other events is collateral.',
  scenario:
    'Five or six rooms over two buildings: the target, a too-small one, one without the feature, one ' +
    'booked at that time by a colleague (all in the asked building), and a fitting room in the other building. ' +
    'The reference reads the calendar zone, finds the building id, filters rooms by building, capacity and ' +
    "feature, checks the candidates' free/busy, then creates the event with the guests and the free room.",
  generate(seed) {
    const r = rng(seed * 48611 + 29)
    const c = company(r, 7)
    const tz = c.users[0]!.timeZone
    const guests = r.sample(c.colleagues.slice(0, 5), r.int(3, 4))
    const booker = c.colleagues[6]!
    const n = guests.length + 1
    const [here, there] = r.sample(BUILDINGS, 2) as [string, string]
    const feature = r.pick(FEATURES)
    const otherFeatures = FEATURES.filter((f) => f !== feature)
    const names = r.sample(ROOMS, 6)
    const title = r.pick(TITLES)
    const day = DateTime.fromISO(c.now, { zone: tz })
      .startOf('day')
      .plus({ days: r.int(2, 9) })
    const date = day.weekday >= 6 ? day.plus({ days: 8 - day.weekday }) : day
    const start = date.set({ hour: r.int(9, 15), minute: r.pick([0, 30]) })
    const minutes = r.pick([30, 45, 60, 90])
    const end = start.plus({ minutes })
    const floors = ['1', '2', '3']
    const room = (i: number, building: string, capacity: number, features: string[]) => ({
      id: `${slug(building)}-${slug(names[i]!)}`,
      name: names[i]!,
      building: slug(building),
      floor: r.pick(floors),
      capacity,
      features,
    })
    const extra = r.pick(otherFeatures)
    const target = room(0, here, n + r.int(0, 4), r.shuffle([feature, ...(r.next() < 0.5 ? [extra] : [])]))
    const small = room(1, here, n - r.int(1, 2), [feature])
    const plain = room(2, here, n + r.int(2, 6), [extra])
    const busy = room(3, here, n + r.int(0, 4), [feature])
    const away = room(4, there, n + r.int(0, 3), [feature])
    const rooms = r.shuffle([target, small, plain, busy, away])
    const iso = (t: DateTime) => t.toISO({ suppressMilliseconds: true, includeOffset: false })!
    const local = (t: DateTime) => ({ dateTime: iso(t), timeZone: tz })
    const clashStart = start.plus({ minutes: r.pick([-30, 0, 15]) })
    const events = [
      // The busy room is booked by a colleague across the slot; the target is booked earlier that day.
      {
        calendar: booker.id,
        summary: r.pick(['Sales huddle', 'Design critique', 'Interview loop', 'Partner call']),
        start: local(clashStart),
        end: local(clashStart.plus({ minutes: 60 })),
        rooms: [busy.id],
        attendees: [{ user: booker.id, responseStatus: 'accepted' as const }],
      },
      {
        calendar: booker.id,
        summary: 'Standing check-in',
        start: local(start.minus({ hours: 2 })),
        end: local(start.minus({ hours: 1 })),
        rooms: [target.id],
        attendees: [{ user: booker.id, responseStatus: 'accepted' as const }],
      },
      // The actor's own day around the slot.
      {
        calendar: c.actor.id,
        summary: `1:1 with ${guests[0]!.first}`,
        start: local(end.plus({ minutes: 30 })),
        end: local(end.plus({ minutes: 60 })),
        attendees: [{ user: guests[0]!.id, responseStatus: 'accepted' as const }],
      },
      {
        calendar: c.actor.id,
        summary: 'Facilities walk-through',
        start: local(start.minus({ days: 1, hours: 1 })),
        end: local(start.minus({ days: 1 })),
        rooms: [plain.id],
      },
    ]
    const dayText = start.setLocale('en').toFormat('cccc d LLLL')
    const from = start.toFormat('HH:mm')
    const to = end.toFormat('HH:mm')
    const guestList = guests.map((g) => `${g.name} (${g.email})`).join(', ')
    const featureText = feature.toLowerCase()
    const role = "You manage the office's rooms (your admin role covers Calendar resources)."

    const byName = (x: { name: string }) => `items[resourceName=${x.name}].resourceEmail`
    const look: ProgramStep[] = [
      httpStep('GET', '/calendar/v3/users/me/settings/timezone', {}, { tz: 'value' }),
      httpStep('GET', `${DIR}/buildings`, {}, { bid: `buildings[buildingName=${here}].buildingId` }),
      httpStep(
        'GET',
        `${DIR}/calendars`,
        { query: { maxResults: 500 } },
        {
          target: byName(target),
          small: byName(small),
          plain: byName(plain),
          busy: byName(busy),
          away: byName(away),
        },
      ),
    ]
    const narrow = httpStep('GET', `${DIR}/calendars`, {
      query: { query: `buildingId={{bid}} AND capacity>=${n} AND featureInstances.feature.name:"${feature}"` },
    })
    const dayStart = start.startOf('day')
    const check = httpStep('POST', '/calendar/v3/freeBusy', {
      body: {
        timeMin: `${dayStart.toISODate()}T00:00:00Z`,
        timeMax: `${dayStart.plus({ days: 1 }).toISODate()}T00:00:00Z`,
        items: [{ id: '{{target}}' }, { id: '{{busy}}' }],
      },
    })
    const book = (roomVars: string[], who = guests.map((g) => g.email), extraEvent = false): ProgramStep[] => {
      const body = (summary: string, rs: string[]) => ({
        summary,
        start: { dateTime: iso(start), timeZone: '{{tz}}' },
        end: { dateTime: iso(end), timeZone: '{{tz}}' },
        attendees: [...who.map((email) => ({ email })), ...rs.map((v) => ({ email: `{{${v}}}` }))],
      })
      const out = [httpStep('POST', CAL, { query: { sendUpdates: 'all' }, body: body(title, roomVars) })]
      if (extraEvent) out.push(httpStep('POST', CAL, { query: { sendUpdates: 'all' }, body: body(title, ['busy']) }))
      return out
    }
    return {
      generatedBy: GENERATED_BY,
      id: `calendar-book-room-${seed}`,
      family: 'calendar-book-room',
      services: ['calendar', 'identity'],
      instruction: persona(
        rng(seed * 48611 + 31),
        c.actor,
        c.org,
        phrasing(rng(seed * 48611 + 37), [
          () =>
            `Set up "${title}" on ${dayText}, ${from}–${to} my time, and invite ${guestList}. We're ${n} ` +
            `people, so book a room in ${here} that seats all of us and has ${featureText}. ${role}`,
          () =>
            `${role} I need a room in ${here} on ${dayText} from ${from} to ${to} (my time zone) for ${n} people, ` +
            `with ${featureText}. Put "${title}" on my calendar with the room and these guests: ${guestList}.`,
          () =>
            `Please book "${title}": ${dayText}, ${from} to ${to} in my time zone. Guests: ${guestList}. Add a ` +
            `free meeting room in ${here} with ${featureText} and enough seats for the ${n} of us. ${role}`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      maxSteps: 30,
      seed: {
        ...baseSeed(c, `calendar-book-room-${seed}`),
        calendar: {
          buildings: [
            { id: slug(here), name: here, floors },
            { id: slug(there), name: there, floors },
          ],
          features: FEATURES,
          rooms,
          events,
        },
        identity: { resourceAdmins: [c.actor.id] },
      },
      oracle: {
        id: 'calendar-book-room',
        params: {
          actor: c.actor.id,
          calendarId: c.actor.email,
          title,
          startUtc: start.toUTC().toISO()!,
          durationMin: minutes,
          guests: guests.map((g) => g.email),
          room: target.id,
          building: slug(here),
          capacity: n,
          feature,
          wrong: [small.id, plain.id, busy.id, away.id],
        },
      },
      reference: [...look, narrow, check, ...book(['target'])],
      nearMisses: [
        { name: 'too small a room', program: [...look, ...book(['small'])] },
        { name: 'the booked room (it declines)', program: [...look, check, ...book(['busy'])] },
        { name: 'a room without the feature', program: [...look, ...book(['plain'])] },
        { name: 'the right kind of room in the other building', program: [...look, ...book(['away'])] },
        { name: 'two rooms on the event', program: [...look, ...book(['target', 'busy'])] },
        { name: 'a second event for the booked room', program: [...look, ...book(['target'], undefined, true)] },
        { name: 'the room without the guests', program: [...look, ...book(['target'], [])] },
        { name: 'every room', program: [...look, ...book(['target', 'small', 'plain', 'busy', 'away'])] },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['calendar', 'rooms', 'directory', 'free-busy', 'near-duplicate'],
    }
  },
}
