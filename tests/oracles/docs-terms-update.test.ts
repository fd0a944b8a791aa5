import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { docsTermsUpdate } from '../../tasks-lite/families/docs/docs-terms-update.ts'
import { fill } from '../../gym/program-grammar.ts'
import { nearMiss as miss, oracleGym } from './support.ts'

const { judge } = oracleGym()

describe('program bindings', () => {
  it('apply a numeric offset to a bound number, and leave other values alone', () => {
    expect(fill('{{end-1}}', { end: 42 })).toBe(41)
    expect(fill('{{end+2}}', { end: 42 })).toBe(44)
    expect(fill('at {{end-1}}', { end: 42 })).toBe('at 41')
    expect(fill('{{name-1}}', { name: 'x' })).toBe('x')
  })
})

// Tables and named ranges in Docs: only the two cells and the named range's text change; replacing every occurrence
// (the history line repeats the old values) or losing the named range is not paid.
describe('docs-terms-update', () => {
  it.each([1, 2, 3])('seed %i: the reference is paid, the shortcuts are not', async (seed) => {
    const task = TaskSpec.parse(docsTermsUpdate.generate(seed))
    const ref = await judge(task, task.reference)
    expect(ref.details.checks.filter((c) => !c.ok)).toEqual([])
    expect(ref.reward).toBe(1)
    expect((await judge(task, [])).reward).toBeLessThan(1)
    const everywhere = await judge(task, miss(task, 'replaces every occurrence of the old date and fee'))
    expect(everywhere.details.checks.find((c) => c.name.includes('every other paragraph'))?.ok).toBe(false)
    const dropped = await judge(task, miss(task, 'retypes the sentence and drops the named range'))
    expect(dropped.details.checks.find((c) => c.name.includes('named range'))?.ok).toBe(false)
    expect((await judge(task, miss(task, "edits the other vendor's summary"))).reward).toBeLessThanOrEqual(0)
  })
})
