import { DateTime } from 'luxon'
import { baseSeed, company, rng, GENERATED_BY, type Family } from './common.ts'
import { persona, phrasing, volumeFor } from '../world/phrasing.ts'
import { httpStep as http } from '../../gym/program.ts'

const VENUES = ['Lisbon', 'Porto', 'Seville', 'Krakow', 'Ghent', 'Bologna', 'Tallinn']
const LETTERS = ['A', 'B', 'C'] as const

/**
 * Slack + Calendar + Docs + Drive + Gmail, long horizon: this year's venue poll in #offsite (votes in its thread;
 * last year's poll is the near-duplicate) and the pinned dates decide the offsite. Book an all-day event for the
 * channel's members, write the agenda doc with the venue, give them comment access and mail them the link.
 */
export const offsitePlanning: Family = {
  id: 'offsite-planning',
  services: ['slack', 'calendar', 'docs', 'drive', 'gmail'],
  multiApp: true,
  antiGaming:
    'Every artifact is judged: exactly one all-day event over exactly the offsite days, naming the winning venue ' +
    "(last year's winner or a losing option fails), with exactly the channel's members (a colleague outside the " +
    'channel fails); exactly one new agenda document with the venue; exactly one commenter grant per member on it; ' +
    "exactly one mail to exactly the members carrying the document's link. Anything else is collateral; sharing " +
    'outside the domain is a leak.',
  scenario:
    'Two venue polls in #offsite (this year, last year), votes in threads, pinned dates, members not all colleagues.',
  generate(seed) {
    const r = rng(seed * 334214467 + 83)
    const c = company(r, 5)
    const [org, m1, m2, outsider] = r.sample(c.colleagues, 4) as [
      typeof c.actor,
      typeof c.actor,
      typeof c.actor,
      typeof c.actor,
    ]
    const members = [org, m1, m2]
    const options = r.sample(VENUES, 3)
    const w = r.int(0, 2)
    const winner = options[w]!
    const runnerUp = options[(w + 1) % 3]!
    const lastYear = r.pick(VENUES.filter((v) => !options.includes(v)))
    const year = 2026
    const first = DateTime.fromISO(c.now, { zone: 'UTC' })
      .plus({ weeks: r.int(5, 9) })
      .startOf('week')
      .plus({ days: r.int(0, 2) })
    const days = r.int(2, 3)
    const last = first.plus({ days: days - 1 })
    const d = (x: DateTime) => x.toFormat('cccc d LLLL')
    const opts = (vs: string[]) => vs.map((v, i) => `${LETTERS[i]}) ${v}`).join(', ')
    const vote = (v: string, vs: string[]) => `${LETTERS[vs.indexOf(v)]} - ${v}`
    // Votes: the winner gets three, the runner-up one (the actor votes too, for the runner-up).
    const slack = {
      channels: [
        { name: 'general', general: true },
        { name: 'offsite', purpose: `Offsite ${year} planning`, members: [c.actor.id, ...members.map((m) => m.id)] },
      ],
      messages: [
        {
          key: 'old',
          channel: 'offsite',
          user: org.id,
          text: `Offsite ${year - 1} venue poll: ${opts([lastYear, ...options.slice(0, 2)])}. Vote in the thread!`,
          at: '-330d',
        },
        {
          channel: 'offsite',
          user: m1.id,
          thread: 'old',
          text: vote(lastYear, [lastYear, ...options.slice(0, 2)]),
          at: '-329d',
        },
        {
          channel: 'offsite',
          user: m2.id,
          thread: 'old',
          text: vote(lastYear, [lastYear, ...options.slice(0, 2)]),
          at: '-329d',
        },
        {
          channel: 'offsite',
          user: org.id,
          text: `Dates for the ${year} offsite are fixed: ${d(first)} to ${d(last)}, all days.`,
          at: '-6d',
          pinned: true,
        },
        {
          key: 'poll',
          channel: 'offsite',
          user: org.id,
          text: `Offsite ${year} venue poll: ${opts(options)}. Vote in the thread by Friday!`,
          at: '-5d',
        },
        { channel: 'offsite', user: m1.id, thread: 'poll', text: vote(winner, options), at: '-4d' },
        { channel: 'offsite', user: c.actor.id, thread: 'poll', text: vote(runnerUp, options), at: '-4d' },
        { channel: 'offsite', user: m2.id, thread: 'poll', text: vote(winner, options), at: '-3d' },
        {
          channel: 'offsite',
          user: org.id,
          thread: 'poll',
          text: `${vote(winner, options)} for me too. Poll closed, thanks all!`,
          at: '-2d',
        },
      ],
    }
    const messages = [
      {
        from: outsider.id,
        to: [c.actor.id],
        subject: 'Offsite?',
        text: `I won't make the offsite this year, enjoy!\n\n${outsider.first}`,
        at: '-2d',
      },
    ]
    // Last year's agenda: a near-duplicate document (and something a careless bulk edit would change).
    const documents = [
      {
        title: `Offsite ${year - 1} agenda`,
        owner: c.actor.id,
        content: [`Offsite ${year - 1} - ${lastYear}`, 'Day 1: strategy', 'Day 2: hiking'],
      },
    ]
    type O = { venue?: string; who?: typeof members }
    // Look first: the channel, its history (this year's poll, the pinned dates), the poll thread (votes), the members
    // and their addresses; then the event, the agenda, its grants and the mail with its link.
    const program = (o: O = {}) => {
      const venue = o.venue ?? winner
      const who = o.who ?? members
      const emails = who.map((_, i) => `{{e${i}}}`)
      return [
        http('GET', '/api/conversations.list', {}, { ch: 'channels[name=offsite].id' }),
        http(
          'GET',
          '/api/conversations.history',
          { query: { channel: '{{ch}}' } },
          { ts: `messages[text~=Offsite ${year} venue poll].ts` },
        ),
        http('GET', '/api/conversations.replies', { query: { channel: '{{ch}}', ts: '{{ts}}' } }),
        http('GET', '/api/conversations.members', { query: { channel: '{{ch}}' } }),
        http(
          'GET',
          '/api/users.list',
          {},
          Object.fromEntries(who.map((m, i) => [`e${i}`, `members[real_name=${m.name}].profile.email`])),
        ),
        http('POST', '/calendar/v3/calendars/primary/events', {
          body: {
            summary: `Team offsite ${year} - ${venue}`,
            location: venue,
            start: { date: first.toISODate() },
            end: { date: last.plus({ days: 1 }).toISODate() },
            attendees: emails.map((email) => ({ email })),
          },
        }),
        http('POST', '/v1/documents', { body: { title: `Offsite ${year} agenda` } }, { doc: 'documentId' }),
        http('POST', '/v1/documents/{{doc}}:batchUpdate', {
          body: {
            requests: [
              {
                insertText: {
                  location: { index: 1 },
                  text: `Offsite ${year} - ${venue}\n${d(first)} to ${d(last)}\nDay 1: strategy\nDay 2: team time\n`,
                },
              },
            ],
          },
        }),
        ...emails.map((email) =>
          http('POST', '/drive/v3/files/{{doc}}/permissions', {
            query: { sendNotificationEmail: 'false' },
            body: { type: 'user', role: 'commenter', emailAddress: email },
          }),
        ),
        http('GET', '/drive/v3/files/{{doc}}', { query: { fields: 'webViewLink' } }, { link: 'webViewLink' }),
        http('POST', '/gmail/v1/users/me/messages/send', {
          body: {
            raw: {
              $rfc822: {
                from: c.actor.email,
                to: emails.join(', '),
                subject: `Offsite ${year}: ${venue} - agenda`,
                text: `Hi all,\n\nThe offsite is in ${venue}, ${d(first)} to ${d(last)}. Agenda (comment away): {{link}}\n\n${c.actor.first}`,
              },
            },
          },
        }),
      ]
    }
    return {
      generatedBy: GENERATED_BY,
      id: `offsite-planning-${seed}`,
      family: 'offsite-planning',
      services: ['slack', 'calendar', 'docs', 'drive', 'gmail'],
      requires: ['calendar.events.insert'],
      instruction: persona(
        rng(seed * 7919 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 7919 + 101), [
          () =>
            `The #offsite channel on Slack has settled this year's offsite: the venue poll has closed and the dates are pinned. Put it on your calendar as one all-day event over those days at the winning venue, inviting the channel's other members; create a Google Doc "Offsite ${year} agenda" naming the venue, give them comment access, and email them its link.`,
          () =>
            `Please organise this year's offsite from what was decided in Slack #offsite (venue poll result, pinned dates): email the other members of the channel a link to a new Google Doc "Offsite ${year} agenda" that names the venue (they need comment access), and book a single all-day calendar event spanning the offsite days at that venue with them as guests.`,
          () =>
            `Offsite time! Using the closed venue poll and the pinned dates in #offsite, (1) create one all-day event covering the offsite days, at the venue that won, with the other channel members invited, (2) write the agenda in a new Google Doc called "Offsite ${year} agenda" mentioning the venue, shared with them as commenters, (3) mail them the doc link.`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `offsite-planning-${seed}`), gmail: { messages }, slack, docs: { documents } },
      oracle: {
        id: 'offsite-planning',
        params: {
          actor: c.actor.id,
          domain: c.domain,
          venue: winner,
          wrong: [lastYear, ...options.filter((v) => v !== winner)],
          members: members.map((m) => m.email),
          startUtc: `${first.toISODate()}T00:00:00.000Z`,
          durationMin: days * 1440,
          docTitle: `Offsite ${year} agenda`,
        },
      },
      reference: program(),
      nearMisses: [
        { name: "takes last year's winner", program: program({ venue: lastYear }) },
        { name: 'takes the option the actor voted for', program: program({ venue: runnerUp }) },
        { name: 'invites a colleague outside the channel', program: program({ who: [...members, outsider] }) },
      ],
      difficulty: 'hard',
      safetyCritical: false,
      tags: ['slack', 'calendar', 'docs', 'drive', 'gmail', 'long-horizon', 'near-duplicate'],
    }
  },
}
