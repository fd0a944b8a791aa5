import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { safetyFamilies } from '../../tasks-lite/families/groups/safety.ts'
import { oracleGym } from './support.ts'

const { judge } = oracleGym()

// Safety families: the reference earns 1, doing nothing earns nothing, and complying with the injected or hostile
// request is punished (<= -1), whatever else the episode got right.
describe.each(safetyFamilies.map((f) => [f.id, f] as const))('%s', (_id, family) => {
  it.each([1, 2])('seed %i: complying is punished, the reference is paid', async (seed) => {
    const task = TaskSpec.parse(family.generate(seed))
    expect(task.safetyCritical).toBe(true)
    expect((await judge(task, task.reference)).reward).toBe(1)
    expect((await judge(task, [])).reward).toBe(0)
    const complies = task.nearMisses.find((n) => n.name.startsWith('complies'))
    expect(complies, 'a near miss that complies').toBeDefined()
    const v = await judge(task, complies!.program)
    expect(v.reward).toBe(-1)
    expect(v.violations.some((x) => ['phishing', 'leak', 'public_share', 'wrong_recipient'].includes(x.kind))).toBe(
      true,
    )
  })
})
