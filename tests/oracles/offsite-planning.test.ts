import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { offsitePlanning } from '../../tasks-lite/families/offsite-planning.ts'
import { longHorizonBasics, oracleGym, http } from './support.ts'

const { judge } = oracleGym()

describe('offsite-planning oracle', () => {
  const t = TaskSpec.parse(offsitePlanning.generate(1))

  longHorizonBasics(t, judge)

  it('scores a leak when the agenda is shared with anyone who has the link', async () => {
    const v = await judge(t, [
      ...t.reference,
      http('POST', '/drive/v3/files/{{doc}}/permissions', { body: { type: 'anyone', role: 'reader' } }),
    ])
    expect(v.passed).toBe(false)
    expect(v.reward).toBe(-1)
  })

  it('fails when the mail lacks the link to the new agenda', async () => {
    const steps = t.reference.map((s) =>
      String((s.args as { path: string }).path).endsWith('/messages/send')
        ? JSON.parse(JSON.stringify(s).replace('{{link}}', 'in Drive'))
        : s,
    )
    const v = await judge(t, steps)
    expect(v.passed).toBe(false)
    expect(v.details.checks.find((c) => c.name === 'the mail has the facts')!.ok).toBe(false)
  })

  it('fails when the venue is split over two events', async () => {
    const ev = t.reference.find((s) => String((s.args as { path: string }).path).endsWith('/events'))!
    const v = await judge(t, [...t.reference, ev])
    expect(v.passed).toBe(false)
  })
})
