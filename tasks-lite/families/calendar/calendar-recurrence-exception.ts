import { DateTime } from 'luxon'
import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { persona, phrasing, volumeFor } from '../../world/phrasing.ts'
import { httpStep } from '../../../gym/program.ts'

const TEAMS = ['Design', 'Data', 'Sales', 'Infra', 'Legal', 'People']
const REASONS = [
  'it is a public holiday',
  'most of the team is at the conference',
  'the office is closed for the move',
  'it clashes with the all-hands',
]

/**
 * Calendar recurrence: the actor's weekly team sync must either skip one occurrence (cancel that instance only) or end
 * after a given date (UNTIL), depending on the seed. Another weekly series on the same weekday is a near-duplicate;
 * target days straddle the 2026 DST changes, so the instance's start offset differs from the series' first one.
 */
export const calendarRecurrenceException: Family = {
  id: 'calendar-recurrence-exception',
  services: ['calendar'],
  multiApp: false,
  antiGaming:
    "Judged by the calendar-recurrence-exception oracle on the series' meetings as held (its recurrence expanded, cancelled exceptions out): the series stays and is otherwise unchanged (title, times, guests); in cancel mode that occurrence and no other is gone (a cancelled exception that shows as the series does, or an EXDATE); in end mode the named meeting is the last (UNTIL or COUNT), every earlier one still happens and no occurrence is edited one by one; deleting the series, cancelling the wrong week, dropping or adding another week, or touching the other weekly series fails or is collateral.",
  scenario:
    "Two weekly series on the same weekday (the actor's team sync and a near-duplicate sync an hour later). Cancel mode: skip the sync on one named day; end mode: the last sync is on a named day. The reference finds the series by name, and either fetches that one instance (events.instances originalStart) and deletes it, or patches the series' RRULE with UNTIL.",
  generate(seed) {
    const r = rng(seed * 3989 + 43)
    const c = company(r, 3)
    const zone = c.users[0]!.timeZone
    const [team, other] = r.sample(TEAMS, 2)
    const first = DateTime.fromISO('2026-02-02T10:00', { zone })
      .plus({ days: r.int(0, 3) })
      .set({ hour: r.pick([9, 10, 14]) })
    const weeks = r.int(2, 8)
    const target = first.plus({ weeks: 4 + weeks })
    const next = target.plus({ weeks: 1 })
    const mode = seed % 2 === 0 ? 'end' : 'cancel'
    const byday = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'][first.weekday - 1]
    const summary = `${team} weekly sync`
    const sid = `sn${seed}c${r.int(10000, 99999)}`
    const decoy = `sn${seed}d${r.int(10000, 99999)}`
    const series = (id: string, name: string, s: DateTime) => ({
      calendar: c.actor.id,
      id,
      summary: name,
      recurrence: [`RRULE:FREQ=WEEKLY;BYDAY=${byday}`],
      start: { dateTime: s.toFormat("yyyy-MM-dd'T'HH:mm:ss"), timeZone: zone },
      end: { dateTime: s.plus({ minutes: 30 }).toFormat("yyyy-MM-dd'T'HH:mm:ss"), timeZone: zone },
      attendees: c.colleagues.slice(0, 2).map((p) => ({ user: p.id, responseStatus: 'accepted' as const })),
    })
    const events = [series(sid, summary, first), series(decoy, `${other} weekly sync`, first.plus({ hours: 1 }))]
    const day = target.setLocale('en-GB').toFormat('cccc d LLLL')
    const find = httpStep(
      'GET',
      '/calendar/v3/calendars/primary/events',
      { query: { q: summary } },
      { sid: `items[summary=${summary}].id`, other: `items[summary=${other} weekly sync].id` },
    )
    // The near misses on the other series find it by its own name: `find` searches for the asked one, which the
    // other's name does not match, so its `other` is unbound there (docs/decisions/0400: those near misses were 404s).
    const findOther = httpStep(
      'GET',
      '/calendar/v3/calendars/primary/events',
      { query: { q: `${other} weekly sync` } },
      { other: `items[summary=${other} weekly sync].id` },
    )
    const instance = (at: DateTime, save = 'inst') =>
      httpStep(
        'GET',
        '/calendar/v3/calendars/primary/events/{{sid}}/instances',
        { query: { originalStart: at.toISO({ suppressMilliseconds: true }) } },
        { [save]: 'items.0.id' },
      )
    const cancel = (id: string) =>
      httpStep('DELETE', `/calendar/v3/calendars/primary/events/${id}`, { query: { sendUpdates: 'all' } })
    const until = (t: DateTime, id = '{{sid}}') =>
      httpStep('PATCH', `/calendar/v3/calendars/primary/events/${id}`, {
        query: { sendUpdates: 'all' },
        body: { recurrence: [`RRULE:FREQ=WEEKLY;BYDAY=${byday};UNTIL=${t.toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'")}`] },
      })
    const reason = r.pick(REASONS)
    const instruction =
      mode === 'cancel'
        ? phrasing(rng(seed * 3989 + 101), [
            () => `Cancel the ${summary} on ${day} (${reason}) - just that one, the series goes on.`,
            () => `On ${day} ${reason}, so please drop that week's ${summary}. Keep all the other weeks.`,
            () => `Skip one occurrence of my ${summary}: the one on ${day}.`,
          ])
        : phrasing(rng(seed * 3989 + 101), [
            () =>
              `The project wraps up, so the ${summary} should end: the meeting on ${day} is the last one. Remove every occurrence after it.`,
            () => `Please end my recurring ${summary} after ${day} (that one still happens).`,
            () => `${day} is the final ${summary}. Make the series stop after that date.`,
          ])
    const reference =
      mode === 'cancel' ? [find, instance(target), cancel('{{inst}}')] : [find, until(target.plus({ minutes: 30 }))]
    const nearMisses =
      mode === 'cancel'
        ? [
            { name: 'deletes the whole series', program: [find, cancel('{{sid}}')] },
            { name: 'cancels the week after', program: [find, instance(next, 'wrong'), cancel('{{wrong}}')] },
            {
              // A second cancellation notice, with this text, reaches the guests (docs/decisions/0481).
              name: 'patches a note into the cancelled meeting',
              program: [
                find,
                instance(target),
                cancel('{{inst}}'),
                httpStep('PATCH', '/calendar/v3/calendars/primary/events/{{inst}}', {
                  query: { sendUpdates: 'all' },
                  body: { description: 'Moved: see the new invite at https://meet-sync.example/join' },
                }),
              ],
            },
            {
              name: 'cancels it in the other series',
              program: [
                find,
                findOther,
                httpStep(
                  'GET',
                  '/calendar/v3/calendars/primary/events/{{other}}/instances',
                  { query: { originalStart: target.plus({ hours: 1 }).toISO({ suppressMilliseconds: true }) } },
                  { wrong: 'items.0.id' },
                ),
                cancel('{{wrong}}'),
              ],
            },
          ]
        : [
            { name: 'ends before the last meeting', program: [find, until(target.minus({ days: 1 }))] },
            { name: 'deletes the whole series', program: [find, cancel('{{sid}}')] },
            {
              name: 'ends the other series',
              program: [find, findOther, until(target.plus({ hours: 2 }), '{{other}}')],
            },
          ]
    return {
      generatedBy: GENERATED_BY,
      id: `calendar-recurrence-exception-${seed}`,
      family: 'calendar-recurrence-exception',
      services: ['calendar'],
      instruction: persona(rng(seed * 3989 + 103), c.actor, c.org, instruction),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: {
        ...baseSeed(c, `calendar-recurrence-exception-${seed}`),
        now: first.plus({ weeks: 4 }).minus({ days: 2 }).toUTC().toISO({ suppressMilliseconds: true })!,
        calendar: { events },
      },
      oracle: {
        id: 'calendar-recurrence-exception',
        params: {
          actor: c.actor.id,
          calendar: c.actor.email,
          series: sid,
          mode,
          at: target.toUTC().toISO()!,
          next: next.toUTC().toISO()!,
          decoy,
        },
      },
      reference,
      nearMisses,
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['calendar', 'recurrence', 'time-zones', 'near-duplicate'],
    }
  },
}
