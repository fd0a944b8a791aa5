import { DateTime } from 'luxon'
import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { phrase, slack, volumeOf } from './kit.ts'

const ZONES = ['America/New_York', 'Europe/London', 'Europe/Berlin', 'America/Los_Angeles', 'Asia/Tokyo']
const TEAMS = ['payments', 'mobile', 'platform', 'data', 'growth', 'search']
const ROOMS = ['Aurora', 'Cobalt', 'Cypress', 'Dune', 'Sequoia', 'Glacier', 'Mesa', 'Tundra']

/** Slack: schedule a channel message for a local time in a colleague's time zone, with a fact from another channel. */
export const slackScheduleLocal: Family = {
  id: 'slack-schedule-local',
  services: ['slack'],
  multiApp: false,
  antiGaming:
    "Exactly one pending scheduled message, top level in the team channel, at the exact instant (the wall time in the named colleague's zone, not the actor's); it must name the new room and not the other team's room; posting now, one message per candidate zone, or posting elsewhere fails or is collateral.",
  scenario:
    'Facilities announced new standup rooms for two teams; the colleague who runs the standup sits in another time zone than the actor.',
  generate(seed) {
    const r = rng(seed * 6151 + 505)
    const c = company(r)
    const [host, fac] = c.colleagues
    const [mine, theirs] = r.sample(ZONES, 2)
    const users = c.users.map((u, i) =>
      i === 0 ? { ...u, timeZone: mine! } : u.id === host!.id ? { ...u, timeZone: theirs! } : u,
    )
    const [team, otherTeam] = r.sample(TEAMS, 2)
    const [room, otherRoom] = r.sample(ROOMS, 2)
    const day = r.int(4, 20)
    const hour = r.pick([8, 9, 10])
    const date = DateTime.fromObject({ year: 2026, month: 3, day }, { zone: theirs! }).setLocale('en')
    const at = (z: string) =>
      Math.floor(DateTime.fromObject({ year: 2026, month: 3, day, hour }, { zone: z }).toSeconds())
    const channel = `${team}-standup`
    const slackSeed = {
      channels: [
        { name: 'general', general: true },
        { name: channel, topic: `Daily ${team} standup` },
        { name: `${otherTeam}-standup` },
        { name: 'facilities' },
      ],
      messages: [
        {
          channel: 'facilities',
          user: fac!.id,
          text: `Room changes: from ${date.toFormat('d LLLL')} the ${otherTeam} standup moves to ${otherRoom}.`,
          at: '-3d',
        },
        {
          channel: 'facilities',
          user: fac!.id,
          text: `And the ${team} standup moves to ${room} from the same day (the old room is being refurbished).`,
          at: '-3d',
        },
        {
          channel: channel,
          user: host!.id,
          text: `I'll keep running standup from the ${theirs!.split('/')[1]!.replace('_', ' ')} office.`,
          at: '-10d',
        },
      ],
    }
    const when = `${date.toFormat('cccc d LLLL')} at ${String(hour).padStart(2, '0')}:00`
    const instruction = phrase(seed, r, [
      `Schedule a Slack message in #${channel} for ${when} in ${host!.first}'s local time, telling the team which room standup is in from then on (Facilities posted it).`,
      `${host!.first} runs the ${team} standup. Please schedule a post to #${channel} that goes out ${when} ${host!.first}'s time and says where standup now happens - check #facilities for the room.`,
      `On ${date.toFormat('d LLLL')} the ${team} standup changes rooms. Set up a scheduled message in #${channel} (sent at ${String(hour).padStart(2, '0')}:00 ${host!.first}'s time that day) with the new room.`,
    ])
    const look = [
      slack(
        'conversations.list',
        {},
        { ch: `channels[name=${channel}].id`, fac: 'channels[name=facilities].id' },
        true,
      ),
      slack('conversations.history', { channel: '{{fac}}' }, undefined, true),
      slack('users.list', {}, { tz: `members[real_name~=${host!.first}].tz` }, true),
    ]
    const schedule = (postAt: number, text: string, ch = '{{ch}}') =>
      slack('chat.scheduleMessage', { channel: ch, post_at: postAt, text })
    const text = (rm: string) => `Good morning! From today the ${team} standup is in ${rm}.`
    return {
      generatedBy: GENERATED_BY,
      id: `slack-schedule-local-${seed}`,
      family: 'slack-schedule-local',
      services: ['slack'],
      instruction,
      actor: c.actor.id,
      seed: { ...baseSeed(c, `slack-schedule-local-${seed}`), users, slack: slackSeed },
      world: volumeOf(seed),
      oracle: {
        id: 'slack-scheduled',
        params: { actor: c.actor.id, channel, postAt: at(theirs!), answer: room, wrong: [otherRoom] },
      },
      reference: [...look, schedule(at(theirs!), text(room!))],
      nearMisses: [
        { name: 'my own time zone', program: [...look, schedule(at(mine!), text(room!))] },
        { name: "the other team's room", program: [...look, schedule(at(theirs!), text(otherRoom!))] },
        {
          name: 'posts now instead of scheduling',
          program: [...look, slack('chat.postMessage', { channel: '{{ch}}', text: text(room!) })],
        },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['slack', 'scheduled-messages', 'time-zones', 'near-duplicate'],
    }
  },
}
