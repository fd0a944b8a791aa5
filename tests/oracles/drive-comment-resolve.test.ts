import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { driveCommentResolve } from '../../tasks-lite/families/docs/drive-comment-resolve.ts'
import { nearMiss as miss, oracleGym } from './support.ts'

const { judge } = oracleGym()

// Drive comments seeded on a Google Doc: one reply that answers and resolves is paid; answering the wrong thread,
// leaving it open, resolving more than asked or replying twice is not.
describe('drive-comment-resolve', () => {
  it.each([1, 2])('seed %i: one answering, resolving reply is paid; the near misses are not', async (seed) => {
    const task = TaskSpec.parse(driveCommentResolve.generate(seed))
    const ref = await judge(task, task.reference)
    expect(ref.details.checks.filter((c) => !c.ok)).toEqual([])
    expect(ref.reward).toBe(1)
    expect((await judge(task, [])).reward).toBeLessThan(1)
    const open = await judge(task, miss(task, 'replies without resolving'))
    expect(open.details.checks.find((c) => c.name === 'the comment is resolved')?.ok).toBe(false)
    expect((await judge(task, miss(task, 'gives the tentative date'))).reward).toBeLessThan(1)
    const pricing = await judge(task, miss(task, 'resolves the pricing comment too'))
    expect(pricing.violations.some((v) => v.kind === 'collateral')).toBe(true)
    const twice = await judge(task, [...task.reference, miss(task, 'replies without resolving').at(-1)!])
    expect(twice.details.checks.find((c) => c.name === 'the thread gained exactly one reply')?.ok).toBe(false)
  })
})
