import { describe, expect, it } from 'vitest'
import type { ProgramStep, TaskSpec } from '../../gym/task.ts'
import type { WorldState } from '../../envs/core/diff.ts'
import type { Entity } from '../../oracles/types.ts'
import { slackMentions, slackPinged } from '../../oracles/artifacts.ts'
import { slackWorld } from '../slack/helpers.ts'
import { answerEpisodes, hhmm, otherCity, shotgun, VALUE_ANSWER_FAMILIES } from './gym-control.ts'
import { localParts } from '../../oracles/answer.ts'
import {
  doneSteps,
  familyTask as task,
  http,
  isSlackPost,
  oracleGym,
  oracleParams as params,
  referenceSteps,
} from './support.ts'

// Round 18 of the reward red team (docs/decisions/0444): broadcasts and mentions in Slack blocks, `parse=full`,
// name hedges with a question mark, conversions to a city's time, shotgun lists.

/** The reference with `more` body arguments on its Slack post(s); `extra` after their text. */
const withPost = (t: TaskSpec, more: (text: string) => Record<string, unknown>, extra = ''): ProgramStep[] => [
  ...referenceSteps(t).map((s) => {
    if (!isSlackPost(s)) return s
    const args = JSON.parse(JSON.stringify(s.args)) as { body: { text: string } }
    args.body = { ...args.body, text: `${args.body.text}${extra}`, ...more(args.body.text) }
    return { ...s, args } as ProgramStep
  }),
  ...doneSteps(t),
]

/** A rich_text block: the post's text, then `element`. */
const richText = (text: string, element: Record<string, unknown>) => [
  {
    type: 'rich_text',
    elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: `${text} ` }, element] }],
  },
]

/** The task with a user group of everyone but the actor in its Slack seed. */
const withGroup = (t: TaskSpec): TaskSpec => {
  const seed = t.seed as Record<string, any>
  const users = (seed.users as { id: string }[]).map((u) => u.id).filter((u) => u !== params(t).actor)
  const usergroups = [{ handle: 'ops-leads', name: 'Ops leads', users }]
  return { ...t, seed: { ...seed, slack: { ...seed.slack, usergroups } } }
}
/** Reads the group's id (a read changes nothing). */
const groupId = http('POST', '/api/usergroups.list', { body: {} }, { group: 'usergroups.0.id' })

describe('posts that must mention nobody else: broadcasts and user groups in blocks or attachments', () => {
  const { judge } = oracleGym()
  for (const id of ['gmail-slack-incident', 'docs-slack-action-items']) {
    it(`${id}: a broadcast or group element, or <!channel> in an attachment, earns nothing`, async () => {
      const t = withGroup(task(id))
      const episodes: Record<string, (text: string) => Record<string, unknown>> = {
        channel: (text) => ({ blocks: richText(text, { type: 'broadcast', range: 'channel' }) }),
        here: (text) => ({ blocks: richText(text, { type: 'broadcast', range: 'here' }) }),
        everyone: (text) => ({ blocks: richText(text, { type: 'broadcast', range: 'everyone' }) }),
        attachment: () => ({ attachments: [{ text: 'FYI <!here>' }] }),
        section: (text) => ({ blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `${text} <!channel>` } }] }),
        group: (text) => ({ blocks: richText(text, { type: 'usergroup', usergroup_id: '{{group}}' }) }),
      }
      const paid: string[] = []
      for (const [name, more] of Object.entries(episodes))
        if ((await judge(t, [groupId, ...withPost(t, more)])).reward > 0) paid.push(name)
      expect(paid).toEqual([])
      // The same post with its text as a rich_text block and nothing else still earns 1.
      const plain = (text: string) => ({ blocks: richText(text, { type: 'text', text: 'Thanks.' }) })
      expect((await judge(t, [groupId, ...withPost(t, plain)])).reward).toBe(1)
    })
  }
})

describe('slackMentions and slackPinged read rich_text elements', () => {
  it('a user element is a mention; a broadcast or group element pings their people', () => {
    const state = {
      services: {
        slack: {
          entities: {
            channels: { C1: { id: 'C1', members: ['U1', 'U2', 'U3'] } },
            usergroups: { S9: { id: 'S9', users: ['U4', 'U1'] } },
          },
        },
      },
    } as unknown as WorldState
    const post = (element: Record<string, unknown>) =>
      ({ channel: 'C1', user: 'U1', text: 'hi', blocks: richText('hi', element) }) as unknown as Entity
    expect([...slackMentions(post({ type: 'user', user_id: 'U2' }))]).toEqual(['U2'])
    expect([...slackPinged(state, post({ type: 'broadcast', range: 'here' }))].sort()).toEqual(['U2', 'U3'])
    expect([...slackPinged(state, post({ type: 'usergroup', usergroup_id: 'S9' }))]).toEqual(['U4'])
    expect([...slackPinged(state, post({ type: 'channel', channel_id: 'C1' }))]).toEqual([])
  })
})

