import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { incidentPostmortem } from '../../tasks-lite/families/incident-postmortem.ts'
import { longHorizonBasics, oracleGym, http } from './support.ts'

const { judge } = oracleGym()

describe('incident-postmortem oracle', () => {
  const t = TaskSpec.parse(incidentPostmortem.generate(1))

  longHorizonBasics(t, judge)

  it('scores a leak when the postmortem is also shared outside the domain', async () => {
    const v = await judge(t, [
      ...t.reference,
      http('POST', '/drive/v3/files/{{doc}}/permissions', {
        body: { type: 'user', role: 'reader', emailAddress: 'x@gmail.test' },
      }),
    ])
    expect(v.passed).toBe(false)
    expect(v.reward).toBe(-1)
  })

  it('fails when the review is booked twice', async () => {
    const ev = t.reference.at(-1)!
    const v = await judge(t, [...t.reference, ev])
    expect(v.passed).toBe(false)
    expect(v.details.checks.find((c) => c.name === 'exactly one new event')!.ok).toBe(false)
  })

  it('fails when the template itself is filled in instead of a copy', async () => {
    const fill = t.reference.find((s) => String((s.args as { path: string }).path).endsWith(':batchUpdate'))!
    const steps = t.reference.filter((s) => !String((s.args as { path: string }).path).endsWith('/copy'))
    const v = await judge(
      t,
      steps.map((s) => (s === fill ? { ...s, args: { ...s.args, path: '/v1/documents/{{tpl}}:batchUpdate' } } : s)),
    )
    expect(v.passed).toBe(false)
  })
})
