import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { driveRestoreVersion } from '../../tasks-lite/families/docs/drive-restore-version.ts'
import { nearMiss as miss, oracleGym } from './support.ts'

const { judge } = oracleGym()

// Drive revisions: only the bytes of the version asked for are paid; the original, the overwrite or a retyped copy
// are not.
describe('drive-restore-version', () => {
  it.each([1, 2])('seed %i: the right revision is paid, other versions are not', async (seed) => {
    const task = TaskSpec.parse(driveRestoreVersion.generate(seed))
    const ref = await judge(task, task.reference)
    expect(ref.details.checks.filter((c) => !c.ok)).toEqual([])
    expect(ref.reward).toBe(1)
    expect((await judge(task, [])).reward).toBe(0)
    for (const name of [
      'restores the original version',
      'restores the latest version (no change)',
      'retypes the prices, the last one off by one',
    ])
      expect((await judge(task, miss(task, name))).reward, name).toBeLessThan(1)
  })
})
