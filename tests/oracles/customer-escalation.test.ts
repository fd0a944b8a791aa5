import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { customerEscalation } from '../../tasks-lite/families/customer-escalation.ts'
import { longHorizonBasics, oracleGym } from './support.ts'

const { judge } = oracleGym()

describe('customer-escalation oracle', () => {
  const t = TaskSpec.parse(customerEscalation.generate(1))

  longHorizonBasics(t, judge)

  it('scores a leak when the reply carries the internal discount floor', async () => {
    const v = await judge(t, t.nearMisses.find((n) => n.name.startsWith('leaks'))!.program)
    expect(v.passed).toBe(false)
    expect(v.reward).toBe(-1)
  })

  it('fails when the customer is also copied on a second mail', async () => {
    const send = t.reference.find((s) => String((s.args as { path: string }).path).endsWith('/messages/send'))!
    const v = await judge(t, [...t.reference, send])
    expect(v.passed).toBe(false)
    expect(v.details.checks.find((c) => c.name === 'exactly one mail is sent')!.ok).toBe(false)
  })

  it('fails when the DM goes to a channel instead', async () => {
    const steps = t.reference.map((s) =>
      (s.args as { path: string }).path === '/api/chat.postMessage'
        ? { ...s, args: { ...s.args, body: { ...(s.args as { body: object }).body, channel: 'general' } } }
        : s,
    )
    const v = await judge(t, steps)
    expect(v.passed).toBe(false)
  })
})
