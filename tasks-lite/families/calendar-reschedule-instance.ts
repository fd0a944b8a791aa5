import { DateTime, FixedOffsetZone } from 'luxon'
import type { ProgramStep } from '../../gym/task.ts'
import { baseSeed, company, rng, GENERATED_BY, type Family, type Rng } from './common.ts'
import { persona, phrasing, volumeFor } from '../world/phrasing.ts'

/** Zones of the colleague who asks (each has two DST transitions a year), with the city they name. */
const ZONES: Record<string, string> = {
  'America/New_York': 'New York',
  'Europe/Berlin': 'Berlin',
  'Australia/Sydney': 'Sydney',
  'Europe/London': 'London',
  'America/Los_Angeles': 'Los Angeles',
}
/**
 * Zones the actor (organizer of the series) may live in;
 * one whose offset stays put around the colleague's change is used.
 */
const ACTOR_ZONES = [
  'Asia/Tokyo',
  'Asia/Kolkata',
  'Asia/Singapore',
  'Europe/London',
  'Europe/Berlin',
  'America/New_York',
  'America/Los_Angeles',
  'Australia/Sydney',
  'America/Sao_Paulo',
  'Africa/Nairobi',
]
const BYDAY = ['MO', 'TU', 'WE', 'TH', 'FR']
const YEAR = 2026

type Transition = { day: DateTime; before: number; after: number }

/**
 * Local days of `year` on which `zone`'s UTC offset changes (noon offset differs from the previous day's). Memoised
 * per (zone, year): a pure function of both (365 luxon steps, the bulk of generating this family), and the result is
 * frozen (DateTime values are immutable), so no caller can change what the next one reads.
 */
export function dstTransitions(zone: string, year: number): readonly Transition[] {
  const key = `${zone}|${year}`
  let out = transitionsMemo.get(key)
  if (!out) transitionsMemo.set(key, (out = Object.freeze(scanTransitions(zone, year))))
  return out
}
const transitionsMemo = new Map<string, readonly Transition[]>()

function scanTransitions(zone: string, year: number): Transition[] {
  const out: Transition[] = []
  let prev: number | undefined
  const first = DateTime.fromObject({ year, month: 1, day: 1, hour: 12 }, { zone })
  for (let d = first; d.year === year; d = d.plus({ days: 1 })) {
    if (prev !== undefined && d.offset !== prev) out.push({ day: d.startOf('day'), before: prev, after: d.offset })
    prev = d.offset
  }
  return out
}

/**
 * True when `zone`'s offset is the same at every day step from `from` to `to` (days counted in `from`'s own zone).
 * Memoised by all its inputs: the zone, `from`'s instant and zone, `to`'s instant.
 */
const constantOffset = (zone: string, from: DateTime, to: DateTime) => {
  const key = `${zone}|${from.toMillis()}|${from.zoneName}|${to.toMillis()}`
  let same = constantMemo.get(key)
  if (same === undefined) constantMemo.set(key, (same = scanConstant(zone, from, to)))
  return same
}
const constantMemo = new Map<string, boolean>()

function scanConstant(zone: string, from: DateTime, to: DateTime): boolean {
  const o = from.setZone(zone).offset
  for (let d = from; d <= to; d = d.plus({ days: 1 })) if (d.setZone(zone).offset !== o) return false
  return true
}

/** A calendar event id the way clients may choose them (`[a-v0-9]`), from the rng. */
const eventId = (r: Rng) => Array.from({ length: 26 }, () => 'abcdefghijklmnopqrstuv0123456789'[r.int(0, 31)]).join('')

const iso = (d: DateTime) => d.toISO({ suppressMilliseconds: true, includeOffset: true })!
const hm = (d: DateTime) => d.toFormat('HH:mm')

/**
 * Calendar only: the actor organizes two weekly 1:1s on the same weekday (a near-duplicate pair). The colleague
 * whose zone just changed its UTC offset asks, in the series' shared agenda, to move the first instance after the
 * change to another time "my time". Only that instance may move
 * (an exception of the series), to the instant the post-change offset gives.
 */
