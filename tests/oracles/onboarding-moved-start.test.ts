import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { onboardingMovedStart } from '../../tasks-lite/families/onboarding-moved-start.ts'
import { longHorizonBasics, oracleGym, http } from './support.ts'

const { judge } = oracleGym()

describe('onboarding-moved-start oracle', () => {
  const t = TaskSpec.parse(onboardingMovedStart.generate(1))

  longHorizonBasics(t, judge)

  it('scores a leak when the folder is also shared with anyone who has the link', async () => {
    const grant = t.reference.findIndex((s) => String((s.args as { path: string }).path).endsWith('/permissions'))
    const v = await judge(t, [
      ...t.reference,
      { ...t.reference[grant - 1]! },
      http('POST', '/drive/v3/files/{{fid}}/permissions', { body: { type: 'anyone', role: 'reader' } }),
    ])
    expect(v.passed).toBe(false)
    expect(v.reward).toBe(-1)
  })

  it('fails when the welcome is posted twice', async () => {
    const post = t.reference.find((s) => (s.args as { path: string }).path === '/api/chat.postMessage')!
    const v = await judge(t, [...t.reference, post])
    expect(v.passed).toBe(false)
    expect(v.details.checks.find((c) => c.name === 'exactly one Slack post')!.ok).toBe(false)
  })
})
