import type { DemoContext } from './context.ts'

type Msg = {
  key?: string
  channel: string
  user: string
  text: string
  at: string
  thread?: string
  reactions?: Record<string, string[]>
  pinned?: boolean
}

const ENG = [
  'Deploy of the billing service is done, dashboards look healthy.',
  'Who owns the flaky checkout test? It failed three times today.',
  'PR for the Atlas redesign is up, reviews welcome.',
  'Staging is down for a DB migration until noon.',
  'Heads up: Node 20 upgrade lands tomorrow.',
  'Postmortem for Tuesday’s outage is in the drive folder.',
  'Can someone pair on the mobile beta crash?',
  'Latency p95 is back under 200 ms after the cache fix.',
]
const SALES = [
  'Signed Globex for another year :tada:',
  'Initech wants a demo next week, who is free?',
  'Pipeline review moved to Thursday.',
  'Customer asked about SSO pricing — do we have a sheet?',
  'Q2 target is 82% reached.',
  'Lost the Umbrella deal to a competitor on price.',
]
const GENERAL = [
  'Welcome to the team, everyone!',
  'Office closed on Monday for the holiday.',
  'Lunch and learn on Friday: design systems.',
  'Reminder: submit expenses by the 25th.',
  'New coffee machine on the 3rd floor :coffee:',
  'All-hands slides are pinned in this channel.',
]
const LEAD = [
  'Board deck draft is ready for review.',
  'Hiring plan: two engineers and one AE in Q3.',
  'Comp review cycle starts next month.',
  'We need to decide on the office lease by Friday.',
]
const REPLIES = [
  'On it.',
  'Thanks!',
  'Looking now.',
  '+1',
  'Can we sync on this later?',
  'Done :white_check_mark:',
  'Great news!',
  'I can take this one.',
]
const EMOJI = ['thumbsup', 'eyes', 'tada', 'heart', 'white_check_mark', 'rocket', 'joy']

/**
 * Demo Slack: #general, #engineering, #sales, private #leadership,
 * DMs, an MPIM, threads, reactions, pins, the deploy bot.
 */
export function demoSlack(ctx: DemoContext, scale = 1): Record<string, unknown> {
  const rng = ctx.rng.fork('slack')
  const ids = ctx.users.map((u) => u.id)
  const messages: Msg[] = []
  let n = 0
  const add = (channel: string, pool: readonly string[], members: string[], count: number, days: number) => {
    for (let i = 0; i < count; i++) {
      const key = `${channel}-${n++}`
      const user = rng.pick(members)
      const reactions: Record<string, string[]> = {}
      if (rng.chance(0.3)) reactions[rng.pick(EMOJI)] = rng.shuffle(members).slice(0, rng.int(1, 3))
      messages.push({
        key,
        channel,
        user,
        text: rng.pick(pool),
        at: `-${rng.int(0, days)}d${rng.int(0, 23)}h${rng.int(0, 59)}m`,
        reactions,
        pinned: i === 0 && scale === 1,
      })
      if (rng.chance(0.25)) {
        for (let r = 0; r < rng.int(1, 3); r++)
          messages.push({
            channel,
            user: rng.pick(members),
            text: rng.pick(REPLIES),
            at: `-0d0h${r + 1}m`,
            thread: key,
          })
      }
    }
  }
  add('general', GENERAL, ids, 12 * scale, 30)
  add('engineering', ENG, ['bob', 'carol', 'alice'], 20 * scale, 30)
  add('sales', SALES, ['dan', 'erin', 'alice'], 12 * scale, 30)
  add('leadership', LEAD, ['alice', 'bob', 'erin'], 6 * scale, 20)
  fixReplyTimes(messages)
  messages.push(
    {
      channel: 'engineering',
      user: 'deploybot',
      text: 'Deployed `billing-service` v2.14.0 to production :rocket:',
      at: '-1d2h',
    },
    {
      channel: 'dm:alice,bob',
      user: 'alice',
      text: 'Can you send me the hiring numbers before the board meeting?',
      at: '-1d5h',
    },
    { channel: 'dm:alice,bob', user: 'bob', text: 'Sure, I will have them by 3pm.', at: '-1d4h' },
    { channel: 'dm:dan,erin', user: 'dan', text: 'Did the Globex invoice get paid?', at: '-2d1h' },
    { channel: 'dm:dan,erin', user: 'erin', text: 'Yes, it cleared yesterday.', at: '-2d' },
    {
      channel: 'mpim:alice,carol,dan',
      user: 'carol',
      text: 'Mockups for the partner portal are ready — feedback by Thursday?',
      at: '-3h',
    },
  )
  return {
    bots: [{ id: 'deploybot', name: 'Deploy Bot' }],
    channels: [
      {
        name: 'general',
        general: true,
        purpose: 'Company-wide announcements and work-based matters',
        members: 'all',
        creator: 'alice',
      },
      { name: 'random', purpose: 'Non-work banter and water cooler conversation', members: 'all', creator: 'alice' },
      {
        name: 'engineering',
        topic: 'Deploys, incidents, code review',
        purpose: 'Engineering team',
        members: ['bob', 'carol', 'alice', 'deploybot'],
        creator: 'bob',
      },
      { name: 'sales', topic: 'Q2 pipeline', purpose: 'Sales team', members: ['dan', 'erin', 'alice'], creator: 'dan' },
      {
        name: 'leadership',
        private: true,
        purpose: 'Leadership team (private)',
        members: ['alice', 'bob', 'erin'],
        creator: 'alice',
      },
      { name: 'old-projects', archived: true, members: ['alice', 'bob'], creator: 'bob' },
    ],
    messages,
    reminders: [{ user: 'alice', text: 'Review the board deck', at: '+1d' }],
    usergroups: [{ handle: 'eng', name: 'Engineering', description: 'Engineering team', users: ['bob', 'carol'] }],
    // Pending for an admin (alice): a member asks to invite a contractor, another to install an app.
    inviteRequests: [
      {
        email: 'priya.contractor@example.org',
        requester: 'bob',
        message: 'Contract QA engineer for the Atlas launch',
        channels: ['engineering'],
      },
    ],
    appRequests: [
      {
        app: 'Tracker Cloud',
        requester: 'carol',
        message: 'Link design tickets in threads',
        scopes: ['chat:write', 'links:read', 'links:write'],
      },
    ],
  }
}

/** Gives each reply a time a few minutes after its parent (relative strings, e.g. "-3d4h10m" → "-3d4h7m"). */
function fixReplyTimes(messages: Msg[]) {
  const offsets = new Map<string, number>()
  for (const m of messages) {
    if (!m.thread) continue
    const parent = messages.find((p) => p.key === m.thread)!
    const k = (offsets.get(m.thread) ?? 0) + 1
    offsets.set(m.thread, k)
    const match = /^-(\d+)d(\d+)h(\d+)m$/.exec(parent.at)!
    const total = Number(match[1]) * 1440 + Number(match[2]) * 60 + Number(match[3]) - k * 3
    m.at = total > 0 ? `-${total}m` : `-${k}s`
  }
}

/** The large world's Slack slice: about 10,000 messages across the demo channels. */
export function largeSlack(ctx: DemoContext): Record<string, unknown> {
  return demoSlack(ctx, 135)
}