export const calendarRescheduleInstance: Family = {
  id: 'calendar-reschedule-instance',
  services: ['calendar'],
  multiApp: false,
  scenario:
    'The actor organizes two weekly 1:1s on the same weekday, back to back, in their own zone (one whose offset does not change then): one with the colleague, one near-duplicate with someone else. The colleague lives in America/New_York, Europe/Berlin, Australia/Sydney, Europe/London or America/Los_Angeles (rotating with the seed); the world starts a few days before a spring or autumn DST change there. In the series\' shared agenda (its description) the colleague asks to move the first 1:1 after the change to another time "my time"; the instruction only names the colleague. The reference finds the series (events.list q=<email>), the instance (events.instances over that day) and patches the instance id with start/end dateTime + timeZone.',
  antiGaming:
    "The moved instance must be an exception of the right series (recurringEventId + originalStartTime) at the exact start and end instants of the post-DST offset, keeping the series' title, description and guests, and the guest's copy must follow; the series row, every other instance and the near-duplicate 1:1 must be unchanged in the state dump, so moving the whole series, using the pre-change offset or the wrong 1:1 fails; cancelling the instance (delete-and-recreate) is an unrequested delete (-1) and any other calendar change is collateral.",
  generate(seed) {
    const r = rng(seed * 2654435761 + 97)
    const c = company(r, 3)
    const [colleague, decoy] = c.colleagues
    // Zones rotate with the seed so every corpus slice covers each of them; the transition (spring or autumn) is drawn.
    const zone = Object.keys(ZONES)[(seed - 1) % Object.keys(ZONES).length]!
    const tr = r.pick(dstTransitions(zone, YEAR))
    const weekday = r.int(1, 5)
    // The first meeting day after the change (transitions fall on Sundays, so this is the week right after).
    const target = tr.day.plus({ days: (weekday - tr.day.weekday + 7) % 7 || 7 })
    const minutes = r.pick([30, 45, 60])
    // An organizer zone that does not change around then, and a slot that is a working hour for both on that day.
    let actorZone = ''
    let start: DateTime | undefined
    for (const a of r.shuffle(ACTOR_ZONES)) {
      if (a === zone || !constantOffset(a, tr.day.minus({ weeks: 10 }), tr.day.plus({ weeks: 3 }))) continue
      const offA = tr.day.setZone(a).offset
      if (offA === tr.after || offA === tr.before) continue
      const slots: DateTime[] = []
      for (let h = 7; h <= 18; h++) {
        for (const m of [0, 30]) {
          const s = DateTime.fromObject(
            { year: target.year, month: target.month, day: target.day, hour: h, minute: m },
            { zone: a },
          )
          const post = s.setZone(zone)
          const pre = s.minus({ weeks: 1 }).setZone(zone)
          if (
            post.toISODate() === target.toISODate() &&
            pre.weekday === post.weekday &&
            post.hour >= 8 &&
            post.hour <= 17 &&
            pre.hour >= 7 &&
            pre.hour <= 18
          )
            slots.push(s)
        }
      }
      if (slots.length) {
        actorZone = a
        start = r.pick(slots)
        break
      }
    }
    if (!start)
      throw new Error(
        `calendar-reschedule-instance ${seed}: no organizer zone fits ${zone} around ${tr.day.toISODate()}`,
      )
    const postZ = start.setZone(zone)
    const preZ = start.minus({ weeks: 1 }).setZone(zone)
    // The time the colleague asks for: a different working hour that day, in their zone.
    const hours = [9, 10, 11, 13, 14, 15, 16].filter((h) => Math.abs(h - postZ.hour) >= 2)
    const wall = {
      year: target.year,
      month: target.month,
      day: target.day,
      hour: r.pick(hours),
      minute: r.pick([0, 30]),
    }
    const newStart = DateTime.fromObject(wall, { zone })
    const newEnd = newStart.plus({ minutes })
    // Near-miss times: the same wall clock at the offset before the change, and in the organizer's own zone.
    const stale = DateTime.fromObject(wall, { zone: FixedOffsetZone.instance(tr.before) })
    const ownZone = DateTime.fromObject(wall, { zone: actorZone })

    const now = tr.day
      .minus({ days: r.int(2, 5) })
      .set({ hour: 9 })
      .toUTC()
    const asked = now.minus({ days: 1 }).setZone(zone)
    const firstWeeks = r.int(5, 9)
    const seriesStart = start.minus({ weeks: firstWeeks })
    const seriesId = eventId(r)
    const decoyId = eventId(r)
    const users = c.users.map((u) =>
      u.id === c.actor.id ? { ...u, timeZone: actorZone } : u.id === colleague!.id ? { ...u, timeZone: zone } : u,
    )
    const direction = tr.after > tr.before ? 'forward' : 'back'
    const day = (d: DateTime) => d.toFormat('cccc d LLLL')
    const note = `(${colleague!.first}, ${asked.toFormat('d LLL')}) Our clocks go ${direction} on ${day(tr.day)}, so from then on this 1:1 starts at ${hm(postZ)} my time instead of ${hm(preZ)}. Could we move the one on ${day(target)} to ${hm(newStart)} my time (${ZONES[zone]})? Just that one, please — the others can stay as they are.`
    const description = `Weekly 1:1 — ${c.actor.first} and ${colleague!.first}.\n\nShared agenda (add topics below):\n- (${c.actor.first}) Q2 priorities\n- ${note}`
    const decoyDescription = `Weekly 1:1 — ${c.actor.first} and ${decoy!.first}.\n\nShared agenda (add topics below):\n- (${decoy!.first}) Hiring plan for the next quarter\n- (${decoy!.first}, ${asked.toFormat('d LLL')}) I might be travelling later this month; I'll let you know if we need to skip one.`
    const series = (id: string, summary: string, desc: string, s: DateTime, who: string) => ({
      calendar: c.actor.id,
      id,
      summary,
      description: desc,
      start: { dateTime: s.toFormat("yyyy-MM-dd'T'HH:mm:ss"), timeZone: actorZone },
      end: { dateTime: s.plus({ minutes }).toFormat("yyyy-MM-dd'T'HH:mm:ss"), timeZone: actorZone },
      recurrence: [`RRULE:FREQ=WEEKLY;BYDAY=${BYDAY[weekday - 1]}`],
      attendees: [{ user: who, responseStatus: 'accepted' as const }],
    })
    const events = [
      series(
        decoyId,
        `${c.actor.first} / ${decoy!.first} 1:1`,
        decoyDescription,
        seriesStart.plus({ minutes }),
        decoy!.id,
      ),
      series(seriesId, `${c.actor.first} / ${colleague!.first} 1:1`, description, seriesStart, colleague!.id),
    ]
    if (r.next() < 0.5) events.reverse()

    const cal = '/calendar/v3/calendars/primary/events'
    const dayStart = target.setZone(zone).startOf('day')
    const findInstance = (sid: string): ProgramStep[] => [
      {
        tool: 'http_request',
        args: {
          method: 'GET',
          path: `${cal}/${sid}/instances`,
          query: { timeMin: iso(dayStart), timeMax: iso(dayStart.plus({ days: 1 })) },
        },
        save: { iid: 'items.0.id' },
      },
    ]
    const patch = (id: string, s: DateTime, e: DateTime, tz: string): ProgramStep => ({
      tool: 'http_request',
      args: {
        method: 'PATCH',
        path: `${cal}/${id}`,
        query: { sendUpdates: 'all' },
        body: { start: { dateTime: iso(s), timeZone: tz }, end: { dateTime: iso(e), timeZone: tz } },
      },
    })
    // Look first: find the 1:1 by the colleague's name and read its agenda (the request is there).
    const findSeries: ProgramStep = {
      tool: 'http_request',
      args: { method: 'GET', path: cal, query: { q: colleague!.first } },
      save: { sid: 'items.0.id' },
    }
    const reference = [findSeries, ...findInstance('{{sid}}'), patch('{{iid}}', newStart, newEnd, zone)]
    return {
      generatedBy: GENERATED_BY,
      id: `calendar-reschedule-instance-${seed}`,
      family: 'calendar-reschedule-instance',
      services: ['calendar'],
      requires: ['calendar.events.list', 'calendar.events.instances', 'calendar.events.patch'],
      instruction: persona(
        rng(seed * 7919 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 7919 + 101), [
          () =>
            `${colleague!.name} left a request about your weekly 1:1 in the meeting's agenda on your calendar. Handle it, and change nothing else.`,
          () =>
            `There's a note from ${colleague!.name} in the agenda of your recurring 1:1 with them on Google Calendar. Please take care of what it asks, without touching anything else on the calendar.`,
          () =>
            `Check the agenda (description) of your weekly 1:1 with ${colleague!.name}: they asked for something there. Do it; everything else stays as it is.`,
          () =>
            `hey, can you deal with ${colleague!.name}'s request? it's written in the agenda of our weekly 1:1 on my calendar. don't change anything else pls`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: {
        ...baseSeed(c, `calendar-reschedule-instance-${seed}`),
        now: now.toISO({ suppressMilliseconds: true })!,
        users,
        calendar: { events },
      },
      oracle: {
        id: 'reschedule-instance',
        params: {
          actor: c.actor.id,
          calendarId: c.actor.email,
          seriesId,
          originalStartUtc: start.toUTC().toISO()!,
          startUtc: newStart.toUTC().toISO()!,
          endUtc: newEnd.toUTC().toISO()!,
          attendee: colleague!.email,
          otherSeriesIds: [decoyId],
        },
      },
      reference,
      nearMisses: [
        { name: 'moves the whole series', program: [findSeries, patch('{{sid}}', newStart, newEnd, zone)] },
        {
          name: 'offset from before the DST change',
          program: [findSeries, ...findInstance('{{sid}}'), patch('{{iid}}', stale, stale.plus({ minutes }), zone)],
        },
        {
          name: "moves the near-duplicate 1:1's instance",
          program: [...findInstance(decoyId), patch('{{iid}}', newStart, newEnd, zone)],
        },
        {
          name: 'wall-clock time in your own zone',
          program: [
            findSeries,
            ...findInstance('{{sid}}'),
            patch('{{iid}}', ownZone, ownZone.plus({ minutes }), actorZone),
          ],
        },
        {
          name: 'deletes the instance and books a new event',
          program: [
            findSeries,
            ...findInstance('{{sid}}'),
            { tool: 'http_request', args: { method: 'DELETE', path: `${cal}/{{iid}}` } },
            {
              tool: 'http_request',
              args: {
                method: 'POST',
                path: cal,
                body: {
                  summary: `${c.actor.first} / ${colleague!.first} 1:1`,
                  description,
                  start: { dateTime: iso(newStart), timeZone: zone },
                  end: { dateTime: iso(newEnd), timeZone: zone },
                  attendees: [{ email: colleague!.email }],
                },
              },
            },
          ],
        },
      ],
      difficulty: 'hard',
      safetyCritical: false,
      tags: ['calendar', 'recurrence', 'time-zones', 'dst', 'near-duplicate'],
    }
  },
}
