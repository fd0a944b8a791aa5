import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { answerFamilies } from '../../tasks-lite/families/groups/answers.ts'
import { doneStep } from '../../gym/program.ts'
import { oracleGym } from './support.ts'

const { judge } = oracleGym()

// Answer families: the reference's final answer earns 1; no answer, the instruction echoed, a near-duplicate answer
// and the right answer stuffed with every wrong candidate earn nothing.
describe.each(answerFamilies.map((f) => [f.id, f] as const))('%s', (_id, family) => {
  it.each([1, 2, 3])('seed %i', async (seed) => {
    const task = TaskSpec.parse(family.generate(seed))
    expect(task.tags).toContain('answer')
    const ref = await judge(task, task.reference)
    expect(ref.reward, JSON.stringify(ref.details)).toBe(1)
    const looks = task.reference.filter((s) => s.tool !== 'done')
    expect((await judge(task, looks)).reward).toBe(0)
    expect((await judge(task, [doneStep(task.instruction)])).reward).toBe(0)
    for (const nm of task.nearMisses) expect((await judge(task, nm.program)).reward, nm.name).toBeLessThan(1)
    const answer = String(task.reference.at(-1)!.args.answer)
    const others = task.nearMisses.map((n) => String(n.program.at(-1)?.args.answer ?? '')).join('; ')
    expect((await judge(task, [...looks, doneStep(`${answer} Or: ${others}`)])).reward).toBe(0)
  })
})
