import { DateTime } from 'luxon'
import { baseSeed, company, rng, GENERATED_BY, type Family } from '../common.ts'
import { persona, phrasing, volumeFor } from '../../world/phrasing.ts'
import { slack } from '../dds/kit.ts'
import { doneStep } from './kit.ts'

const CODENAMES = ['Heron', 'Basalt', 'Juniper', 'Quasar', 'Marlin', 'Sorrel', 'Tundra', 'Kestrel', 'Galena', 'Fjord']
const MILESTONES = ['launch', 'go-live', 'GA release', 'public launch']

const day = (t: DateTime) => t.setLocale('en-GB').toFormat('d LLLL')

/**
 * Slack answer task: the date a project's launch was decided for. The vote and the decision sit in a thread; in half
 * the seeds a later reply in the same thread moves the date. The tentative date before the vote, the losing option,
 * the beta date and another project's launch are near-duplicates.
 */
export const slackDecisionAnswer: Family = {
  id: 'slack-decision-answer',
  services: ['slack'],
  multiApp: false,
  antiGaming:
    "Judged by the final-answer oracle: the answer must state the date that stands after the whole thread (the moved date when it moved) and none of the near-duplicates (the tentative date, the losing option, the superseded decision, the beta date, another project's launch); posting, reacting or editing in Slack is collateral.",
  scenario:
    "A project channel holds a tentative date, a vote with two options whose thread ends in a decision (moved again by a later reply in half the seeds), and a beta milestone; another project's channel announces its own launch. The reference finds the channel, the vote message, reads its thread and answers with the standing date.",
  generate(seed) {
    const r = rng(seed * 3023 + 41)
    const c = company(r, 4)
    const [pm, eng, mkt] = c.colleagues
    const [code, otherCode] = r.sample(CODENAMES, 2)
    const what = r.pick(MILESTONES)
    const channel = `proj-${code!.toLowerCase()}`
    const base = DateTime.fromISO('2026-04-06', { zone: 'UTC' }).plus({ days: r.int(0, 40) })
    const [tentative, optA, optB, moved, beta, otherLaunch] = [0, 3, 10, 17, -12, 5].map((d) => base.plus({ days: d }))
    const chosen = r.next() < 0.5 ? optA! : optB!
    const losing = chosen === optA ? optB! : optA!
    const movedAgain = seed % 2 === 0
    const standing = movedAgain ? moved! : chosen
    const thread = [
      {
        key: 'vote',
        channel,
        user: pm!.id,
        text: `Time to pick the ${code} ${what} date: ${day(optA!)} or ${day(optB!)}? Please vote in the thread.`,
        at: '-6d',
      },
      {
        channel,
        user: eng!.id,
        text: `Engineering can make ${day(optA!)} if nothing slips.`,
        at: '-6d',
        thread: 'vote',
      },
      {
        channel,
        user: mkt!.id,
        text: `Marketing would much prefer ${day(optB!)}; the campaign needs the extra week.`,
        at: '-5d',
        thread: 'vote',
      },
      {
        channel,
        user: pm!.id,
        text: `Decision: ${code} ${what} is on ${day(chosen)}. Thanks all for weighing in.`,
        at: '-5d',
        thread: 'vote',
      },
      ...(movedAgain
        ? [
            {
              channel,
              user: pm!.id,
              text: `Update: the security review needs more time, so we're moving the ${what} to ${day(moved!)}. This replaces the earlier decision.`,
              at: '-2d',
              thread: 'vote',
            },
          ]
        : []),
    ]
    const messages = [
      {
        channel,
        user: pm!.id,
        text: `Kicking off ${code}. Tentatively we aim for ${day(tentative!)}; will confirm after the planning review.`,
        at: '-12d',
      },
      ...thread,
      {
        channel,
        user: eng!.id,
        text: `Reminder: the ${code} beta opens on ${day(beta!)} for internal users.`,
        at: '-3d',
      },
      {
        channel: `proj-${otherCode!.toLowerCase()}`,
        user: mkt!.id,
        text: `${otherCode} ${what} confirmed for ${day(otherLaunch!)}.`,
        at: '-4d',
      },
      { channel: 'general', user: eng!.id, text: 'Coffee machine on 3 is fixed.', at: '-1d' },
    ]
    const slackSeed = {
      channels: [
        { name: 'general', general: true },
        { name: channel, topic: `${code} planning` },
        { name: `proj-${otherCode!.toLowerCase()}` },
      ],
      messages,
    }
    const asDate = (t: DateTime) => ({ kind: 'date' as const, date: t.toISODate()! })
    const wrong = [tentative!, losing, beta!, otherLaunch!, ...(movedAgain ? [chosen] : [])].map(asDate)
    const look = [
      slack('conversations.list', {}, { ch: `channels[name=${channel}].id` }, true),
      slack(
        'conversations.history',
        { channel: '{{ch}}' },
        { vote: `messages[text~=Please vote in the thread].ts` },
        true,
      ),
      slack('conversations.replies', { channel: '{{ch}}', ts: '{{vote}}' }, undefined, true),
    ]
    return {
      generatedBy: GENERATED_BY,
      id: `slack-decision-answer-${seed}`,
      family: 'slack-decision-answer',
      services: ['slack'],
      instruction: persona(
        rng(seed * 3023 + 103),
        c.actor,
        c.org,
        phrasing(rng(seed * 3023 + 101), [
          () => `What date did we settle on for the ${code} ${what}? The discussion was in Slack.`,
          () => `I missed the ${code} thread in #${channel}. Which day is the ${what} now? Give me the date.`,
          () => `Remind me of the current ${code} ${what} date - it was decided in the project channel.`,
          () => `${pm!.first} ran a vote on the ${code} ${what} date. What is the date that stands?`,
        ]),
      ),
      world: { volume: volumeFor(seed) },
      actor: c.actor.id,
      seed: { ...baseSeed(c, `slack-decision-answer-${seed}`), slack: slackSeed },
      oracle: { id: 'final-answer', params: { actor: c.actor.id, expected: asDate(standing), wrong } },
      reference: [...look, doneStep(`The ${code} ${what} is on ${day(standing)}.`)],
      nearMisses: [
        {
          name: movedAgain ? 'the superseded decision' : 'the losing option',
          program: [...look, doneStep(`${day(movedAgain ? chosen : losing)}`)],
        },
        { name: 'the tentative date', program: [...look, doneStep(`It is ${day(tentative!)}.`)] },
        { name: 'the beta date', program: [...look, doneStep(`${day(beta!)}`)] },
      ],
      difficulty: 'medium',
      safetyCritical: false,
      tags: ['slack', 'answer', 'threads', 'near-duplicate'],
    }
  },
}