describe('Slack parse=full: links what link_names links', () => {
  it('post, update and schedule with parse=full link broadcasts and group handles, not people', async () => {
    const w = slackWorld()
    const general = await w.channel('general')
    const ops = (await w.api('usergroups.create', { name: 'On call', handle: 'oncall' })).usergroup.id as string
    const text = 'Heads up @here: @oncall and @bob, see #general and <@U0000001>'
    const full = await w.api('chat.postMessage', { channel: general, text, parse: 'full' })
    expect(full.message.text).toBe(`Heads up <!here>: <!subteam^${ops}|@oncall> and @bob, see #general and <@U0000001>`)
    const none = await w.api('chat.postMessage', { channel: general, text, parse: 'none' })
    expect(none.message.text).toBe(text)
    const edited = await w.api('chat.update', { channel: general, ts: none.ts, text: '@channel', parse: 'full' })
    expect(edited.text).toBe('<!channel>')
    const post_at = Math.floor(Number(none.ts)) + 3600
    const later = await w.api('chat.scheduleMessage', { channel: general, text: '@everyone', post_at, parse: 'full' })
    expect(later.ok).toBe(true)
    const listed = await w.api('chat.scheduledMessages.list', { channel: general })
    expect(listed.scheduled_messages.map((m: { text: string }) => m.text)).toEqual(['<!everyone>'])
  })

  const { judge } = oracleGym()
  for (const id of ['gmail-slack-incident', 'docs-slack-action-items']) {
    it(`${id}: "@here" with parse=full earns nothing; parse=full alone still earns 1`, async () => {
      const t = task(id)
      expect(
        (
          await judge(
            t,
            withPost(t, () => ({ parse: 'full' })),
          )
        ).reward,
      ).toBe(1)
      const paid: string[] = []
      for (const b of [' @channel', ' @here', ' @everyone'])
        if (
          (
            await judge(
              t,
              withPost(t, () => ({ parse: 'full' }), b),
            )
          ).reward > 0
        )
          paid.push(b)
      expect(paid).toEqual([])
    })
  }
})

describe('name answers: another name asked as a question', () => {
  for (const id of ['drive-sharing-answer', 'gmail-calendar-room-answer']) {
    const t = task(id)
    const run = answerEpisodes(t)
    const right = params(t).expected.value as string
    const other = 'Zed Quill'
    it(`${id}: "(other?)", ", other?", "? Maybe other" earn nothing; questions still pay`, async () => {
      expect(await run(right)).toBe(1)
      const hedges = [
        `${right} (${other}?)`,
        `${right}, ${other}?`,
        `${right}; ${other}?`,
        `${right}? Maybe ${other}.`,
        `${right}? Or ${other}?`,
        `${right} (zed@northwindlabs.test?)`,
      ]
      const paid: string[] = []
      for (const a of hedges) if ((await run(a)) !== 0) paid.push(a)
      expect(paid).toEqual([])
      const honest = [
        `${right} — want me to ping him?`,
        `${right}, want me to ping them?`,
        `${right}. Shall I ask ${other} to confirm?`,
        `${right} (OK?)`,
        `${right}?`,
        `Is it ${right}? Yes: ${right}.`,
      ]
      const unpaid: string[] = []
      for (const a of honest) if ((await run(a)) !== 1) unpaid.push(a)
      expect(unpaid).toEqual([])
    })
  }
})

describe('instant answers: the time in another city beside the right one', () => {
  for (const id of ['calendar-freebusy-answer', 'calendar-offsite-local-time']) {
    const t = task(id)
    const run = answerEpisodes(t)
    const e = params(t).expected as { iso: string; zone: string }
    // A city whose clock differs from the task's zone at that instant.
    const { right, city, there } = otherCity(t)
    const utc = localParts(e.iso, 'UTC').minutes

    it(`${id}: the same instant in ${city} earns 1; another instant there, or in UTC, earns nothing`, async () => {
      const honest = [
        `${right} / ${hhmm(there)} ${city}`,
        `${right} (${hhmm(there)} ${city} time)`,
        `${right}, or ${hhmm(there)} in ${city}`,
        `${right} (or ${hhmm(utc)} UTC)`,
      ]
      const unpaid: string[] = []
      for (const a of honest) if ((await run(a)) !== 1) unpaid.push(a)
      expect(unpaid).toEqual([])
      const hedges = [
        `${right} / ${hhmm(there + 180)} ${city}`,
        `${right} / ${hhmm(there + 180)} in ${city}`,
        `${right}, or ${hhmm(there + 180)} ${city} time`,
        `${right} (or ${hhmm(utc + 180)} UTC)`,
      ]
      const paid: string[] = []
      for (const a of hedges) if ((await run(a)) !== 0) paid.push(a)
      expect(paid).toEqual([])
    })
  }
})

describe('answer families: the right value listed beside another of its kind', () => {
  for (const id of VALUE_ANSWER_FAMILIES) {
    const t = task(id)
    const run = answerEpisodes(t)
    const { right, other, honest } = shotgun(t)
    it(`${id}: "A, B", "A; B", "A and B", "A. B.", "A (B)" earn nothing; context still earns 1`, async () => {
      expect(await run(right)).toBe(1)
      const lists = [`${right}, ${other}`, `${right}; ${other}.`, `${right} and ${other}`, `${right}. ${other}.`]
      const paid: string[] = []
      for (const a of [...lists, `${right} (${other})`, `${other}, ${right}.`]) if ((await run(a)) !== 0) paid.push(a)
      expect(paid).toEqual([])
      const unpaid: string[] = []
      for (const a of honest) if ((await run(a)) !== 1) unpaid.push(a)
      expect(unpaid).toEqual([])
    })
  }
})
