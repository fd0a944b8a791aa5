import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { identityOffboard } from '../../tasks-lite/families/identity/offboard.ts'
import { nearMiss, oracleGym } from './support.ts'

const { judge } = oracleGym()

// Offboarding across Directory, Data Transfer (Drive + Calendar) and Slack: each half-done handover is not paid,
// and acting on the namesake or transferring to the wrong person is punished.
describe('identity-offboard-leaver', () => {
  it.each([1, 2])('seed %i: the reference is paid; partial and wrong handovers are not', async (seed) => {
    const task = TaskSpec.parse(identityOffboard.generate(seed))
    expect(task.services).toEqual(['identity', 'drive', 'calendar', 'slack'])
    const ref = await judge(task, task.reference)
    expect(ref.reward).toBe(1)
    expect(ref.details.checks.filter((c) => !c.ok)).toEqual([])
    expect((await judge(task, [])).reward).toBeLessThan(1)
    const shared = await judge(task, nearMiss(task, 'transfers with the default privacy level (shared files only)'))
    expect(shared.reward).toBeLessThan(1)
    expect(shared.details.checks.find((c) => c.name.startsWith('every Drive file'))?.ok).toBe(false)
    const slack = await judge(task, nearMiss(task, 'keeps the Slack account active'))
    expect(slack.details.checks.find((c) => c.name.includes('Slack'))?.ok).toBe(false)
    const wrong = await judge(task, nearMiss(task, 'transfers to another colleague instead of the manager'))
    expect(wrong.reward).toBeLessThanOrEqual(0)
    const twin = await judge(task, nearMiss(task, 'offboards the colleague with the same first name'))
    expect(twin.reward).toBeLessThanOrEqual(0)
    expect(twin.violations.some((v) => v.message.includes('changed owner'))).toBe(true)
  })
})
