import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { phrase, slack, volumeOf } from './kit.ts'

const TOPICS = [
  {
    thing: 'release checklist',
    channel: 'releases',
    label: (v: number) => `${(v % 5) + 3}.${v % 7}`,
    body: ['freeze main', 'run the smoke suite', 'tag the build', 'update the status page'],
  },
  {
    thing: 'on-call rota',
    channel: 'sre',
    label: (v: number) => ['April', 'May', 'June', 'July'][v % 4]!,
    body: ['week 1: primary rotation', 'week 2: swap with secondary', 'handover on Mondays 10:00'],
  },
  {
    thing: 'launch plan',
    channel: 'launch-room',
    label: (v: number) => `Project ${['Orion', 'Vega', 'Lyra', 'Draco'][v % 4]}`,
    body: ['press embargo lifts at 14:00', 'blog post goes live', 'support macros ready'],
  },
]

/** Slack: pin the final version of a posted document-like message (not the draft, the older one or a repost). */
export const slackPinFinal: Family = {
  id: 'slack-pin-final',
  services: ['slack'],
  multiApp: false,
  antiGaming:
    'Exactly one message becomes pinned and it must be the final version in the named channel; pinning the draft, the older (already pinned) version or the repost in #general as well fails; unpinning, posting or editing is collateral, and so is the notice Slack leaves of a wrong pin taken off again.',
  scenario:
    "The channel holds a draft and the final version of the same item, last cycle's final (already pinned), and #general a repost pointing at it.",
  generate(seed) {
    const r = rng(seed * 97 + 503)
    const c = company(r)
    const [lead, other] = c.colleagues
    const t = TOPICS[seed % TOPICS.length]!
    const v = r.int(0, 27)
    const label = t.label(v)
    const prev = t.label(v + 1)
    const items = r.shuffle(t.body)
    const fin = `Final ${t.thing} for ${label} (replaces the draft): ${items.map((x, i) => `${i + 1}) ${x}`).join(' ')}`
    const draft = `Draft ${t.thing} for ${label}, comments welcome: ${items
      .slice(0, -1)
      .map((x, i) => `${i + 1}) ${x}`)
      .join(' ')}`
    const older = `Final ${t.thing} for ${prev}: ${r
      .shuffle(t.body)
      .map((x, i) => `${i + 1}) ${x}`)
      .join(' ')}`
    const repost = `FYI the final ${t.thing} for ${label} is up in #${t.channel}`
    const slackSeed = {
      channels: [
        { name: 'general', general: true },
        { name: t.channel, topic: `${t.thing}s and coordination` },
        { name: 'random' },
      ],
      messages: [
        { channel: t.channel, user: lead!.id, text: older, at: '-40d', pinned: true },
        { channel: t.channel, user: lead!.id, text: draft, at: '-4d' },
        { channel: t.channel, user: other!.id, text: 'Looks good, maybe add the last step?', at: '-4d' },
        { channel: t.channel, user: lead!.id, text: fin, at: '-1d' },
        { channel: 'general', user: other!.id, text: repost, at: '-1d' },
        { channel: t.channel, user: other!.id, text: 'Thanks!', at: '-20h' },
      ],
    }
    const instruction = phrase(seed, r, [
      `Pin ${lead!.first}'s final ${t.thing} for ${label} in #${t.channel} so people stop asking for it. Leave the existing pins alone.`,
      `In the #${t.channel} channel, ${lead!.first} posted the final ${t.thing} for ${label}. Please pin that message (only that one).`,
      `Could you pin the ${t.thing} for ${label} in #${t.channel}? I mean the final version ${lead!.first} posted, not the draft.`,
    ])
    const look = [
      slack('conversations.list', {}, { ch: `channels[name=${t.channel}].id`, gen: 'channels[name=general].id' }, true),
      slack(
        'conversations.history',
        { channel: '{{ch}}' },
        {
          ts: `messages[text~=Final ${t.thing} for ${label} (].ts`,
          draft: `messages[text~=Draft ${t.thing}].ts`,
          old: `messages[text~=for ${prev}:].ts`,
        },
        true,
      ),
      slack('pins.list', { channel: '{{ch}}' }, undefined, true),
    ]
    const pin = (ts: string, ch = '{{ch}}') => slack('pins.add', { channel: ch, timestamp: ts })
    return {
      generatedBy: GENERATED_BY,
      id: `slack-pin-final-${seed}`,
      family: 'slack-pin-final',
      services: ['slack'],
      instruction,
      actor: c.actor.id,
      seed: { ...baseSeed(c, `slack-pin-final-${seed}`), slack: slackSeed },
      world: volumeOf(seed),
      oracle: {
        id: 'slack-pin',
        params: { actor: c.actor.id, channel: t.channel, includes: fin, wrong: [draft, repost] },
      },
      reference: [...look, pin('{{ts}}')],
      nearMisses: [
        { name: 'pins the draft', program: [...look, pin('{{draft}}')] },
        { name: 'pins final and draft', program: [...look, pin('{{ts}}'), pin('{{draft}}')] },
        {
          // Slack's notice of the draft's pin stays in the channel when the pin is taken off (0480).
          name: 'pins the draft, takes it off, pins the final',
          program: [
            ...look,
            pin('{{draft}}'),
            slack('pins.remove', { channel: '{{ch}}', timestamp: '{{draft}}' }),
            pin('{{ts}}'),
          ],
        },
        {
          name: 'swaps the old pin for the new one',
          program: [...look, slack('pins.remove', { channel: '{{ch}}', timestamp: '{{old}}' }), pin('{{ts}}')],
        },
      ],
      difficulty: 'easy',
      safetyCritical: false,
      tags: ['slack', 'pins', 'near-duplicate'],
    }
  },
}
