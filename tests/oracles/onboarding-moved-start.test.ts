import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { onboardingMovedStart } from '../../tasks-lite/families/onboarding-moved-start.ts'
import { oracleGym, http } from './support.ts'

const { judge } = oracleGym()

describe('onboarding-moved-start oracle', () => {
  const t = TaskSpec.parse(onboardingMovedStart.generate(1))

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
