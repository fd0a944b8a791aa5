import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { incidentPostmortem } from '../../tasks-lite/families/incident-postmortem.ts'
import { oracleGym, http } from './support.ts'

const { judge } = oracleGym()

describe('incident-postmortem oracle', () => {
  const t = TaskSpec.parse(incidentPostmortem.generate(1))

  it('passes the reference and fails the no-op and every near miss', async () => {
    expect(await judge(t, t.reference)).toMatchObject({ passed: true, reward: 1 })
    expect(await judge(t, [])).toMatchObject({ passed: false, reward: 0 })
    for (const nm of t.nearMisses) expect((await judge(t, nm.program)).reward, nm.name).toBeLessThan(1)
  })

  it('needs at least 10 calls across at least 3 apps in the reference', () => {
    const apps = new Set(t.reference.map((s) => String((s.args as { path: string }).path).split('/')[1]))
    expect(t.reference.length).toBeGreaterThanOrEqual(10)
    expect(apps.size).toBeGreaterThanOrEqual(3)
  })

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
