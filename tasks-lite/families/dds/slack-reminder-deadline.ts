import { DateTime } from 'luxon'
import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { phrase, slack, volumeOf } from './kit.ts'

const KINDS = [
  { what: 'expense reports', about: 'expense', channel: 'finance', near: 'timesheets' },
  { what: 'performance self-reviews', about: 'review', channel: 'people-team', near: 'peer nominations' },
  { what: 'Q2 budget requests', about: 'budget', channel: 'finance', near: 'travel bookings' },
  { what: 'security training certificates', about: 'training', channel: 'it-announcements', near: 'laptop returns' },
  { what: 'conference talk proposals', about: 'proposal', channel: 'devrel', near: 'travel requests' },
]
const CITIES: Record<string, string> = {
  'Europe/Berlin': 'Berlin',
  'America/New_York': 'New York',
  'Asia/Tokyo': 'Tokyo',
  'Europe/London': 'London',
  'America/Los_Angeles': 'Los Angeles',
}

/** Slack: set yourself a reminder N hours before a deadline announced in a channel, in the announcer's time zone. */
export const slackReminderDeadline: Family = {
  id: 'slack-reminder-deadline',
  services: ['slack'],
  multiApp: false,
  antiGaming:
    "Exactly one new reminder, for the actor, at the exact instant (deadline in the announced city's zone minus the lead time); a reminder per candidate deadline fails, as do the near-duplicate deadline (another item), last cycle's deadline and the wall time read in the wrong zone; posts or deleted reminders are collateral.",
  scenario:
    "The channel announces this cycle's deadline with a city time zone, another item's deadline the day before, and last cycle's deadline.",
  generate(seed) {
    const r = rng(seed * 7919 + 504)
    const c = company(r)
    const [lead, other] = c.colleagues
    const k = r.pick(KINDS)
    const zone = r.pick(Object.keys(CITIES).filter((z) => z !== c.users[0]!.timeZone))
    const city = CITIES[zone]!
    const day = r.int(9, 26)
    const hour = r.pick([12, 15, 17, 18])
    const lead_h = r.pick([1, 2, 3, 4])
    const at = (d: number, h: number, z = zone) =>
      DateTime.fromObject({ year: 2026, month: 3, day: d, hour: h }, { zone: z })
    const deadline = at(day, hour)
    const when = (d: DateTime) => `${d.setLocale('en').toFormat('cccc d LLLL')} at ${d.toFormat('HH:mm')} ${city} time`
    const nearDeadline = at(day - 1, 12)
    const lastCycle = DateTime.fromObject({ year: 2026, month: 2, day: day, hour }, { zone })
    const slackSeed = {
      channels: [
        { name: 'general', general: true },
        { name: k.channel, topic: 'Announcements and deadlines' },
        { name: 'random' },
      ],
      messages: [
        {
          channel: k.channel,
          user: lead!.id,
          text: `Reminder: ${k.what} for February are due ${when(lastCycle)}.`,
          at: '-30d',
        },
        { channel: k.channel, user: lead!.id, text: `Heads-up: ${k.near} are due ${when(nearDeadline)}.`, at: '-2d' },
        {
          channel: k.channel,
          user: lead!.id,
          text: `${k.what[0]!.toUpperCase()}${k.what.slice(1)} for March are due ${when(deadline)}. No extensions this time.`,
          at: '-1d',
          key: 'ann',
        },
        { channel: k.channel, user: other!.id, text: 'Thanks, noted.', at: '-1d', thread: 'ann' },
      ],
    }
    const target = deadline.minus({ hours: lead_h })
    const hrs = lead_h === 1 ? 'one hour' : `${['two', 'three', 'four'][lead_h - 2]} hours`
    const instruction = phrase(seed, r, [
      `${lead!.first} announced the March deadline for ${k.what} in #${k.channel}. Set me a Slack reminder ${hrs} before it's due.`,
      `Please add a Slack reminder for me, ${hrs} ahead of the deadline for ${k.what} (March) that ${lead!.first} posted in #${k.channel}.`,
      `I keep missing the ${k.what} deadline. ${lead!.first} posted it in #${k.channel} (this month's, not February's). Remind me on Slack ${hrs} before it.`,
      `Set up a Slack reminder so I get pinged ${hrs} before this month's ${k.what} are due (${lead!.first} posted the deadline in #${k.channel}).`,
      `Reminder please: ${hrs} before the March cut-off for ${k.what}. ${lead!.first} put the date and time in #${k.channel}.`,
    ])
    const look = [
      slack('conversations.list', {}, { ch: `channels[name=${k.channel}].id` }, true),
      slack('conversations.history', { channel: '{{ch}}' }, undefined, true),
      slack('reminders.list', {}, undefined, true),
    ]
    const remind = (d: DateTime) =>
      slack('reminders.add', {
        text: `Submit ${k.what} (due ${deadline.toFormat('HH:mm')} ${city} time)`,
        time: Math.floor(d.toSeconds()),
      })
    return {
      generatedBy: GENERATED_BY,
      id: `slack-reminder-deadline-${seed}`,
      family: 'slack-reminder-deadline',
      services: ['slack'],
      instruction,
      actor: c.actor.id,
      seed: { ...baseSeed(c, `slack-reminder-deadline-${seed}`), slack: slackSeed },
      world: volumeOf(seed),
      oracle: {
        id: 'slack-reminder',
        params: {
          actor: c.actor.id,
          time: Math.floor(target.toSeconds()),
          about: k.about,
          wrongTimes: [nearDeadline, at(day, hour, c.users[0]!.timeZone), deadline].map((d) =>
            Math.floor(d.minus({ hours: d === deadline ? 0 : lead_h }).toSeconds()),
          ),
        },
      },
      reference: [...look, remind(target)],
      nearMisses: [
        { name: 'at the deadline itself', program: [...look, remind(deadline)] },
        {
          name: 'wall time read in my own zone',
          program: [...look, remind(at(day, hour, c.users[0]!.timeZone).minus({ hours: lead_h }))],
        },
        { name: "the other item's deadline", program: [...look, remind(nearDeadline.minus({ hours: lead_h }))] },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['slack', 'reminders', 'time-zones', 'near-duplicate'],
    }
  },
}
