import { DateTime } from 'luxon'
import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { persona, phrasing, volumeFor } from '../../world/phrasing.ts'
import { httpStep } from '../../../gym/program.ts'

const TOPICS = ['Roadmap', 'Pricing', 'Accessibility', 'Incident review', 'Data retention', 'Onboarding flow']
const OTHERS = ['Vendor demo', 'Coffee chat', 'Interview loop', 'Sales kickoff rehearsal', 'Budget Q&A']

/** A base32hex event id (what Calendar accepts for client-chosen ids). */
const eid = (r: { int(lo: number, hi: number): number }, tag: string) => `${tag}${r.int(100000, 999999)}`

/**
 * Calendar: answer invitations. Accept a colleague's workshop, decline the invitation that clashes with it (with a
 * note in some phrasings), and leave the workshop's dry run and an unrelated invitation unanswered.
 */
export const calendarRsvp: Family = {
  id: 'calendar-rsvp',
  services: ['calendar'],
  multiApp: false,
  antiGaming:
    "Judged on the organisers' copies: accepted on the workshop, declined on the clashing invitation (with a note when asked, which must give the reason: the clash, in any words, or the workshop; Sorry alone is not one), the dry run and the unrelated invitation keep their answer; only the two answered events may change, and only in their guests' answers (moving, renaming or cancelling fails); deleting events or answering others is collateral.",
  scenario:
    "Four pending invitations: the workshop (the one to accept), another organiser's meeting overlapping it (decline), the same workshop's dry run two days earlier, and an unrelated meeting on another day. The reference finds the workshop by name, lists what overlaps its time, then patches the actor's own attendee entry on the two events.",
  generate(seed) {
    const r = rng(seed * 7331 + 97)
    const c = company(r, 4)
    const [host, other, third] = c.colleagues
    const topic = r.pick(TOPICS)
    const clash = r.pick(OTHERS)
    const day = DateTime.fromISO('2026-03-02T00:00:00Z')
      .plus({ days: r.int(2, 9) })
      .set({ hour: r.int(9, 14) })
    const summary = `${topic} workshop`
    const ev = (id: string, org: string, name: string, s: DateTime, minutes: number) => ({
      calendar: org,
      id,
      summary: name,
      start: { dateTime: s.toISO({ suppressMilliseconds: true })! },
      end: { dateTime: s.plus({ minutes }).toISO({ suppressMilliseconds: true })! },
      attendees: [{ user: c.actor.id }, { user: third!.id, responseStatus: 'accepted' as const }],
    })
    const ids = { ws: eid(r, 'ks'), cl: eid(r, 'cl'), dry: eid(r, 'dr'), un: eid(r, 'un') }
    const events = r.shuffle([
      ev(ids.ws, host!.id, summary, day, 90),
      ev(ids.cl, other!.id, clash, day.plus({ minutes: r.pick([30, 45, 60]) }), 30),
      ev(ids.dry, host!.id, `${summary} (dry run)`, day.minus({ days: 2 }), 60),
      ev(ids.un, other!.id, r.pick(['Book club', 'Team lunch', 'Hackathon demo']), day.plus({ days: 3 }), 60),
    ])
    const note = seed % 3 === 0
    // Look first: the workshop and its dry run by name, then whatever overlaps the workshop's own time.
    const look = [
      httpStep(
        'GET',
        '/calendar/v3/calendars/primary/events',
        { query: { q: summary, singleEvents: true, orderBy: 'startTime' } },
        {
          ws: `items[summary=${summary}].id`,
          me: `items[summary=${summary}].attendees[self=true].email`,
          dry: `items[summary=${summary} (dry run)].id`,
          from: `items[summary=${summary}].start.dateTime`,
          to: `items[summary=${summary}].end.dateTime`,
        },
      ),
      httpStep(
        'GET',
        '/calendar/v3/calendars/primary/events',
        { query: { timeMin: '{{from}}', timeMax: '{{to}}', singleEvents: true } },
        {
          cl: `items[summary=${clash}].id`,
        },
      ),
    ]
    const answer = (id: string, responseStatus: string, comment?: string) =>
      httpStep('PATCH', `/calendar/v3/calendars/primary/events/${id}`, {
        body: { attendees: [{ email: '{{me}}', responseStatus, ...(comment ? { comment } : {}) }] },
      })
    const why = `Sorry, this clashes with the ${summary}.`
    return {
      generatedBy: GENERATED_BY,
      id: `calendar-rsvp-${seed}`,
      family: 'calendar-rsvp',
      services: ['calendar'],
      instruction: persona(
        rng(seed * 7331 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 7331 + 101), [
          () =>
            `Accept ${host!.first}'s ${summary} invitation and decline whatever clashes with it${note ? ', telling them why' : ''}. Leave my other invitations alone.`,
          () =>
            `I'm going to the ${summary} (${host!.first} sent the invite). Please RSVP yes to it and no to the meeting that overlaps it${note ? ' with a short note explaining the clash' : ''}.`,
          () =>
            `Sort out my calendar invites: yes to the ${summary}, and decline the one at the same time${note ? ' (add a note saying it clashes)' : ''}. Don't answer anything else.`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `calendar-rsvp-${seed}`), calendar: { events } },
      oracle: {
        id: 'calendar-rsvp',
        params: {
          actor: c.actor.id,
          me: c.actor.email,
          accept: ids.ws,
          decline: [ids.cl],
          keep: [ids.dry, ids.un],
          commentRequired: note,
        },
      },
      reference: [...look, answer('{{ws}}', 'accepted'), answer('{{cl}}', 'declined', note ? why : undefined)],
      nearMisses: [
        {
          name: 'accepts the dry run instead',
          program: [...look, answer('{{dry}}', 'accepted'), answer('{{cl}}', 'declined', why)],
        },
        { name: 'accepts without declining the clash', program: [...look, answer('{{ws}}', 'accepted')] },
        {
          name: 'declines the dry run too',
          program: [
            ...look,
            answer('{{ws}}', 'accepted'),
            answer('{{cl}}', 'declined', why),
            answer('{{dry}}', 'declined', why),
          ],
        },
        {
          name: 'tentative instead of accepted',
          program: [...look, answer('{{ws}}', 'tentative'), answer('{{cl}}', 'declined', why)],
        },
        // A note that names no reason is not "telling them why" (docs/decisions/0475).
        ...(note
          ? [
              {
                name: 'the decline note gives no reason',
                program: [...look, answer('{{ws}}', 'accepted'), answer('{{cl}}', 'declined', 'Sorry!')],
              },
            ]
          : []),
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['calendar', 'rsvp', 'invitations', 'near-duplicate'],
    }
  },
}
