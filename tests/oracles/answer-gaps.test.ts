import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { checkAnswer, type Expected } from '../../oracles/answer.ts'
import { slackDecisionAnswer } from '../../tasks-lite/families/answers/slack-decision-answer.ts'
import { calendarFreebusyAnswer } from '../../tasks-lite/families/answers/calendar-freebusy-answer.ts'
import { gmailSearchAnswer } from '../../tasks-lite/families/answers/gmail-search-answer.ts'
import { gymControl } from './gym-control.ts'

// Answers the checker misread on main (docs/decisions/0388): weekday hedges, denied values, spelled ordinals,
// space-grouped amounts with a currency sign, a count joined to the date. `gap` marks a case main got wrong; the
// others are controls that hold on both.
type Params = { expected: Expected; wrong: Expected[] }
const params = (f: { generate(seed: number): unknown }) => TaskSpec.parse(f.generate(1)).oracle.params as Params
// Seed 1: the release is Wednesday 29 April 2026 (wrong: Sun 26 April, Wed 6 May, Tue 14 April, Fri 1 May).
const decision = params(slackDecisionAnswer)
// Seed 1: Thursday 12 March 2026, 12:30 in Los Angeles (wrong: 11:30 and 15:00 that day).
const freebusy = params(calendarFreebusyAnswer)
// Seed 1: $3,614.55 (wrong: 8,861.35, 3,541.95, 127,000).
const search = params(gmailSearchAnswer)
// A date whose wrong candidate falls on the 3rd of the same month (the count below must not read as that day).
const lateBy: Params = {
  expected: { kind: 'date', date: '2026-04-29' },
  wrong: [{ kind: 'date', date: '2026-04-03' }],
}

const rows: [Params, string, boolean, 'gap' | 'control'][] = [
  // Weekday-only hedges: a weekday no stated date explains names the candidates on that day; alternatives fail.
  [decision, '29 April or Sunday', false, 'gap'],
  [decision, 'Tuesday or Wednesday, 29 April', false, 'gap'],
  [decision, 'either Tue or Wed 29 April', false, 'gap'],
  [decision, 'Wednesday 29 April', true, 'control'],
  [decision, 'It is 29 April (a Wednesday).', true, 'control'],
  [freebusy, 'either Tue or Thu at 12:30', false, 'gap'],
  [freebusy, 'Tuesday at 12:30', false, 'gap'],
  [freebusy, 'Thursday at 12:30', true, 'control'],
  [freebusy, 'Mon and Tue are full; Thursday 12 March at 12:30 works.', true, 'control'],
  // Negation: a denied value is not stated, for the fact as for a wrong candidate.
  [freebusy, 'Not 11:30, it is 12:30 on Thursday 12 March.', true, 'gap'],
  [freebusy, '11:30? No - 12:30, Thursday 12 March.', true, 'gap'],
  [freebusy, '11:30 - no, 12:30.', true, 'gap'],
  [decision, 'April 29, not April 26', true, 'gap'],
  [decision, 'The release is not on the 29th of April.', false, 'gap'],
  [decision, 'It is not on 29 April.', false, 'gap'],
  [search, 'Not $3,541.95 - it is $3,614.55.', true, 'gap'],
  [freebusy, '11:30 or 12:30', false, 'control'],
  [freebusy, 'not 11:30 or 12:30', false, 'control'],
  [decision, 'April 29, not not April 26', false, 'control'],
  [decision, 'April 29, if not April 26', false, 'control'],
  [decision, 'April 29 (not impossible: April 26)', false, 'control'],
  // False negatives: spelled ordinals, space groups after a currency sign, a count joined to the date.
  [decision, 'April twenty-ninth', true, 'gap'],
  [decision, 'the twenty-ninth of April', true, 'gap'],
  [decision, 'April twenty-ninth or twenty-sixth', false, 'control'],
  [search, 'The invoice is $3 614.55.', true, 'gap'],
  [search, 'The invoice is 3 614.55 USD.', true, 'gap'],
  [search, '$3,614.55 (or 3 541,95)', false, 'control'],
  [lateBy, 'April 29 - 3 days late', true, 'gap'],
  [lateBy, 'April 29 or 3', false, 'control'],
  [freebusy, 'Thursday 12 March at 12:30 - 3 hours free', true, 'gap'],
]

describe('checkAnswer: hedges, denials and spellings (0388)', () => {
  const table = rows.map(([p, answer, ok, tag]) => [answer, ok, tag, p] as const)
  it.each(table)('%s: ok %s (%s)', (answer, ok, _tag, p) => {
    expect(checkAnswer(answer, p.expected, p.wrong).ok).toBe(ok)
  })
})

describe('slack-decision-answer over the gym HTTP routes', () => {
  const t = TaskSpec.parse(slackDecisionAnswer.generate(1))
  const call = gymControl(t)
  const run = async (answer: string) => {
    const ep = await call('/gym/reset', { taskId: t.id })
    await call(`/gym/episodes/${ep.episodeId}/step`, { tool: 'done', arguments: { answer } })
    return (await call(`/gym/episodes/${ep.episodeId}/verify`)).reward as number
  }

  it('a weekday hedge earns nothing and a denied wrong date still earns 1', async () => {
    expect(await run('The Juniper GA release is on 29 April, or Sunday.')).toBe(0)
    expect(await run('Not 26 April: the Juniper GA release is on 29 April.')).toBe(1)
    expect(await run('The Juniper GA release is on April twenty-ninth.')).toBe(1)
  })
})
