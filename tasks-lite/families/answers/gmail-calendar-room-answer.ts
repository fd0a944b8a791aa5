import { DateTime } from 'luxon'
import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { persona, phrasing, volumeFor } from '../../world/phrasing.ts'
import { httpStep } from '../../../gym/program.ts'
import { doneStep, gmailRead, gmailSearch } from './kit.ts'

const ROOMS = ['Cedar', 'Birch', 'Aspen', 'Maple', 'Juniper', 'Alder', 'Rowan', 'Hazel', 'Linden', 'Willow']
const KINDS = ['Interview', 'Contract review', 'Quarterly review', 'Design critique', 'Vendor pitch']

/**
 * Gmail + Calendar answer task: which room a meeting is in. The calendar entry names a room; in half the seeds the
 * office manager's mail moves that meeting to another room (the answer), in the other half the mail moves a different
 * meeting on the same day (the calendar's room stands). Last week's meeting with the same person used a third room.
 */
export const gmailCalendarRoomAnswer: Family = {
  id: 'gmail-calendar-room-answer',
  services: ['gmail', 'calendar'],
  multiApp: true,
  antiGaming:
    "Judged by the final-answer oracle: the answer must name the room that stands (the mail's new room only when the mail moves this very meeting) and no other room from the world (the calendar's old room when it moved, the other meeting's rooms, last week's room); any change to mail or calendar (editing the event's location included) is collateral.",
  scenario:
    "The actor's calendar has the meeting with a named person (room in `location`), another meeting the same day and last week's meeting with the same person elsewhere. The office manager mails about a room change: for this meeting in half the seeds, for the other meeting otherwise. The reference reads the event, searches mail for the room change and answers.",
  generate(seed) {
    const r = rng(seed * 5167 + 53)
    const c = company(r, 3)
    const guest = c.customers[0]!.contact
    const office = c.colleagues[0]!
    const kind = r.pick(KINDS)
    const [room, newRoom, otherRoom, otherNew, lastRoom] = r.sample(ROOMS, 5)
    const floor = (x: string) => `${x} (floor ${(ROOMS.indexOf(x) % 4) + 1})`
    const at = DateTime.fromISO('2026-03-02T09:00:00Z')
      .plus({ days: r.int(2, 8) })
      .set({ hour: r.int(10, 15), minute: 0 })
    const otherAt = at.set({ hour: at.hour >= 13 ? 10 : 16 })
    const moved = seed % 2 === 1
    const summary = `${kind} with ${guest.name}`
    const ev = (id: string, name: string, s: DateTime, where: string) => ({
      calendar: c.actor.id,
      id,
      summary: name,
      location: where,
      start: { dateTime: s.toUTC().toISO({ suppressMilliseconds: true })! },
      end: { dateTime: s.plus({ hours: 1 }).toUTC().toISO({ suppressMilliseconds: true })! },
      attendees: [{ user: c.colleagues[1]!.id, responseStatus: 'accepted' as const }],
    })
    const otherSummary = `Budget sync`
    const events = [
      ev(`mtg${seed}n${r.int(100, 999)}`, summary, at, floor(room!)),
      ev(`mtg${seed}o${r.int(100, 999)}`, otherSummary, otherAt, floor(otherRoom!)),
      ev(`mtg${seed}p${r.int(100, 999)}`, summary, at.minus({ days: 7 }), floor(lastRoom!)),
    ]
    const when = (t: DateTime) => t.setLocale('en-GB').toFormat("cccc d LLLL 'at' HH:mm 'UTC'")
    const movedWhat = moved ? `your "${summary}" on ${when(at)}` : `your "${otherSummary}" on ${when(otherAt)}`
    const movedFrom = moved ? room! : otherRoom!
    const movedTo = moved ? newRoom! : otherNew!
    const messages = [
      {
        from: office.id,
        to: [c.actor.id],
        subject: 'Room change',
        text: `Hi ${c.actor.first},\n\n${movedFrom} is closed for maintenance that day, so ${movedWhat} moves to ${floor(movedTo)}. The calendar entry may still show the old room.\n\nThanks,\n${office.first}`,
        at: '-1d',
      },
      {
        from: office.id,
        to: [c.actor.id],
        subject: 'Meeting rooms next month',
        text: `Reminder: ${floor(lastRoom!)} gets new screens next month.`,
        at: '-3d',
      },
    ]
    const standing = moved ? newRoom! : room!
    const wrongRooms = [room!, newRoom!, otherRoom!, otherNew!, lastRoom!].filter((x) => x !== standing)
    const look = [
      httpStep(
        'GET',
        '/calendar/v3/calendars/primary/events',
        { query: { q: guest.name, singleEvents: true, orderBy: 'startTime' } },
        { where: 'items.-1.location' },
      ),
      gmailSearch('subject:"room change"', { mail: 'messages.0.id' }),
      gmailRead('{{mail}}'),
    ]
    return {
      generatedBy: GENERATED_BY,
      id: `gmail-calendar-room-answer-${seed}`,
      family: 'gmail-calendar-room-answer',
      services: ['gmail', 'calendar'],
      instruction: persona(
        rng(seed * 5167 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 5167 + 101), [
          () =>
            `Which room is my upcoming ${kind.toLowerCase()} with ${guest.name} in? Check my calendar and my mail in case it moved.`,
          () => `Where do I need to go for the ${kind.toLowerCase()} with ${guest.name}? Tell me the meeting room.`,
          () => `${guest.name} is coming in for our ${kind.toLowerCase()}. What room is it in now?`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `gmail-calendar-room-answer-${seed}`), gmail: { messages }, calendar: { events } },
      oracle: {
        id: 'final-answer',
        params: {
          actor: c.actor.id,
          expected: { kind: 'name', value: standing },
          wrong: wrongRooms.map((value) => ({ kind: 'name' as const, value })),
        },
      },
      reference: [...look, doneStep(`It's in ${floor(standing)}.`)],
      nearMisses: [
        {
          name: moved ? "the calendar's old room" : "the other meeting's new room",
          program: [...look, doneStep(`${floor(moved ? room! : otherNew!)}`)],
        },
        { name: "last week's room", program: [...look, doneStep(`Room ${lastRoom}.`)] },
        { name: 'the budget sync room', program: [...look, doneStep(`${floor(otherRoom!)}`)] },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['gmail', 'calendar', 'answer', 'near-duplicate'],
    }
  },
}
